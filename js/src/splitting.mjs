// The splitters of spec 5: llama3 and paper, matched by hand (leftmost-first, greedy, with the
// backtracking of 5.3) over the pinned classes of 3.2. Works on UTF-16 strings directly: one
// function finds the end of the piece that starts at a position, with no regex and no closure,
// so that the encoder can cut and encode in one pass.
import { CLASS_BMP, classOf, CLS_L, CLS_N, CLS_W } from './ucd.mjs';

export const SPLITTERS = ['llama3', 'paper'];

const OTHER = 0;

/** The class (3.2) of the code point at UTF-16 index i < n; a lone surrogate is in none. */
export function classAt(s, i, n) {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= n) return CLASS_BMP[c];
  const d = s.charCodeAt(i + 1);
  if (d < 0xdc00 || d > 0xdfff) return OTHER;
  return classOf(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
}

/** The end of the run of class k that starts at i. */
export function runOf(s, i, n, k) {
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) {
      if (CLASS_BMP[c] !== k) break;
      i++;
    } else {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (classOf(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) !== k) break;
        i += 2;
      } else {
        if (k !== OTHER) break;
        i++;
      }
    }
  }
  return i;
}

function crlfRun(s, i, n) {
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/**
 * The end (UTF-16 index) of the piece of `s` that starts at `pos` < n = s.length.
 * `maxDigits` is 3 for llama3, 1 for paper.
 */
export function pieceEnd(s, pos, n, maxDigits) {
  let c = s.charCodeAt(pos);
  let next = pos + 1;
  let k;
  if (c < 0xd800 || c > 0xdbff || next >= n) k = CLASS_BMP[c];
  else {
    const d = s.charCodeAt(next);
    if (d >= 0xdc00 && d <= 0xdfff) {
      c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      next++;
      k = classOf(c);
    } else k = OTHER;
  }
  // 1. contractions (5.2)
  if (c === 0x27 && next < n) {
    const a = s.charCodeAt(next);
    if (a === 0x73 || a === 0x53 || a === 0x17f || a === 0x74 || a === 0x54 || a === 0x6d || a === 0x4d ||
        a === 0x64 || a === 0x44) return next + 1;
    const b = next + 1 < n ? s.charCodeAt(next + 1) : 0;
    if ((a === 0x72 || a === 0x52 || a === 0x76 || a === 0x56) && (b === 0x65 || b === 0x45)) return next + 2;
    if ((a === 0x6c || a === 0x4c) && (b === 0x6c || b === 0x4c)) return next + 2;
  }
  // 2. letters (the optional prefix cannot be a letter)
  if (k === CLS_L) return runOf(s, next, n, CLS_L);
  if (k === CLS_N) {
    // 3. numbers, 1..maxDigits
    let end = next;
    for (let m = 1; m < maxDigits && end < n; m++) {
      const e = s.charCodeAt(end);
      if (e < 0xd800 || e > 0xdbff) {
        if (CLASS_BMP[e] !== CLS_N) break;
        end++;
      } else {
        if (classAt(s, end, n) !== CLS_N) break;
        end += 2; // a paired high surrogate: classAt gives N only for a supplementary code point
      }
    }
    return end;
  }
  const crlf = c === 0x0a || c === 0x0d;
  // 2. one code point that is not CR, LF, L or N, then letters
  if (!crlf && next < n && classAt(s, next, n) === CLS_L) return runOf(s, next, n, CLS_L);
  // 4. punctuation, symbols, marks, private use; then CR/LF
  if (k === OTHER) return crlfRun(s, runOf(s, next, n, OTHER), n);
  // 4. with its optional space
  if (c === 0x20 && next < n && classAt(s, next, n) === OTHER) return crlfRun(s, runOf(s, next, n, OTHER), n);
  // whitespace: 5, 6, 7 (every White_Space code point is in the BMP)
  const e = runOf(s, pos, n, CLS_W);
  for (let i = e - 1; i >= pos; i--) {
    const w = s.charCodeAt(i);
    if (w === 0x0a || w === 0x0d) return i + 1; // 5. \s*[\r\n]+
  }
  if (e === n) return e; // 6. \s+(?!\S) at the end of the text
  // 6. gives back the last whitespace code point, if one is left; else 7.
  return e - 1 > pos ? e - 1 : e;
}

/** The end index (UTF-16) of every piece of `s`, in order. */
export function splitEnds(s, maxDigits) {
  const n = s.length;
  const ends = [];
  for (let pos = 0; pos < n;) {
    pos = pieceEnd(s, pos, n, maxDigits);
    ends.push(pos);
  }
  return ends;
}

function digitsOf(splitter) {
  if (splitter === 'llama3') return 3;
  if (splitter === 'paper') return 1;
  throw new TypeError(`splitter must be 'llama3' or 'paper', not ${JSON.stringify(splitter)}`);
}
export { digitsOf };

/** The pieces of `text` as given, without normalization (spec 5.3). */
export function split(text, { splitter = 'llama3' } = {}) {
  if (typeof text !== 'string') throw new TypeError('split: text must be a string');
  const ends = splitEnds(text, digitsOf(splitter));
  const out = new Array(ends.length);
  let start = 0;
  for (let k = 0; k < ends.length; k++) { out[k] = text.slice(start, ends[k]); start = ends[k]; }
  return out;
}
