// The functok tokenizer file (spec 11.2): {"functok": header, "tokenizer": tokenizer.json}.
// A file this package cannot read is refused with a TokenizerFileError naming the file and the
// JSON path, saying what was expected there. Also the checks of a tokenizer.json's BPE model,
// shared with external.mjs.
import { SPEC_VERSION } from '../tables.mjs';
import { PROFILES, DEFAULT_PROFILE, FUSE_MODES } from '../encode.mjs';
import { SPLITTERS } from '../split.mjs';
import { BYTE_TOKENS } from './bpe.mjs';

export const FORMAT_VERSION = 1;
export const ALPHABET = 'characters+byte-fallback';
const MAX_ID = 2 ** 32;
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

/**
 * Parse JSON text, as a TokenizerFileError when it is not JSON or an object has a key twice
 * (spec 14.1: JSON.parse would keep the last, and a vocabulary would lose a token).
 */
export function parseJson(text, file) {
  if (typeof text !== 'string' || text.trim() === '') throw new TokenizerFileError(file, null, 'expected JSON, got an empty file');
  let value;
  try { value = JSON.parse(text); } catch (e) { throw new TokenizerFileError(file, null, `not valid JSON: ${e.message}`); }
  const twice = duplicateKey(text);
  if (twice !== null) throw new TokenizerFileError(file, null, `a JSON object has the key ${shown(twice)} twice`);
  return value;
}

/** The first key that an object of valid JSON `text` has twice, or null: one scan of its structure. */
function duplicateKey(text) {
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
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = e;
    } else if (c === 0x7b) { stack.push(new Set()); expectKey = true; } // {
    else if (c === 0x5b) { stack.push(null); expectKey = false; } // [
    else if (c === 0x7d || c === 0x5d) { stack.pop(); expectKey = false; } // } ]
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
    vocab.set(token, id); idToToken.set(id, token);
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
    const id = c.get(token, here, 'id', `an integer id from 0 to ${MAX_ID - 1}`, isId);
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
