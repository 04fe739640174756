// The encoder (spec 6): text -> NFC -> pieces -> fold, marks and case -> group + base.
import { OPCODES } from './tables.mjs';
import { DECOMP13, TO_LOWER } from './ucd.mjs';
import { FormatError } from './errors.mjs';
import { codePoints, fromCodePoints, firstSurrogate } from './text.mjs';
import { nfc, nfcList } from './normalize.mjs';
import { splitEnds, digitsOf } from './split.mjs';

const CAPITALIZE = 0xe100, FIRST_DIACRITIC = 0xe101, REPEAT = 0xe200, MULTIREPEAT = 0xe201;
const ARG = 0xe000, ESCAPE = 0xefff;
const MAX_ARG = 255;
const NAMES = new Map(OPCODES.map(([cp, name]) => [cp, name]));
const CODES = new Map(OPCODES.map(([cp, name]) => [name, cp]));

export const FEATURES = Object.freeze(['case', 'marks', 'repeat']);

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

/**
 * Analyse one piece (a list of code points). Returns `ops` (the group as a flat list of code
 * points: opcodes and arguments), `insns` (when `detail`: [opcode, args] per instruction),
 * `slots` (after marks and case) and `starts` (when `detail`: where each slot begins).
 */
export function analyse(p, doCase, doMarks, doRepeat, detail) {
  const n = p.length;
  const slots = [];
  const starts = detail ? [] : null;
  const repeats = []; // flat: opcode, args...
  let i = 0;
  while (i < n) {
    const c = p[i];
    if (doRepeat) {
      // 1. runs: REPEAT has precedence at a position
      let run = 1;
      while (i + run < n && p[i + run] === c) run++;
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
  // 6.4 the group: repeats (fold order), mark instructions (by slot, decomposition order), CAPITALIZE
  const ops = [];
  for (let k = 0; k < repeats.length;) {
    const op = repeats[k];
    const a = op === REPEAT ? 2 : 3;
    ops.push(op);
    for (let m = 1; m <= a; m++) ops.push(ARG + repeats[k + m]);
    k += 1 + a;
  }
  for (let k = 0; k < marks.length; k += 2) ops.push(marks[k], ARG + marks[k + 1]);
  for (const s of caps) ops.push(CAPITALIZE, ARG + s);
  return { ops, slots, starts };
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
    const a = ops[k] === MULTIREPEAT ? 3 : ops[k] === REPEAT ? 2 : 1;
    out.push(String.fromCharCode.apply(null, ops.slice(k, k + 1 + a)));
    k += 1 + a;
  }
  return out;
}

function instructionObjects(ops) {
  const out = [];
  for (let k = 0; k < ops.length;) {
    const a = ops[k] === MULTIREPEAT ? 3 : ops[k] === REPEAT ? 2 : 1;
    out.push(new Instruction(NAMES.get(ops[k]), ops.slice(k + 1, k + 1 + a).map((x) => x - ARG)));
    k += 1 + a;
  }
  return out;
}

// --- Options and caches -------------------------------------------------------------------------

function featureFlags(features) {
  if (features === undefined) return 7;
  let flags = 0;
  for (const f of features) {
    const k = FEATURES.indexOf(f);
    if (k < 0) throw new TypeError(`unknown feature ${JSON.stringify(f)}; known: ${FEATURES.join(', ')}`);
    flags |= 1 << k;
  }
  return flags;
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
const caches = new Map(); // feature flags -> Map(piece -> [encoded, pretokens])

/** Forget every cached piece (benchmarks use this for a cold start). */
export function clearCaches() { caches.clear(); }

function cacheFor(flags) {
  let c = caches.get(flags);
  if (c === undefined) { c = new Map(); caches.set(flags, c); }
  else if (c.size >= CACHE_LIMIT) c.clear();
  return c;
}

function encodePieceString(piece, flags) {
  const r = analyse(codePoints(piece), flags & 1, flags & 2, flags & 4, false);
  return [groupString(r.ops) + baseString(r.slots), r.ops];
}

function normalized(text, normalize) {
  checkText(text);
  return normalize === 'nfc' ? nfc(text) : text;
}

// --- The public entry points ----------------------------------------------------------------------

/**
 * Whether the piece s[a:b] is ASCII and encodes to itself: no capital letter (the only ASCII
 * code points with a case pair or a decomposition), and no unit of 1..8 code points three times
 * in a row (without one, folding emits nothing). A false answer only means "take the full path".
 */
function plainAscii(s, a, b) {
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || (c >= 0x41 && c <= 0x5a)) return false;
    for (let L = 1; L <= 8 && i + 3 * L <= b; L++) {
      if (s.charCodeAt(i + L) === c && s.charCodeAt(i + 2 * L) === c) {
        let same = true;
        for (let m = 1; m < L && same; m++) {
          const d = s.charCodeAt(i + m);
          same = s.charCodeAt(i + L + m) === d && s.charCodeAt(i + 2 * L + m) === d;
        }
        if (same) return false;
      }
    }
  }
  return true;
}

/** Encode text to a stream (spec 6). */
export function encode(text, { normalize = 'nfc', splitter = 'llama3', features } = {}) {
  checkNormalize(normalize);
  const flags = featureFlags(features);
  const digits = digitsOf(splitter);
  const t = normalized(text, normalize);
  const ends = splitEnds(t, digits);
  const cache = cacheFor(flags);
  const parts = [];
  let start = 0, copied = 0; // t[copied:start] is plain text not yet in parts
  for (let k = 0; k < ends.length; k++) {
    const end = ends[k];
    if (plainAscii(t, start, end)) { start = end; continue; }
    if (copied < start) parts.push(t.slice(copied, start));
    const piece = t.slice(start, end);
    let hit = cache.get(piece);
    if (hit === undefined) { hit = encodePieceString(piece, flags); cache.set(piece, hit); }
    parts.push(hit[0]);
    start = copied = end;
  }
  if (copied === 0) return t;
  if (copied < t.length) parts.push(t.slice(copied));
  return parts.join('');
}

/** The pre-tokens BPE sees (spec 9); they concatenate to encode(text). */
export function pretokens(text, { normalize = 'nfc', splitter = 'llama3', splitOperators = true, features } = {}) {
  checkNormalize(normalize);
  const flags = featureFlags(features);
  const digits = digitsOf(splitter);
  const t = normalized(text, normalize);
  const ends = splitEnds(t, digits);
  const cache = cacheFor(flags);
  const out = [];
  let start = 0;
  for (let k = 0; k < ends.length; k++) {
    const piece = t.slice(start, ends[k]);
    start = ends[k];
    let hit = cache.get(piece);
    if (hit === undefined) { hit = encodePieceString(piece, flags); cache.set(piece, hit); }
    if (!splitOperators || hit[1].length === 0) out.push(hit[0]);
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
export function pieces(text, { normalize = 'nfc', splitter = 'llama3', features } = {}) {
  checkNormalize(normalize);
  const flags = featureFlags(features);
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
    const r = analyse(p, flags & 1, flags & 2, flags & 4, true);
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
