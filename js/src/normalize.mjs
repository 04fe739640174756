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

const MAY_CHANGE = /[^\u0000-\u02ff]/;

/** NFC of a string (spec 4.2), from the pinned tables. */
export function nfc(text) {
  if (!MAY_CHANGE.test(text)) return text;
  const cps = codePoints(text);
  const r = nfcList(cps);
  return r.cps === cps ? text : fromCodePoints(r.cps);
}
