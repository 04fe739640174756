// Character properties from the pinned tables (spec 3), never from the host's Unicode data.
import * as T from './tables.mjs';

/** The packed tables' integer lists: lower-case base 36, joined by ","; parsed by hand (split and parseInt cost most of the import). */
function unpack(s) {
  let count = 1;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 44) count++;
  const out = new Int32Array(count);
  let v = 0, k = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 44) { out[k++] = v; v = 0; } else v = v * 36 + (c <= 57 ? c - 48 : c - 87);
  }
  out[k] = v;
  return out;
}
const unzig = (n) => (n & 1 ? -(n + 1) / 2 : n / 2);

/** A code point -> small integer property, 0 by default: an array for the BMP, ranges above. */
function rangeLookup(packed) {
  const bmp = new Uint8Array(0x10000);
  const starts = [], ends = [], values = [];
  const v = unpack(packed);
  let next = 0;
  for (let k = 0; k < v.length; k += 3) {
    const first = next + v[k], last = first + v[k + 1], value = v[k + 2];
    next = last + 1;
    if (first < 0x10000) bmp.fill(value, first, Math.min(last, 0xffff) + 1);
    if (last >= 0x10000) { starts.push(Math.max(first, 0x10000)); ends.push(last); values.push(value); }
  }
  const get = (cp) => {
    if (cp < 0x10000) return bmp[cp];
    let lo = 0, hi = starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cp < starts[mid]) hi = mid - 1;
      else if (cp > ends[mid]) lo = mid + 1;
      else return values[mid];
    }
    return 0;
  };
  return { bmp, get };
}

// 3.2 splitter classes: 0 none, 1 L, 2 N, 3 W.
export const CLS_L = 1, CLS_N = 2, CLS_W = 3;
const classes = rangeLookup(T.CLASSES);
export const CLASS_BMP = classes.bmp;
export const classOf = classes.get;

// 3.5 NFC data.
const cccLookup = rangeLookup(T.CCC);
export const ccc = cccLookup.get;
const qcLookup = rangeLookup(T.QUICK_CHECK);
export const quickCheck = qcLookup.get; // 0 Yes, 1 No, 2 Maybe
const exclusions = new Set();
{
  const v = unpack(T.EXCLUSIONS);
  let next = 0;
  for (let k = 0; k < v.length; k += 3) {
    const first = next + v[k], last = first + v[k + 1];
    for (let c = first; c <= last; c++) exclusions.add(c);
    next = last + 1;
  }
}
/** One-level canonical decomposition mappings (Hangul excluded). */
export const DECOMP = new Map();
/** Primary composites: (first * 2**21 + second) -> composite. */
const COMPOSE_PAIR = new Map();
{
  const v = unpack(T.NFC_DECOMPOSITIONS);
  let key = -1;
  for (let k = 0; k < v.length;) {
    key += v[k] + 1;
    const n = v[k + 1];
    const mapping = [key + unzig(v[k + 2])];
    for (let m = 1; m < n; m++) mapping.push(v[k + 2 + m]);
    k += 2 + n;
    DECOMP.set(key, mapping);
    if (n === 2 && !exclusions.has(key)) COMPOSE_PAIR.set(mapping[0] * 0x200000 + mapping[1], key);
  }
}

// 3.3 case pairs.
export const TO_LOWER = new Map(); // upper member -> lower member
export const TO_UPPER = new Map(); // lower member -> upper member
{
  const v = unpack(T.CASE_PAIRS);
  let upper = -1;
  for (let k = 0; k < v.length; k += 2) {
    upper += v[k] + 1;
    const lower = upper + unzig(v[k + 1]);
    TO_LOWER.set(upper, lower);
    TO_UPPER.set(lower, upper);
  }
}

// 3.4 decomposition over the 13 marks and its inverse.
export const MARKS = T.MARKS;
/** code point -> [base, mark index (0..12), ...] */
export const DECOMP13 = new Map();
/** composition key (see composeKey) -> composed code point */
export const COMPOSE13 = new Map();
/** The key of (base, mark indexes): up to 3 marks (the table has no more), else -1. */
export function composeKey(base, indexes, count) {
  if (count > 3) return -1;
  let m = 0;
  for (let k = 0; k < count; k++) m = m * 14 + indexes[k] + 1;
  return base * 4096 + m;
}
{
  const v = unpack(T.DECOMPOSITIONS);
  let key = -1;
  for (let k = 0; k < v.length;) {
    key += v[k] + 1;
    const base = key + unzig(v[k + 1]);
    const n = v[k + 2];
    const indexes = Array.from(v.subarray(k + 3, k + 3 + n));
    if (n > 3) throw new Error('a decomposition with more than 3 marks');
    k += 3 + n;
    DECOMP13.set(key, [base, ...indexes]);
    COMPOSE13.set(composeKey(base, indexes, n), key);
  }
}

// --- 4.2 NFC ---------------------------------------------------------------------------------

const S_BASE = 0xac00, L_BASE = 0x1100, V_BASE = 0x1161, T_BASE = 0x11a7;
const L_COUNT = 19, V_COUNT = 21, T_COUNT = 28, N_COUNT = V_COUNT * T_COUNT, S_COUNT = L_COUNT * N_COUNT;

/** A code point is stable (4.4) when its combining class is 0 and its NFC_Quick_Check Yes. */
export function isStable(cp) {
  return cp < 0x300 || (ccc(cp) === 0 && quickCheck(cp) === 0);
}

/** 1 for every BMP code point that is not stable (4.4), 0 for the others. */
export const UNSTABLE_BMP = new Uint8Array(0x10000);
for (const { bmp } of [cccLookup, qcLookup]) {
  for (let c = 0x300; c < 0x10000; c++) if (bmp[c] !== 0) UNSTABLE_BMP[c] = 1;
}

function decomposeInto(cp, out) {
  const s = cp - S_BASE;
  if (s >= 0 && s < S_COUNT) {
    out.push(L_BASE + Math.floor(s / N_COUNT), V_BASE + Math.floor((s % N_COUNT) / T_COUNT));
    if (s % T_COUNT) out.push(T_BASE + (s % T_COUNT));
    return;
  }
  const m = DECOMP.get(cp);
  if (m === undefined) { out.push(cp); return; }
  for (const c of m) decomposeInto(c, out);
}

function composePair(first, second) {
  if (first >= L_BASE && first < L_BASE + L_COUNT && second >= V_BASE && second < V_BASE + V_COUNT) {
    return S_BASE + ((first - L_BASE) * V_COUNT + (second - V_BASE)) * T_COUNT;
  }
  const s = first - S_BASE;
  if (s >= 0 && s < S_COUNT && s % T_COUNT === 0 && second > T_BASE && second < T_BASE + T_COUNT) {
    return first + (second - T_BASE);
  }
  const p = COMPOSE_PAIR.get(first * 0x200000 + second);
  return p === undefined ? -1 : p;
}

/** NFC of a list of code points (UAX #15: decompose, reorder, compose). */
export function nfcCodePoints(cps) {
  const d = [];
  for (const c of cps) decomposeInto(c, d);
  const classes = d.map(ccc);
  // Reorder: stable insertion sort of every run of non-zero classes.
  for (let i = 1; i < d.length; i++) {
    const cc = classes[i];
    if (cc === 0) continue;
    const c = d[i];
    let j = i;
    while (j > 0 && classes[j - 1] > cc) {
      d[j] = d[j - 1]; classes[j] = classes[j - 1]; j--;
    }
    d[j] = c; classes[j] = cc;
  }
  return composeOrdered(d);
}

function composeOrdered(d) {
  const out = [];
  let starter = -1, lastClass = 0;
  for (const c of d) {
    const cc = ccc(c);
    if (starter >= 0) {
      const adjacent = out.length - 1 === starter;
      if (adjacent || (lastClass !== 0 && lastClass < cc)) {
        const p = composePair(out[starter], c);
        if (p >= 0) { out[starter] = p; continue; }
      }
    }
    if (cc === 0) starter = out.length;
    out.push(c);
    lastClass = cc;
  }
  return out;
}
