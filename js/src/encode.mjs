// The encoder (spec 6): text -> NFC -> pieces -> fold, marks and case -> group + base.
import { OPCODES } from './tables.mjs';
import { DECOMP13, TO_LOWER, TO_UPPER, classOf, CLS_W } from './ucd.mjs';
import { FormatError } from './errors.mjs';
import { codePoints, fromCodePoints, firstSurrogate } from './text.mjs';
import { nfc, nfcList, clearSpanCache } from './normalize.mjs';
import { splitEnds, pieceEnd, digitsOf } from './split.mjs';

const CAPITALIZE = 0xe100, FIRST_DIACRITIC = 0xe101, UPPERCASE = 0xe110, REPEAT = 0xe200, MULTIREPEAT = 0xe201;
const ARG = 0xe000, ESCAPE = 0xefff;
const MAX_ARG = 255;
const NAMES = new Map(OPCODES.map(([cp, name]) => [cp, name]));
const CODES = new Map(OPCODES.map(([cp, name]) => [name, cp]));
const ARG_COUNT = new Map(OPCODES.map(([cp, , , n]) => [cp, n]));

export const FEATURES = Object.freeze(['case', 'marks', 'repeat']);
/** The values of the `fold` option (spec 6.1) and of the `case` option (spec 6.2). */
export const FOLDS = Object.freeze(['all', 'no-whitespace', 'none']);
export const CASES = Object.freeze(['capitalize', 'range']);
/** The encoder profiles (spec 6.6): name -> { fold, case }. `paper` is the 1.0 encoder and the default. */
export const PROFILES = Object.freeze({
  paper: Object.freeze({ fold: 'all', case: 'capitalize' }),
  compact: Object.freeze({ fold: 'none', case: 'range' }),
});
export const DEFAULT_PROFILE = 'paper';

/** One instruction of a group: an opcode name and its arguments. */
export class Instruction {
  constructor(name, args) {
    this.name = name;
    this.args = args;
  }
  /** `ACUTE(1)`, `REPEAT(0,4)`. */
  toString() { return `${this.name}(${this.args.join(',')})`; }
  /** As written in the stream: the opcode, then one argument code point per argument. */
  get code() { return String.fromCharCode(CODES.get(this.name), ...this.args.map((a) => ARG + a)); }
}

// --- 6.1 to 6.4, on one piece -----------------------------------------------------------------

function sameRun(p, a, b, len) {
  for (let m = 0; m < len; m++) if (p[a + m] !== p[b + m]) return false;
  return true;
}

// An encoder configuration is one small integer: the features (bits 0..2: case, marks, repeat),
// the fold option (bit 3 "no-whitespace", bit 4 "none"; neither: "all") and the case option
// (bit 5: "range"; clear: "capitalize"). The default, profile paper with every feature, is 7.
const F_CASE = 1, F_MARKS = 2, F_REPEAT = 4, FOLD_NO_WHITESPACE = 8, FOLD_NONE = 16, CASE_RANGE = 32;
const DEFAULT_CONFIG = F_CASE | F_MARKS | F_REPEAT;

const isWhitespace = (c) => classOf(c) === CLS_W; // W of spec 3.2

function whitespaceOnly(p, i, len) {
  for (let m = 0; m < len; m++) if (!isWhitespace(p[i + m])) return false;
  return true;
}

/**
 * Analyse one piece (a list of code points) under the configuration `cfg`. Returns `ops` (the
 * group as a flat list of code points: opcodes and arguments), `slots` (after marks and case) and
 * `starts` (when `detail`: where each slot begins).
 */
export function analyse(p, cfg, detail) {
  const n = p.length;
  const slots = [];
  const starts = detail ? [] : null;
  const repeats = []; // flat: opcode, args...
  const doRepeat = (cfg & F_REPEAT) !== 0 && (cfg & FOLD_NONE) === 0;
  const keepWhitespace = (cfg & FOLD_NO_WHITESPACE) !== 0;
  let i = 0;
  while (i < n) {
    const c = p[i];
    if (doRepeat) {
      // 1. runs: REPEAT has precedence at a position
      let run = 1;
      while (i + run < n && p[i + run] === c) run++;
      if (run >= 3 && keepWhitespace && isWhitespace(c)) { // fold "no-whitespace": literal slots
        for (let k = 0; k < run; k++) { slots.push(c); if (detail) starts.push(i + k); }
        i += run;
        continue;
      }
      if (run >= 3) {
        let left = run, at = i;
        while (left > 0) {
          const chunk = left < MAX_ARG ? left : MAX_ARG;
          const s = slots.length;
          if (chunk >= 3 && s <= MAX_ARG) {
            repeats.push(REPEAT, s, chunk);
            slots.push(c);
            if (detail) starts.push(at);
          } else {
            for (let k = 0; k < chunk; k++) { slots.push(c); if (detail) starts.push(at + k); }
          }
          left -= chunk;
          at += chunk;
        }
        i += run;
        continue;
      }
      // 2. units of 2..8 code points, shortest first
      let folded = false;
      // (a unit whose MULTIREPEAT could not fit, s + L > 255, is not even counted: same output)
      const s = slots.length;
      for (let L = 2; L <= 8 && i + L <= n && s + L <= MAX_ARG; L++) {
        if (keepWhitespace && whitespaceOnly(p, i, L)) continue; // not folded; the next length
        let k = 1;
        while (k < MAX_ARG && i + (k + 1) * L <= n && sameRun(p, i, i + k * L, L)) k++;
        if (k >= 3) {
          repeats.push(MULTIREPEAT, s, s + L, k);
          for (let m = 0; m < L; m++) { slots.push(p[i + m]); if (detail) starts.push(i + m); }
          i += L * k;
          folded = true;
          break;
        }
      }
      if (folded) continue;
    }
    // 3. one literal slot
    slots.push(c);
    if (detail) starts.push(i);
    i++;
  }
  // 6.2 marks and case, slots 0..255
  const doCase = (cfg & F_CASE) !== 0, doMarks = (cfg & F_MARKS) !== 0;
  const marks = [], caps = [];
  const last = slots.length <= MAX_ARG ? slots.length : MAX_ARG + 1;
  for (let s = 0; s < last; s++) {
    let c = slots[s];
    if (doMarks) {
      const d = DECOMP13.get(c);
      if (d !== undefined) {
        for (let m = 1; m < d.length; m++) marks.push(FIRST_DIACRITIC + d[m], s);
        c = d[0];
      }
    }
    if (doCase) {
      const l = TO_LOWER.get(c);
      if (l !== undefined) { caps.push(s); c = l; }
    }
    slots[s] = c;
  }
  // 6.4 the group: repeats (fold order), mark instructions (by slot, decomposition order), the
  // case family (by start slot)
  const ops = [];
  for (let k = 0; k < repeats.length;) {
    const op = repeats[k];
    const a = op === REPEAT ? 2 : 3;
    ops.push(op);
    for (let m = 1; m <= a; m++) ops.push(ARG + repeats[k + m]);
    k += 1 + a;
  }
  for (let k = 0; k < marks.length; k += 2) ops.push(marks[k], ARG + marks[k + 1]);
  if ((cfg & CASE_RANGE) !== 0 && caps.length >= 2) rangeCase(slots, last, caps, ops);
  else for (const s of caps) ops.push(CAPITALIZE, ARG + s);
  return { ops, slots, starts };
}

/**
 * The range rule of spec 6.2 (case "range"): a maximal run of slots among 0..254 that are each a
 * capital or caseless, holding at least 2 capitals, is one UPPERCASE(first, last + 1); any other
 * capital gets CAPITALIZE. `slots` are lowered already, `caps` the capital slots in ascending
 * order, `last` the number of slots that take instructions (at most 256). Appends to `ops`.
 */
function rangeCase(slots, last, caps, ops) {
  const limit = last < MAX_ARG ? last : MAX_ARG;
  let ci = 0; // caps[ci] is the next capital slot
  let s = 0;
  while (s < limit) {
    if (caps[ci] !== s && TO_UPPER.has(slots[s])) { s++; continue; } // a lower slot
    const first = ci;
    let e = s;
    while (e < limit) {
      if (caps[ci] === e) ci++;
      else if (TO_UPPER.has(slots[e])) break;
      e++;
    }
    if (ci - first >= 2) ops.push(UPPERCASE, ARG + s, ARG + e);
    else if (ci > first) ops.push(CAPITALIZE, ARG + caps[first]);
    s = e;
  }
  if (ci < caps.length) ops.push(CAPITALIZE, ARG + caps[ci]); // slot 255, the only one left
}

/** The base as written in the stream: escapes before U+E000..U+EFFF (6.3). */
function baseString(slots) {
  let escaped = null;
  for (let s = 0; s < slots.length; s++) {
    const c = slots[s];
    if (c >= 0xe000 && c <= 0xefff) {
      if (escaped === null) escaped = slots.slice(0, s);
      escaped.push(ESCAPE, c);
    } else if (escaped !== null) escaped.push(c);
  }
  return fromCodePoints(escaped === null ? slots : escaped);
}

function groupString(ops) {
  return ops.length === 0 ? '' : String.fromCharCode.apply(null, ops);
}

/** Split a flat group into instruction strings (for pre-tokens). */
function instructionCodes(ops) {
  const out = [];
  for (let k = 0; k < ops.length;) {
    const a = ARG_COUNT.get(ops[k]);
    out.push(String.fromCharCode.apply(null, ops.slice(k, k + 1 + a)));
    k += 1 + a;
  }
  return out;
}

function instructionObjects(ops) {
  const out = [];
  for (let k = 0; k < ops.length;) {
    const a = ARG_COUNT.get(ops[k]);
    out.push(new Instruction(NAMES.get(ops[k]), ops.slice(k + 1, k + 1 + a).map((x) => x - ARG)));
    k += 1 + a;
  }
  return out;
}

// --- Options and caches -------------------------------------------------------------------------

function featureFlags(features) {
  if (features === undefined) return DEFAULT_CONFIG;
  let flags = 0;
  for (const f of features) {
    const k = FEATURES.indexOf(f);
    if (k < 0) throw new TypeError(`unknown feature ${JSON.stringify(f)}; known: ${FEATURES.join(', ')}`);
    flags |= 1 << k;
  }
  return flags;
}

/**
 * The `fold` and `case` options in effect (spec 6.6): the profile's, each overridden by an option
 * given explicitly (undefined or null: the profile's). Throws a TypeError (a usage error, not a
 * FormatError) for an unknown profile or value.
 */
export function encoderOptions(profile = DEFAULT_PROFILE, fold = null, caseOption = null) {
  const chosen = typeof profile === 'string' && Object.hasOwn(PROFILES, profile) ? PROFILES[profile] : undefined;
  if (chosen === undefined) {
    throw new TypeError(`unknown profile ${JSON.stringify(profile)}; known: ${Object.keys(PROFILES).join(', ')}`);
  }
  const f = fold ?? chosen.fold, c = caseOption ?? chosen.case;
  if (!FOLDS.includes(f)) throw new TypeError(`fold must be one of ${FOLDS.join(', ')}, not ${JSON.stringify(f)}`);
  if (!CASES.includes(c)) throw new TypeError(`case must be one of ${CASES.join(', ')}, not ${JSON.stringify(c)}`);
  return { fold: f, case: c };
}

/** The configuration integer of an encoder call's options. */
function configOf(features, profile, fold, caseOption) {
  const flags = featureFlags(features);
  if (profile === DEFAULT_PROFILE && fold == null && caseOption == null) return flags; // the common call
  const o = encoderOptions(profile, fold, caseOption);
  return flags | (o.fold === 'no-whitespace' ? FOLD_NO_WHITESPACE : o.fold === 'none' ? FOLD_NONE : 0)
    | (o.case === 'range' ? CASE_RANGE : 0);
}

function checkNormalize(normalize) {
  if (normalize !== 'nfc' && normalize !== null) {
    throw new TypeError(`normalize must be 'nfc' or null, not ${JSON.stringify(normalize)}`);
  }
}

function checkText(text) {
  if (typeof text !== 'string') throw new TypeError(`expected a string, not ${typeof text}`);
  const k = firstSurrogate(text);
  if (k >= 0) {
    throw new FormatError('lone-surrogate', k, 'a surrogate code point is not a Unicode scalar value');
  }
}

const CACHE_LIMIT = 1 << 16;
const caches = new Map(); // configuration -> Map(piece -> [encoded, group, units, changed])

/** Forget every cached piece (benchmarks use this for a cold start). */
export function clearCaches() { caches.clear(); tables.clear(); clearSpanCache(); }

function cacheFor(cfg) {
  let c = caches.get(cfg);
  if (c === undefined) { c = new Map(); caches.set(cfg, c); }
  else if (c.size >= CACHE_LIMIT) c.clear();
  return c;
}

/** A piece's cache entry: [encoded, group (flat code points), encoded as UTF-16 units, changed]. */
function encodePieceString(piece, cfg) {
  const r = analyse(codePoints(piece), cfg, false);
  const encoded = groupString(r.ops) + baseString(r.slots);
  const units = new Uint16Array(encoded.length);
  for (let k = 0; k < encoded.length; k++) units[k] = encoded.charCodeAt(k);
  return [encoded, r.ops, units, encoded !== piece];
}

function normalized(text, normalize) {
  checkText(text);
  return normalize === 'nfc' ? nfc(text) : text;
}

// --- The public entry points ----------------------------------------------------------------------

// What can make a BMP code unit encode to something else: bit 0 a case pair (6.2, `case`),
// bit 1 a decomposition over the 13 marks (6.2, `marks`), bit 3 always (U+E000..U+EFFF is
// escaped, 6.3; a surrogate is half of a supplementary code point, which takes the full path).
const SPECIAL = new Uint8Array(0x10000);
for (const c of TO_LOWER.keys()) if (c < 0x10000) SPECIAL[c] |= 1;
for (const c of DECOMP13.keys()) if (c < 0x10000) SPECIAL[c] |= 2;
SPECIAL.fill(8, 0xd800, 0xe000);
SPECIAL.fill(8, 0xe000, 0xf000);

/** hasRepeat over a string's code units. */
function hasRepeatIn(s, lo, hi) {
  for (let L = 1; L <= 8 && 3 * L <= hi - lo; L++) {
    const need = 2 * L;
    let run = 0;
    for (let m = lo; m + L < hi; m++) {
      if (s.charCodeAt(m) !== s.charCodeAt(m + L)) run = 0;
      else if (++run >= need) return true;
    }
  }
  return false;
}

/**
 * Whether a[lo:hi] holds a unit of 1..8 code units three times in a row (a unit of L at k
 * repeats three times exactly when a[m] === a[m + L] for the 2L positions m from k). Without
 * one, folding (6.1) emits nothing.
 */
function hasRepeat(a, lo, hi) {
  for (let L = 1; L <= 8 && 3 * L <= hi - lo; L++) {
    const need = 2 * L;
    let run = 0;
    for (let m = lo; m + L < hi; m++) {
      if (a[m] !== a[m + L]) run = 0;
      else if (++run >= need) return true;
    }
  }
  return false;
}

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
 * Values are the cache entries of encodePieceString. Emptied when half full.
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
  const mask = 8 | (cfg & (F_CASE | F_MARKS)), repeats = (cfg & F_REPEAT) !== 0 && (cfg & FOLD_NONE) === 0;
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
    if ((special & mask) === 0 && (!repeats || len < 3 || !hasRepeat(buf, j, j + len))) j += len;
    else {
      // hashed only here: most pieces encode to themselves and need no table
      let h = len;
      for (let k = j, e = j + len; k < e; k++) h = (Math.imul(h, 0x01000193) ^ buf[k]) | 0;
      h ^= h >>> 15;
      h = Math.imul(h, 0x2c1b3c6d);
      h ^= h >>> 12;
      const at = table.slot(buf, j, len, h);
      let hit = table.values[at];
      if (hit === null) {
        hit = encodePieceString(t.slice(start, end), cfg);
        table.insert(at, buf, j, len, h, hit);
      }
      const units = hit[2];
      if (j + units.length > buf.length) buf = grow(buf, j + units.length);
      buf.set(units, j);
      j += units.length;
      changed ||= hit[3];
    }
    start = end;
  }
  return changed ? bufferString(buf, j) : t;
}

/** The pre-token rules of spec 9: split (9.1), whole pieces (9.2), context chains (9.4). */
export const FUSE_MODES = Object.freeze(['none', 'all', 'frequent']);

function fuseMode(fuse, splitOperators) {
  if (fuse === undefined || fuse === null) return splitOperators ? 'none' : 'all';
  if (!FUSE_MODES.includes(fuse)) throw new TypeError(`unknown fuse mode ${JSON.stringify(fuse)}: expected one of ${FUSE_MODES.join(', ')}`);
  return fuse;
}

/** The pre-tokens BPE sees (spec 9); they concatenate to encode(text). */
export function pretokens(text, { normalize = 'nfc', splitter = 'llama3', splitOperators = true, fuse, profile = DEFAULT_PROFILE, fold, case: caseOption, features } = {}) {
  const mode = fuseMode(fuse, splitOperators);
  checkNormalize(normalize);
  const cfg = configOf(features, profile, fold, caseOption);
  const digits = digitsOf(splitter);
  const t = normalized(text, normalize);
  const cache = cacheFor(cfg);
  const mask = 8 | (cfg & (F_CASE | F_MARKS)), repeats = (cfg & F_REPEAT) !== 0 && (cfg & FOLD_NONE) === 0;
  const out = [];
  for (let start = 0, end = 0, n = t.length; start < n; start = end) {
    end = pieceEnd(t, start, n, digits);
    const piece = t.slice(start, end);
    // a piece that encodes to itself (the usual case, as in encode) is its own pre-token
    let special = 0;
    for (let i = start; i < end; i++) special |= SPECIAL[t.charCodeAt(i)];
    if ((special & mask) === 0 && (!repeats || end - start < 3 || !hasRepeatIn(t, start, end))) { out.push(piece); continue; }
    let hit = cache.get(piece);
    if (hit === undefined) { hit = encodePieceString(piece, cfg); cache.set(piece, hit); }
    if (mode === 'frequent') {
      // 9.4: a piece with a group joins the chain before it (V8 joins strings as ropes)
      if (out.length > 0 && hit[1].length > 0) out[out.length - 1] += hit[0];
      else out.push(hit[0]);
    } else if (mode === 'all' || hit[1].length === 0) out.push(hit[0]);
    else {
      const codes = instructionCodes(hit[1]);
      for (const c of codes) out.push(c);
      const groupLength = hit[1].length;
      out.push(hit[0].slice(groupLength)); // the group is all BMP: one UTF-16 unit per code point
    }
  }
  return out;
}

/** Each piece with its offsets in the original text, instructions and base (spec 6.5). */
export function pieces(text, { normalize = 'nfc', splitter = 'llama3', profile = DEFAULT_PROFILE, fold, case: caseOption, features } = {}) {
  checkNormalize(normalize);
  const cfg = configOf(features, profile, fold, caseOption);
  const digits = digitsOf(splitter);
  checkText(text);
  let cps = codePoints(text);
  let starts = null, ends = null;
  if (normalize === 'nfc') {
    const r = nfcList(cps, true);
    cps = r.cps; starts = r.starts; ends = r.ends;
  }
  const t = starts === null ? text : fromCodePoints(cps);
  const cut = splitEnds(t, digits);
  const out = [];
  let unit = 0, position = 0;
  for (let k = 0; k < cut.length; k++) {
    const piece = t.slice(unit, cut[k]);
    unit = cut[k];
    const p = codePoints(piece);
    const end = position + p.length;
    const r = analyse(p, cfg, true);
    const base = baseString(r.slots);
    const instructions = instructionObjects(r.ops);
    out.push({
      text: piece,
      start: starts === null ? position : starts[position],
      end: starts === null ? end : ends[end - 1],
      instructions,
      base,
      encoded: groupString(r.ops) + base,
      slotStarts: r.starts,
    });
    position = end;
  }
  return out;
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
