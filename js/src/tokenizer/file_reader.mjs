// Reading a tokenizer's files: bytes (through Node's `fs`), UTF-8, JSON and tiktoken rank lines, each fault a
// TokenizerFileError naming the file. Every loader (tokenizer.mjs, external.mjs) reads through here.
import { TokenizerFileError, shown } from './json_checks.mjs';

/** Arrays and objects nest at most this deep in a tokenizer file (spec 14.1), as `tokenizers` reads one. */
export const MAX_DEPTH = 127;

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

// A rank file's line (spec 14.8): a padded base64 token (RFC 4648 section 4) and a rank of at most
// 10 ASCII digits, below 2**32, separated and surrounded by ASCII spaces, tabs, VT or FF only.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const FIELD_SPACE = /[ \t\v\f]+/;
const LINE = '"<base64 token> <rank>"';
const MAX_RANK = 2 ** 32;

/**
 * tiktoken ranks: the text (or bytes) of a rank file, one `base64(token) rank` per line, or
 * js-tiktoken's packed ranks object ({ bpe_ranks, special_tokens, pat_str }, as in
 * js-tiktoken/ranks/gpt2). Returns Map byte string -> rank; refuses a file without all 256 bytes.
 */
export function readTiktokenRanks(source, name = 'ranks') {
  const ranks = new Map(), lineOfRank = new Map();
  const add = (b64, rank, where) => {
    if (!BASE64.test(b64)) throw new TokenizerFileError(name, where, `expected ${LINE}, but the token is not base64`);
    const token = atob(b64);
    if (ranks.has(token)) throw new TokenizerFileError(name, where, `expected each token once, got ${JSON.stringify(b64)} again`);
    if (lineOfRank.has(rank)) throw new TokenizerFileError(name, where, `expected a unique rank, got ${rank}, the rank of ${lineOfRank.get(rank)}`);
    ranks.set(token, rank); lineOfRank.set(rank, where);
  };
  if (source !== null && typeof source === 'object' && typeof source.bpe_ranks === 'string') {
    for (const line of source.bpe_ranks.split('\n')) {
      if (!line) continue;
      const [, offset, ...tokens] = line.split(' ');
      tokens.forEach((t, k) => add(t, Number(offset) + k, 'bpe_ranks'));
    }
  } else {
    // bytes as Latin-1: a byte that is not ASCII is a character no field may hold, as in Python
    const text = typeof source === 'string' ? source : Array.from(source, (b) => String.fromCharCode(b)).join('');
    text.split(/\r\n|\r|\n/).forEach((line, k) => {
      const where = `line ${k + 1}`;
      const parts = line.split(FIELD_SPACE).filter((x) => x !== '');
      if (parts.length === 0) return;
      if (parts.length !== 2) throw new TokenizerFileError(name, where, `expected ${LINE}, got ${parts.length} field${parts.length === 1 ? '' : 's'}`);
      if (!BASE64.test(parts[0])) throw new TokenizerFileError(name, where, `expected ${LINE}, but the token is not base64`);
      if (!/^[0-9]{1,10}$/.test(parts[1]) || Number(parts[1]) >= MAX_RANK) {
        throw new TokenizerFileError(name, where, `expected a rank from 0 to ${MAX_RANK - 1}, got ${JSON.stringify(parts[1].slice(0, 40))}`);
      }
      add(parts[0], Number(parts[1]), where);
    });
  }
  if (ranks.size === 0) throw new TokenizerFileError(name, null, `expected lines ${LINE}, got an empty file`);
  for (let b = 0; b < 256; b++) {
    if (!ranks.has(String.fromCharCode(b))) throw new TokenizerFileError(name, null, `expected a rank for each of the 256 single bytes, but byte 0x${b.toString(16).toUpperCase().padStart(2, '0')} has none`);
  }
  return ranks;
}
