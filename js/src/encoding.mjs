// The encoder (spec 6): text -> NFC -> pieces -> fold, marks and case -> group + base, in one scan
// of the whole text. The steps are their own modules: options.mjs (6.6), piece.mjs (6.1 to 6.4),
// serialize.mjs (6.3 to 6.5: escapes, instructions, `pieces`) and pretokenize.mjs (9); this
// module re-exports their public names, so that `encoding.mjs` is the encoder's one entry.
import { nfc, clearSpanCache } from './normalize.mjs';
import { pieceEnd, digitsOf } from './splitting.mjs';
import { configOf, checkNormalize, checkText, foldsRepeats, DEFAULT_PROFILE } from './options.mjs';
import { SPECIAL, specialMask, encodesToItself } from './piece.mjs';
import { encodePiece } from './serialize.mjs';
import { clearPretokenCaches } from './pretokenize.mjs';

export { FEATURES, FOLDS, CASES, PROFILES, DEFAULT_PROFILE, encoderOptions } from './options.mjs';
export { Instruction, pieces } from './serialize.mjs';
export { pretokens, FUSE_MODES } from './pretokenize.mjs';

/** Forget every cached piece (benchmarks use this for a cold start). */
export function clearCaches() { tables.clear(); clearPretokenCaches(); clearSpanCache(); }

// The output is built in a UTF-16 buffer and read back with TextDecoder, which needs the host's
// byte order to be little-endian (it is on every engine in use); elsewhere, by String.fromCharCode.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const UTF16 = LITTLE_ENDIAN && typeof TextDecoder === 'function'
  ? new TextDecoder('utf-16le', { ignoreBOM: true }) : null; // keep a leading U+FEFF

function bufferString(buf, length) {
  if (UTF16 !== null) return UTF16.decode(buf.subarray(0, length));
  let out = '';
  for (let k = 0; k < length; k += 8192) out += String.fromCharCode.apply(null, buf.subarray(k, Math.min(k + 8192, length)));
  return out;
}

function grow(buf, need) {
  const bigger = new Uint16Array(Math.max(need, buf.length * 2));
  bigger.set(buf);
  return bigger;
}

/**
 * The encoder's piece cache: an open-addressing hash table keyed by the piece's code units as
 * they lie in the output buffer, so that a hit needs no slice of the text and no string hash.
 * Values are encodePiece's entries. Doubled when half full, up to 2**maxBits slots; then emptied.
 */
class PieceTable {
  constructor(bits, maxBits) {
    this.maxBits = maxBits;
    this.resize(bits);
  }
  resize(bits) {
    this.bits = bits;
    this.mask = (1 << bits) - 1;
    this.limit = 1 << (bits - 1);
    this.hashes = new Int32Array(this.mask + 1);
    this.keys = new Array(this.mask + 1).fill(null);
    this.values = new Array(this.mask + 1).fill(null);
    this.size = 0;
  }
  /** Double the table (re-inserting every entry), or empty it at the largest size. */
  grow() {
    const { hashes, keys, values } = this;
    if (this.bits >= this.maxBits) { this.resize(this.bits); return; }
    this.resize(this.bits + 1);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === null) continue;
      let k = hashes[i] & this.mask;
      while (this.keys[k] !== null) k = (k + 1) & this.mask;
      this.hashes[k] = hashes[i]; this.keys[k] = key; this.values[k] = values[i];
      this.size++;
    }
  }
  /** The slot of the key buf[j:j+len] with hash h: its own, or the empty one where it belongs. */
  slot(buf, j, len, h) {
    const { hashes, keys, mask } = this;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const key = keys[i];
      if (key === null) return i;
      if (hashes[i] === h && key.length === len) {
        let k = 0;
        while (k < len && key[k] === buf[j + k]) k++;
        if (k === len) return i;
      }
    }
  }
  insert(i, buf, j, len, h, value) {
    if (this.size >= this.limit) { this.grow(); i = this.slot(buf, j, len, h); }
    this.hashes[i] = h;
    this.keys[i] = buf.slice(j, j + len);
    this.values[i] = value;
    this.size++;
  }
}
const tables = new Map(); // configuration -> PieceTable

/**
 * Encode text to a stream (spec 6): normalize, then cut and encode piece by piece in one scan.
 * Each piece is copied into the output buffer as it is checked; a piece that encodes to itself
 * (the usual case) stays, any other is overwritten with its encoding, from the piece cache.
 */
export function encode(text, { normalize = 'nfc', splitter = 'llama3', profile = DEFAULT_PROFILE, fold, case: caseOption, features } = {}) {
  checkNormalize(normalize);
  const cfg = configOf(features, profile, fold, caseOption);
  const digits = digitsOf(splitter);
  if (typeof text !== 'string') throw new TypeError(`expected a string, not ${typeof text}`);
  let t = text;
  if (normalize === 'nfc') t = nfc(text, true);
  else checkText(text);
  const n = t.length;
  if (n === 0) return t;
  const mask = specialMask(cfg), repeats = foldsRepeats(cfg);
  let table = tables.get(cfg);
  if (table === undefined) { table = new PieceTable(10, 17); tables.set(cfg, table); }
  let buf = new Uint16Array(n + (n >> 3) + 64);
  let j = 0; // buf[0:j] is the stream so far
  let changed = false;
  for (let start = 0; start < n;) {
    const end = pieceEnd(t, start, n, digits);
    const len = end - start;
    if (j + len > buf.length) buf = grow(buf, j + len);
    let special = 0;
    for (let i = start, k = j; i < end; i++, k++) {
      const c = t.charCodeAt(i);
      buf[k] = c;
      special |= SPECIAL[c];
    }
    if (encodesToItself(t, start, end, special, mask, repeats)) j += len;
    else {
      // hashed only here: most pieces encode to themselves and need no table
      let h = len;
      for (let k = j, e = j + len; k < e; k++) h = (Math.imul(h, 0x01000193) ^ buf[k]) | 0;
      h ^= h >>> 15;
      h = Math.imul(h, 0x2c1b3c6d);
      h ^= h >>> 12;
      const at = table.slot(buf, j, len, h);
      let entry = table.values[at];
      if (entry === null) {
        entry = encodePiece(t.slice(start, end), cfg);
        table.insert(at, buf, j, len, h, entry);
      }
      const { units } = entry;
      if (j + units.length > buf.length) buf = grow(buf, j + units.length);
      buf.set(units, j);
      j += units.length;
      changed ||= entry.changed;
    }
    start = end;
  }
  return changed ? bufferString(buf, j) : t;
}

// Type feedback for every branch of the encoder before real text arrives: without it, the first
// long text deoptimizes the hot loop each time it meets a kind of piece it has not seen (a
// capital, a mark, a repeat, an escape, a supplementary code point), and runs in the
// interpreter until it is optimized again (measured: a cold first pass at about 60% of a warm one).
const WARM = "Hello World, naïve CAFÉ 123 4567 don't WE'LL x  = 1;\n\t\tif (a) {\n        return 'ok'\n    }\r\n"
  + 'aaa abcabcabc ÀÉÎÕÜ ǅ ẞ İstanbul 漢字 😀 \ue100\uefff ----- ==== ____ \u3000\u3000 HTTPServer MAX_SIZE Ω ﬁ é\u0301 e\u0308';
for (const text of [WARM, ...WARM.split(/(?<=[ \n'])/), "'s 'LL 're 've 'd 'm 't", '12345678 x1 😀😀😀 \ud83d\ude00a']) {
  encode(text);
  encode(text, { profile: 'compact', splitter: 'paper' });
}
clearCaches();
