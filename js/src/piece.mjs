// Spec 6.1 to 6.4 on one piece: folding gives the slots and the repeat instructions, marks and
// case lower the slots and add their instructions, and the group lists them in canonical order.
// Also the screen that lets the encoder skip the pieces that encode to themselves.
import { DECOMP13, TO_LOWER, TO_UPPER, classOf, CLS_W } from './ucd.mjs';
import { F_CASE, F_MARKS, FOLD_NO_WHITESPACE, CASE_RANGE, foldsRepeats } from './options.mjs';
// ARG is the argument code point of 0 (U+E000): argument k is ARG + k.
import {
  ARGUMENT_FIRST as ARG, CAPITALIZE, ESCAPE, FIRST_MARK, GROUP_FIRST, MAX_ARGUMENT as MAX_ARG, MULTIREPEAT, REPEAT,
  UPPERCASE,
} from './opcodes.mjs';

const isWhitespace = (c) => classOf(c) === CLS_W; // W of spec 3.2

function whitespaceOnly(text, i, len) {
  for (let m = 0; m < len; m++) if (!isWhitespace(text[i + m])) return false;
  return true;
}

function sameRun(text, a, b, len) {
  for (let m = 0; m < len; m++) if (text[a + m] !== text[b + m]) return false;
  return true;
}

/**
 * Analyse one piece (`text`, a list of code points) under the configuration `cfg` (options.mjs).
 * Returns `group` (the instructions as a flat list of code points: each opcode, then its
 * argument code points, in the order of 6.4), `slots` (the code points after marks and case,
 * before escaping) and, when `detail`, `slotStarts` (where in `text` each slot begins).
 */
export function analysePiece(text, cfg, detail) {
  const { slots, slotStarts, repeats } = fold(text, cfg, detail);
  const { marks, capitals, instructed } = marksAndCase(slots, cfg);
  // 6.4 the group: repeats (fold order), mark instructions (by slot, decomposition order), the
  // case family (by start slot)
  const group = [];
  for (let k = 0; k < repeats.length;) {
    const opcode = repeats[k];
    const argCount = opcode === REPEAT ? 2 : 3;
    group.push(opcode);
    for (let m = 1; m <= argCount; m++) group.push(ARG + repeats[k + m]);
    k += 1 + argCount;
  }
  for (let k = 0; k < marks.length; k += 2) group.push(marks[k], ARG + marks[k + 1]);
  if ((cfg & CASE_RANGE) !== 0 && capitals.length >= 2) rangeCase(slots, instructed, capitals, group);
  else for (const s of capitals) group.push(CAPITALIZE, ARG + s);
  return { group, slots, slotStarts };
}

/**
 * 6.1 folding: runs of one code point (REPEAT has precedence at a position), then units of 2..8
 * code points (MULTIREPEAT, shortest first), else one literal slot. Returns the slots, where
 * each begins (when `detail`) and `repeats`, flat: an opcode, then its arguments as numbers.
 */
function fold(text, cfg, detail) {
  const n = text.length;
  const slots = [];
  const slotStarts = detail ? [] : null;
  const repeats = [];
  const doRepeat = foldsRepeats(cfg);
  const keepWhitespace = (cfg & FOLD_NO_WHITESPACE) !== 0;
  let i = 0;
  while (i < n) {
    const c = text[i];
    if (doRepeat) {
      // 1. runs: REPEAT has precedence at a position
      let run = 1;
      while (i + run < n && text[i + run] === c) run++;
      if (run >= 3 && keepWhitespace && isWhitespace(c)) { // fold "no-whitespace": literal slots
        for (let k = 0; k < run; k++) { slots.push(c); if (detail) slotStarts.push(i + k); }
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
            if (detail) slotStarts.push(at);
          } else {
            for (let k = 0; k < chunk; k++) { slots.push(c); if (detail) slotStarts.push(at + k); }
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
        if (keepWhitespace && whitespaceOnly(text, i, L)) continue; // not folded; the next length
        let k = 1;
        while (k < MAX_ARG && i + (k + 1) * L <= n && sameRun(text, i, i + k * L, L)) k++;
        if (k >= 3) {
          repeats.push(MULTIREPEAT, s, s + L, k);
          for (let m = 0; m < L; m++) { slots.push(text[i + m]); if (detail) slotStarts.push(i + m); }
          i += L * k;
          folded = true;
          break;
        }
      }
      if (folded) continue;
    }
    // 3. one literal slot
    slots.push(c);
    if (detail) slotStarts.push(i);
    i++;
  }
  return { slots, slotStarts, repeats };
}

/**
 * 6.2 marks and case, on slots 0..255 (`instructed` of them), in place: a slot decomposing over
 * the 13 marks keeps its base, a capital its lower case. Returns `marks`, flat (opcode, slot),
 * and `capitals`, the capital slots in ascending order.
 */
function marksAndCase(slots, cfg) {
  const doCase = (cfg & F_CASE) !== 0, doMarks = (cfg & F_MARKS) !== 0;
  const marks = [], capitals = [];
  const instructed = slots.length <= MAX_ARG ? slots.length : MAX_ARG + 1;
  for (let s = 0; s < instructed; s++) {
    let c = slots[s];
    if (doMarks) {
      const d = DECOMP13.get(c);
      if (d !== undefined) {
        for (let m = 1; m < d.length; m++) marks.push(FIRST_MARK + d[m], s);
        c = d[0];
      }
    }
    if (doCase) {
      const l = TO_LOWER.get(c);
      if (l !== undefined) { capitals.push(s); c = l; }
    }
    slots[s] = c;
  }
  return { marks, capitals, instructed };
}

/**
 * The range rule of spec 6.2 (case "range"): a maximal run of slots among 0..254 that are each a
 * capital or caseless, holding at least 2 capitals, is one UPPERCASE(first, last + 1); any other
 * capital gets CAPITALIZE. `slots` are lowered already, `capitals` the capital slots in ascending
 * order, `instructed` the number of slots that take instructions (at most 256). Appends to `group`.
 */
function rangeCase(slots, instructed, capitals, group) {
  const limit = instructed < MAX_ARG ? instructed : MAX_ARG;
  let ci = 0; // capitals[ci] is the next capital slot
  let s = 0;
  while (s < limit) {
    if (capitals[ci] !== s && TO_UPPER.has(slots[s])) { s++; continue; } // a lower slot
    const first = ci;
    let e = s;
    while (e < limit) {
      if (capitals[ci] === e) ci++;
      else if (TO_UPPER.has(slots[e])) break;
      e++;
    }
    if (ci - first >= 2) group.push(UPPERCASE, ARG + s, ARG + e);
    else if (ci > first) group.push(CAPITALIZE, ARG + capitals[first]);
    s = e;
  }
  if (ci < capitals.length) group.push(CAPITALIZE, ARG + capitals[ci]); // slot 255, the only one left
}

// --- The screen: which pieces surely encode to themselves ---------------------------------------

// What can make a BMP code unit encode to something else: bit 0 a case pair (6.2, `case`),
// bit 1 a decomposition over the 13 marks (6.2, `marks`), bit 3 always (U+E000..U+EFFF is
// escaped, 6.3; a surrogate is half of a supplementary code point, which takes the full path).
export const SPECIAL = new Uint8Array(0x10000);
for (const c of TO_LOWER.keys()) if (c < 0x10000) SPECIAL[c] |= 1;
for (const c of DECOMP13.keys()) if (c < 0x10000) SPECIAL[c] |= 2;
SPECIAL.fill(8, 0xd800, 0xe000);
SPECIAL.fill(8, GROUP_FIRST, ESCAPE + 1);

/** The SPECIAL bits that matter under `cfg`: escapes always, case and marks when they are on. */
export const specialMask = (cfg) => 8 | (cfg & (F_CASE | F_MARKS));

/**
 * Whether s[lo:hi] (a string, by UTF-16 code units) holds a unit of 1..8 code units three times
 * in a row: a unit of L at k repeats three times exactly when s[m] === s[m + L] for the 2L
 * positions m from k. Without one, folding (6.1) emits nothing.
 */
export function hasRepeat(s, lo, hi) {
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
 * Whether the piece s[start:end], whose code units' SPECIAL bits OR to `special`, surely encodes
 * to itself: no bit of `mask` (specialMask) is set and, when `repeats` (foldsRepeats), nothing
 * repeats. The usual piece; the encoders copy it as it is.
 */
export const encodesToItself = (s, start, end, special, mask, repeats) =>
  (special & mask) === 0 && (!repeats || end - start < 3 || !hasRepeat(s, start, end));
