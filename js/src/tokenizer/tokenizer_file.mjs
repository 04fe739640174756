// The functok tokenizer file (spec 14.1 to 14.3): {"functok": header, "tokenizer": tokenizer.json}.
// A file this package cannot read is refused with a TokenizerFileError naming the file and the
// JSON path, saying what was expected there. Also the checks of a tokenizer.json's BPE model,
// shared with external.mjs.
import { SPEC_VERSION } from '../tables.mjs';
import { PROFILES, DEFAULT_PROFILE, FUSE_MODES } from '../encoding.mjs';
import { SPLITTERS } from '../splitting.mjs';
import { BYTE_TOKENS } from './bpe.mjs';

export const FORMAT_VERSION = 1;
export const ALPHABET = 'characters+byte-fallback';
const MAX_ID = 2 ** 32;
/** Arrays and objects nest at most this deep in a tokenizer file (spec 14.1), as `tokenizers` reads one. */
export const MAX_DEPTH = 127;
const NULL_FIELDS = ['normalizer', 'pre_tokenizer', 'post_processor', 'decoder', 'truncation', 'padding'];
const NULL_MODEL_FIELDS = ['dropout', 'unk_token', 'continuing_subword_prefix', 'end_of_word_suffix'];

/** A tokenizer file that cannot be read: `file`, `where` (a JSON path, or null) and `problem`. */
export class TokenizerFileError extends Error {
  constructor(file, where, problem) {
    super(where ? `${file}: ${where}: ${problem}` : `${file}: ${problem}`);
    this.name = 'TokenizerFileError';
    this.file = file;
    this.where = where;
    this.problem = problem;
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const shown = (s) => { const q = JSON.stringify(s); return q.length <= 60 ? q : `${q.slice(0, 56)}..."`; };
export const field = (path, name) => (NAME.test(name) ? `${path}.${name}` : `${path}[${shown(name)}]`);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
// spec 14.1: an integer member is a whole number however written (JSON.parse reads 5.0 as 5)
const isId = (v) => Number.isInteger(v) && v >= 0 && v < MAX_ID;
export function describe(v) {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'string') return `the string ${shown(v)}`;
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

const MISSING = Symbol('missing');
export class Checker {
  constructor(file) { this.file = file; }
  fail(where, problem) { throw new TokenizerFileError(this.file, where, problem); }
  /** obj[name] if ok(value); a missing key is `dflt` when one is given. */
  get(obj, path, name, expected, ok, dflt = MISSING) {
    if (!Object.hasOwn(obj, name)) {
      if (dflt !== MISSING) return dflt;
      this.fail(field(path, name), `expected ${expected}, got nothing (the key is missing)`);
    }
    const v = obj[name];
    if (!ok(v)) this.fail(field(path, name), `expected ${expected}, got ${describe(v)}`);
    return v;
  }
}

/** A file's bytes through Node's `fs`; an unreadable file (missing, a folder) is a TokenizerFileError naming it. */
export function readBytes(fs, path) {
  try {
    return fs.readFileSync(path);
  } catch (e) {
    if (typeof e?.code !== 'string') throw e;
    const why = /^[A-Z]+: ([^,]*)/.exec(e.message)?.[1] ?? e.code; // "ENOENT: no such file or directory, open ..."
    throw new TokenizerFileError(String(path), null, `cannot read the file: ${why} (${e.code})`);
  }
}

/**
 * A file's bytes as UTF-8 text (spec 14.1): ill-formed UTF-8 (which a plain decoder would turn
 * into U+FFFD, silently changing a token) or a byte order mark is a TokenizerFileError.
 */
export function decodeUtf8(bytes, file) {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new TokenizerFileError(file, null, 'expected UTF-8 without a byte order mark, but the file starts with one');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const at = firstBadUtf8(bytes);
    throw new TokenizerFileError(file, null, `expected UTF-8, but byte ${at} is 0x${bytes[at].toString(16).toUpperCase().padStart(2, '0')}`);
  }
}

/** The offset of the first byte that begins no well-formed UTF-8 sequence (as Python's decoder reports it). */
function firstBadUtf8(b) {
  for (let i = 0; i < b.length;) {
    const [n, lo, hi] = utf8Lead(b[i]);
    if (n < 0) return i;
    if (n > 0 && !(b[i + 1] >= lo && b[i + 1] <= hi)) return i; // undefined past the end: false
    for (let k = 2; k <= n; k++) if (!(b[i + k] >= 0x80 && b[i + k] <= 0xbf)) return i;
    i += n + 1;
  }
  return 0;
}

/** A lead byte's count of continuation bytes and the range of the first (Unicode table 3-7); -1: none. */
function utf8Lead(c) {
  if (c < 0x80) return [0, 0, 0];
  if (c >= 0xc2 && c <= 0xdf) return [1, 0x80, 0xbf];
  if (c === 0xe0) return [2, 0xa0, 0xbf];
  if (c === 0xed) return [2, 0x80, 0x9f];
  if (c >= 0xe1 && c <= 0xef) return [2, 0x80, 0xbf];
  if (c === 0xf0) return [3, 0x90, 0xbf];
  if (c >= 0xf1 && c <= 0xf3) return [3, 0x80, 0xbf];
  if (c === 0xf4) return [3, 0x80, 0x8f];
  return [-1, 0, 0];
}

/**
 * Parse JSON text (RFC 8259: JSON.parse refuses NaN and Infinity), as a TokenizerFileError when
 * it is not JSON, an object has a key twice (spec 14.1: JSON.parse would keep the last, and a
 * vocabulary would lose a token), or arrays and objects nest more than MAX_DEPTH deep.
 */
export function parseJson(text, file) {
  if (typeof text !== 'string' || text.trim() === '') throw new TokenizerFileError(file, null, 'expected JSON, got an empty file');
  let value;
  try { value = JSON.parse(text); } catch (e) { throw new TokenizerFileError(file, null, `not valid JSON: ${e.message}`); }
  const fault = structureFault(text);
  if (fault !== null) throw new TokenizerFileError(file, null, fault);
  return value;
}

/** What is wrong with the structure of valid JSON `text` (a key twice, too deep), or null: one scan. */
function structureFault(text) {
  const stack = []; // a Set of keys per open object, null per open array
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // a string: find its end (a quote after an even run of backslashes)
      let e = i;
      for (;;) {
        e = text.indexOf('"', e + 1);
        let b = e - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        if ((e - 1 - b) % 2 === 0) break;
      }
      if (expectKey) {
        const raw = text.slice(i + 1, e);
        const key = raw.includes('\\') ? JSON.parse(text.slice(i, e + 1)) : raw;
        const keys = stack[stack.length - 1];
        if (keys.has(key)) return `a JSON object has the key ${shown(key)} twice`;
        keys.add(key);
        expectKey = false;
      }
      i = e;
    } else if (c === 0x7b || c === 0x5b) { // { [
      stack.push(c === 0x7b ? new Set() : null);
      expectKey = c === 0x7b;
      if (stack.length > MAX_DEPTH) return `expected JSON nested at most ${MAX_DEPTH} deep (arrays and objects)`;
    } else if (c === 0x7d || c === 0x5d) { stack.pop(); expectKey = false; } // } ]
    else if (c === 0x2c) expectKey = stack[stack.length - 1] != null; // , in an object: a key follows
  }
  return null;
}

function versionParts(v) {
  const m = typeof v === 'string' ? /^([0-9]{1,9})\.([0-9]{1,9})\.([0-9]{1,9})$/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}
/** Same MAJOR and no newer MINOR (spec 11.2). */
export function covers(implemented, saved) {
  const a = versionParts(implemented), b = versionParts(saved);
  return a !== null && b !== null && a[0] === b[0] && b[1] <= a[1];
}

/** Check the header; returns the settings it stands for: { splitter, normalize, profile, fuse, specVersion }. */
export function checkHeader(header, file = '<object>') {
  const c = new Checker(file);
  const at = '$.functok';
  if (!isObject(header)) c.fail(at, `not a functok tokenizer file: expected the header object, got ${describe(header)}`);
  const version = header.format_version;
  if (version !== FORMAT_VERSION) {
    c.fail(field(at, 'format_version'), `functok tokenizer file format version ${JSON.stringify(version) ?? 'undefined'} is not supported: expected ${FORMAT_VERSION}, the version this functok reads`);
  }
  const spec = header.spec_version;
  if (!covers(SPEC_VERSION, spec)) {
    c.fail(field(at, 'spec_version'), `tokenizer was saved for format spec_version ${typeof spec === 'string' && spec.length < 40 ? spec : describe(spec)}; this functok implements spec_version ${SPEC_VERSION}: expected ${SPEC_VERSION.split('.')[0]}.0.0 up to ${SPEC_VERSION}`);
  }
  const splitter = c.get(header, at, 'splitter', `one of ${SPLITTERS.join(', ')} (unknown splitter)`, (v) => SPLITTERS.includes(v));
  const normalize = c.get(header, at, 'normalize', '"nfc" or null (unknown normalization)', (v) => v === 'nfc' || v === null);
  const splitOperators = c.get(header, at, 'split_operators', 'true or false', (v) => typeof v === 'boolean');
  const profile = c.get(header, at, 'profile', `one of ${Object.keys(PROFILES).join(', ')} (unknown profile)`,
    (v) => typeof v === 'string' && Object.hasOwn(PROFILES, v), DEFAULT_PROFILE);
  c.get(header, at, 'alphabet', `${JSON.stringify(ALPHABET)} (unknown alphabet)`, (v) => v === ALPHABET, ALPHABET);
  // `fuse` (spec 9): absent, it is what split_operators says ("none" when true, "all" when false)
  const fuse = c.get(header, at, 'fuse', `one of ${FUSE_MODES.join(', ')} (unknown fuse mode)`, (v) => FUSE_MODES.includes(v), null);
  // with both, they must agree: split_operators is false exactly for "all" (spec 14.2)
  if (fuse !== null && (fuse !== 'all') !== splitOperators) {
    c.fail(field(at, 'fuse'), `fuse ${JSON.stringify(fuse)} contradicts split_operators ${splitOperators}: expected split_operators false for "all" and true otherwise`);
  }
  return { splitter, normalize, profile, fuse: fuse ?? (splitOperators ? 'none' : 'all'), splitOperators, specVersion: spec };
}

/** The BPE parts of a tokenizer.json at JSON path `root`: { model, vocab: Map, merges, specialTokens: Map, idToToken: Map }. */
export function checkBpe(data, file, root, { addedInVocab = false } = {}) {
  const c = new Checker(file);
  if (!isObject(data)) c.fail(root, `expected an object (a tokenizer.json), got ${describe(data)}`);
  const model = c.get(data, root, 'model', 'an object', isObject);
  const at = field(root, 'model');
  c.get(model, at, 'type', '"BPE"', (v) => v === 'BPE', 'BPE');
  const vocabObject = c.get(model, at, 'vocab', 'an object (token to id)', isObject);
  const vocab = new Map(), idToToken = new Map();
  for (const [token, id] of Object.entries(vocabObject)) {
    const where = `${field(at, 'vocab')}[${shown(token)}]`;
    if (!isId(id)) c.fail(where, `expected an integer id from 0 to ${MAX_ID - 1}, got ${describe(id)}`);
    if (idToToken.has(id)) c.fail(where, `expected a unique id, got ${id}, the id of ${shown(idToToken.get(id))}`);
    vocab.set(token, id + 0); idToToken.set(id + 0, token); // + 0: -0 is the id 0
  }
  const rawMerges = c.get(model, at, 'merges', 'a list of merges', Array.isArray);
  const merges = rawMerges.map((m, k) => {
    const here = `${field(at, 'merges')}[${k}]`;
    let pair = null;
    if (typeof m === 'string' && m.split(' ').length === 2) pair = m.split(' ');
    else if (Array.isArray(m) && m.length === 2 && m.every((t) => typeof t === 'string')) pair = m;
    else c.fail(here, `expected a merge, "left right" or ["left", "right"], got ${describe(m)}`);
    for (const t of pair) if (!vocab.has(t)) c.fail(here, `expected a token of the vocabulary, got ${describe(t)}`);
    if (!vocab.has(pair[0] + pair[1])) c.fail(here, `expected a merge whose result is a token, but ${shown(pair[0] + pair[1])} is not in the vocabulary`);
    return [pair[0], pair[1]];
  });
  const added = c.get(data, root, 'added_tokens', 'a list of tokens', (v) => v === null || Array.isArray(v), null);
  const specialTokens = new Map(), ids = new Set();
  (added ?? []).forEach((token, k) => {
    const here = `${field(root, 'added_tokens')}[${k}]`;
    if (!isObject(token)) c.fail(here, `expected an object with content and id, got ${describe(token)}`);
    const content = c.get(token, here, 'content', 'a non-empty string', (v) => typeof v === 'string' && v !== '');
    const id = c.get(token, here, 'id', `an integer id from 0 to ${MAX_ID - 1}`, isId) + 0;
    if (vocab.has(content) || addedInVocab) {
      if (vocab.get(content) !== id) c.fail(field(here, 'id'), `expected the vocabulary's id of ${shown(content)} (${vocab.get(content) ?? 'none: it is not in the vocabulary'}), got ${id}`);
    } else if (idToToken.has(id)) c.fail(field(here, 'id'), `expected an id no vocabulary token has, got ${id}, the id of ${shown(idToToken.get(id))}`);
    if (specialTokens.has(content)) c.fail(here, `expected each added token once, got ${shown(content)} again`);
    if (ids.has(id)) c.fail(field(here, 'id'), `expected a unique id, got ${id} again`);
    specialTokens.set(content, id); ids.add(id);
  });
  return { model, vocab, merges, specialTokens, idToToken };
}

/** The `tokenizer` part of a functok file: BPE with byte fallback and all 256 byte tokens, nothing that changes its ids. */
export function checkFunctokModel(hf, file) {
  const root = '$.tokenizer';
  const checked = checkBpe(hf, file, root, { addedInVocab: true });
  const c = new Checker(file), at = field(root, 'model');
  c.get(checked.model, at, 'byte_fallback', "true: a functok tokenizer's BPE model must have byte_fallback", (v) => v === true);
  for (const name of NULL_FIELDS) c.get(hf, root, name, 'null (functok makes the pre-tokens and ids itself)', (v) => v === null, null);
  for (const name of NULL_MODEL_FIELDS) c.get(checked.model, at, name, "null (functok's BPE has none)", (v) => v === null, null);
  c.get(checked.model, at, 'ignore_merges', 'false', (v) => v === false, false);
  const missing = BYTE_TOKENS.filter((t) => !checked.vocab.has(t)).sort();
  if (missing.length) c.fail(field(at, 'vocab'), `the vocabulary lacks byte-fallback tokens, e.g. ${missing[0]}: expected all 256, <0x00> to <0xFF>, or ids would not be lossless`);
  [...checked.specialTokens.keys()].forEach((token, k) => {
    if (BYTE_TOKENS.includes(token)) c.fail(`${field(root, 'added_tokens')}[${k}]`, `expected a special token, got the byte token ${token}`);
  });
  return checked;
}

/** The checked header and the tokenizer part of a parsed file. */
export function fileParts(data, source) {
  if (!isObject(data) || !Object.hasOwn(data, 'functok') || !Object.hasOwn(data, 'tokenizer')) {
    throw new TokenizerFileError(source, '$', `not a functok tokenizer file: expected an object with the keys "functok" and "tokenizer", got ${describe(data)}`);
  }
  return [checkHeader(data.functok, source), data.tokenizer];
}
