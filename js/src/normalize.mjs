// Normalization (spec 4): NFC by spans of unstable code points, with source offsets (4.4).
import { isStable, nfcCodePoints } from './ucd.mjs';
import { codePoints, fromCodePoints } from './text.mjs';

function sameList(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * NFC of a code point list. With `offsets`, also the source range [starts[k], ends[k]) of every
 * output code point in the input (spec 4.4). Returns the input list itself when nothing changes.
 */
export function nfcList(cps, offsets = false) {
  const n = cps.length;
  let out = null; // built lazily, at the first span that NFC changes
  let starts = null, ends = null;
  let copied = 0; // cps[0:copied] is accounted for in out
  let i = 0;
  while (i < n) {
    if (isStable(cps[i])) { i++; continue; }
    // a maximal run of unstable code points [i, e), with the stable one just before it
    let e = i + 1;
    while (e < n && !isStable(cps[e])) e++;
    const s = i > 0 ? i - 1 : i;
    const span = cps.slice(s, e);
    const normal = nfcCodePoints(span);
    if (!sameList(span, normal)) {
      if (out === null) { out = []; if (offsets) { starts = []; ends = []; } }
      for (let k = copied; k < s; k++) {
        out.push(cps[k]);
        if (offsets) { starts.push(k); ends.push(k + 1); }
      }
      for (const c of normal) {
        out.push(c);
        if (offsets) { starts.push(s); ends.push(e); }
      }
      copied = e;
    }
    i = e;
  }
  if (out === null) return { cps, starts: null, ends: null };
  for (let k = copied; k < n; k++) {
    out.push(cps[k]);
    if (offsets) { starts.push(k); ends.push(k + 1); }
  }
  return { cps: out, starts, ends };
}

const CANDIDATE = /[^\u0000-\u02ff]/g;

function cpAt(s, i) {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** NFC of a string (spec 4.2), from the pinned tables. Works span by span on the string. */
export function nfc(text) {
  const n = text.length;
  const parts = [];
  let copied = 0; // text[0:copied] is in parts
  CANDIDATE.lastIndex = 0;
  for (;;) {
    const m = CANDIDATE.exec(text);
    if (m === null) break;
    let i = m.index;
    let c = cpAt(text, i);
    if (isStable(c)) { CANDIDATE.lastIndex = i + (c >= 0x10000 ? 2 : 1); continue; }
    // the stable code point before the run (none at the start of the text)
    let s = i;
    if (i > 0) {
      const p = text.charCodeAt(i - 1);
      s = p >= 0xdc00 && p <= 0xdfff && i > 1 && cpAt(text, i - 2) >= 0x10000 ? i - 2 : i - 1;
    }
    let e = i;
    while (e < n) {
      c = cpAt(text, e);
      if (isStable(c)) break;
      e += c >= 0x10000 ? 2 : 1;
    }
    const span = codePoints(text.slice(s, e));
    const normal = nfcCodePoints(span);
    if (!sameList(span, normal)) {
      if (copied < s) parts.push(text.slice(copied, s));
      parts.push(fromCodePoints(normal));
      copied = e;
    }
    CANDIDATE.lastIndex = e;
  }
  if (copied === 0) return text;
  if (copied < n) parts.push(text.slice(copied));
  return parts.join('');
}
