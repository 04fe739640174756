// Strings as code points. JavaScript strings are UTF-16; the format counts code points (spec 1).
// A surrogate pair is one code point; an unpaired surrogate is a surrogate code point.

/** The code points of a string, unpaired surrogates included. */
export function codePoints(s) {
  const out = [];
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.push(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
        i++;
        continue;
      }
    }
    out.push(c);
  }
  return out;
}

/** A string from code points (chunked: fromCharCode.apply has an argument limit). */
export function fromCodePoints(cps, start = 0, end = cps.length) {
  let out = '';
  const units = [];
  for (let i = start; i < end; i++) {
    const c = cps[i];
    if (c < 0x10000) units.push(c);
    else units.push(0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff));
    if (units.length >= 8192) { out += String.fromCharCode.apply(null, units); units.length = 0; }
  }
  if (units.length) out += String.fromCharCode.apply(null, units);
  return out;
}

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The code point index of the first unpaired surrogate, or -1. */
export function firstSurrogate(s) {
  const m = LONE.exec(s);
  if (m === null) return -1;
  let k = 0;
  for (let i = 0; i < m.index; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++; // every surrogate before the match is paired
    k++;
  }
  return k;
}
