// The splitters of spec 5: llama3 and paper, matched by hand (leftmost-first, greedy, with the
// backtracking of 5.3) over the pinned classes of 3.2. Works on UTF-16 strings directly.
import { CLASS_BMP, classOf, CLS_L, CLS_N, CLS_W } from './ucd.mjs';

export const SPLITTERS = ['llama3', 'paper'];

const OTHER = 0;

/**
 * Cut `s` (a string) into pieces; returns the end index (UTF-16) of every piece, in order.
 * `maxDigits` is 3 for llama3, 1 for paper.
 */
export function splitEnds(s, maxDigits) {
  const n = s.length;
  const ends = [];
  // code point and class at UTF-16 index i
  let pos = 0;
  const cpAt = (i) => {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
    }
    return c;
  };
  const width = (c) => (c >= 0x10000 ? 2 : 1);
  const cls = (c) => (c < 0x10000 ? CLASS_BMP[c] : classOf(c));
  // end of a run of class k from i
  const runOf = (i, k) => {
    while (i < n) {
      const c = cpAt(i);
      if (cls(c) !== k) break;
      i += width(c);
    }
    return i;
  };
  const isCRLF = (c) => c === 0x0a || c === 0x0d;
  const crlfRun = (i) => {
    while (i < n && isCRLF(s.charCodeAt(i))) i++;
    return i;
  };
  while (pos < n) {
    const c = cpAt(pos);
    const k = cls(c);
    const next = pos + width(c);
    let end = -1;
    // 1. contractions (5.2)
    if (c === 0x27 && next < n) {
      const a = s.charCodeAt(next);
      const b = next + 1 < n ? s.charCodeAt(next + 1) : 0;
      if (a === 0x73 || a === 0x53 || a === 0x17f || a === 0x74 || a === 0x54 || a === 0x6d || a === 0x4d ||
          a === 0x64 || a === 0x44) end = next + 1;
      else if ((a === 0x72 || a === 0x52 || a === 0x76 || a === 0x56) && (b === 0x65 || b === 0x45)) end = next + 2;
      else if ((a === 0x6c || a === 0x4c) && (b === 0x6c || b === 0x4c)) end = next + 2;
    }
    if (end < 0) {
      if (k === CLS_L) {
        // 2. letters (the optional prefix cannot be a letter)
        end = runOf(next, CLS_L);
      } else if (k === CLS_N) {
        // 3. numbers, 1..maxDigits
        end = next;
        for (let d = 1; d < maxDigits && end < n; d++) {
          const e = cpAt(end);
          if (cls(e) !== CLS_N) break;
          end += width(e);
        }
      } else {
        // 2. one code point that is not CR, LF, L or N, then letters
        if (!isCRLF(c) && next < n && cls(cpAt(next)) === CLS_L) end = runOf(next, CLS_L);
        else if (k === OTHER) {
          // 4. punctuation, symbols, marks, private use; then CR/LF
          end = crlfRun(runOf(next, OTHER));
        } else if (c === 0x20 && next < n && cls(cpAt(next)) === OTHER) {
          // 4. with its optional space
          end = crlfRun(runOf(next, OTHER));
        } else {
          // whitespace: 5, 6, 7
          const e = runOf(pos, CLS_W);
          let lastBreak = -1;
          for (let i = pos; i < e; i++) if (isCRLF(s.charCodeAt(i))) lastBreak = i;
          if (lastBreak >= 0) end = lastBreak + 1; // 5. \s*[\r\n]+
          else if (e === n) end = e; // 6. \s+(?!\S) at the end of the text
          else {
            // 6. gives back the last whitespace code point, if one is left; else 7.
            const last = e - 1; // every White_Space code point is in the BMP
            end = last > pos ? last : e;
          }
        }
      }
    }
    ends.push(end);
    pos = end;
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
