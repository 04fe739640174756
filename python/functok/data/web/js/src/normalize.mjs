// Normalization (spec 4): NFC by spans of unstable code points, with source offsets (4.4).
import { isStable, nfcCodePoints, UNSTABLE_BMP } from './ucd.mjs';
import { codePoints, fromCodePoints, firstSurrogate } from './text.mjs';
import { FormatError } from './errors.mjs';

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

const CANDIDATE = /[^\u0000-\u02ff]/g; // code units that need a look
const SPAN_CACHE = new Map(); // span -> its NFC (natural text repeats its spans)
const SPAN_CACHE_LIMIT = 1 << 14, SPAN_CACHE_MAX = 32;

function spanNfc(span) {
  let out = SPAN_CACHE.get(span);
  if (out === undefined) {
    out = fromCodePoints(nfcCodePoints(codePoints(span)));
    if (span.length <= SPAN_CACHE_MAX) {
      if (SPAN_CACHE.size >= SPAN_CACHE_LIMIT) SPAN_CACHE.clear();
      SPAN_CACHE.set(span, out);
    }
  }
  return out;
}

/** Forget the cached spans (benchmarks use this for a cold start). */
export function clearSpanCache() { SPAN_CACHE.clear(); }

function loneSurrogate(text) {
  return new FormatError('lone-surrogate', firstSurrogate(text), 'a surrogate code point is not a Unicode scalar value');
}

/**
 * NFC of a string (spec 4.2), from the pinned tables, span by span (4.4) in one scan of the
 * UTF-16 units. With `check`, a lone surrogate throws a FormatError (spec 4.3), found in the
 * same scan. Already-NFC text is returned as is.
 */
export function nfc(text, check = false) {
  const n = text.length;
  let parts = null;
  let copied = 0; // text[0:copied] is in parts
  let i = 0, quiet = 0; // quiet: code units < U+0300 in a row
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 0x300) {
      i++;
      // a long stretch of them (code, Latin text): let the regex engine find the next candidate
      if (++quiet >= 32) {
        quiet = 0;
        CANDIDATE.lastIndex = i;
        if (!CANDIDATE.test(text)) break;
        i = CANDIDATE.lastIndex - 1;
      }
      continue;
    }
    quiet = 0;
    let w = 1;
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = c <= 0xdbff && i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (d < 0xdc00 || d > 0xdfff) {
        if (check) throw loneSurrogate(text);
        i++; // a surrogate code point is stable
        continue;
      }
      if (isStable(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000)) { i += 2; continue; }
      w = 2;
    } else if (UNSTABLE_BMP[c] === 0) { i++; continue; }
    // a maximal run of unstable code points [i, e), with the stable one just before it
    let s = i;
    if (i > 0) {
      const p = text.charCodeAt(i - 1);
      s = p >= 0xdc00 && p <= 0xdfff && i > 1 && cpAt(text, i - 2) >= 0x10000 ? i - 2 : i - 1;
    }
    let e = i + w;
    while (e < n) {
      const x = text.charCodeAt(e);
      if (x < 0x300) break;
      if (x >= 0xd800 && x <= 0xdfff) {
        const d = x <= 0xdbff && e + 1 < n ? text.charCodeAt(e + 1) : 0;
        if (d < 0xdc00 || d > 0xdfff) {
          if (check) throw loneSurrogate(text);
          break;
        }
        if (isStable(((x - 0xd800) << 10) + (d - 0xdc00) + 0x10000)) break;
        e += 2;
      } else {
        if (UNSTABLE_BMP[x] === 0) break;
        e++;
      }
    }
    const span = text.slice(s, e);
    const normal = spanNfc(span);
    if (normal !== span) {
      if (parts === null) parts = [];
      if (copied < s) parts.push(text.slice(copied, s));
      parts.push(normal);
      copied = e;
    }
    i = e;
  }
  if (parts === null) return text;
  if (copied < n) parts.push(text.slice(copied));
  return parts.join('');
}

function cpAt(s, i) {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}
