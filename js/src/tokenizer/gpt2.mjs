// GPT-2's pre-tokenizer pattern and byte alphabet, over the pinned classes of spec 3.2 (never
// the host's \p{...}): the same pieces as `regex` with
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// (as Python's functok.tokenizer.external.gpt2_pattern).
import { CLS_W } from '../ucd.mjs';
import { classAt, runOf } from '../splitting.mjs';

/** The end of GPT-2's piece that starts at `pos` < n. */
function gpt2PieceEnd(s, pos, n) {
  const c = s.charCodeAt(pos);
  if (c === 0x27 && pos + 1 < n) { // 's|'t|'re|'ve|'m|'ll|'d
    const a = s.charCodeAt(pos + 1), b = pos + 2 < n ? s.charCodeAt(pos + 2) : 0;
    if (a === 0x73 || a === 0x74 || a === 0x6d || a === 0x64) return pos + 2;
    if ((a === 0x72 && b === 0x65) || (a === 0x76 && b === 0x65) || (a === 0x6c && b === 0x6c)) return pos + 3;
  }
  let start = pos;
  if (c === 0x20 && pos + 1 < n && classAt(s, pos + 1, n) !== CLS_W) start = pos + 1; // the optional space
  const k = classAt(s, start, n);
  if (start > pos || k !== CLS_W) return runOf(s, start, n, k); // ' ?\p{L}+', ' ?\p{N}+', ' ?[^\s\p{L}\p{N}]+'
  const e = runOf(s, pos, n, CLS_W); // '\s+(?!\S)' gives back the last one; else '\s+'
  if (e === n) return e;
  return e - 1 > pos ? e - 1 : e;
}

/** GPT-2's pieces of `text`. */
export function gpt2Split(text) {
  const out = [];
  for (let pos = 0, n = text.length; pos < n;) {
    const end = gpt2PieceEnd(text, pos, n);
    out.push(text.slice(pos, end));
    pos = end;
  }
  return out;
}

/** GPT-2's byte alphabet: each byte as one printable character (openai/gpt-2 bytes_to_unicode). */
export const BYTE_TO_CHAR = (() => {
  const printable = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const chars = printable.slice();
  let extra = 0;
  for (let b = 0; b < 256; b++) if (!printable.includes(b)) { printable.push(b); chars.push(256 + extra++); }
  const out = new Array(256);
  printable.forEach((b, k) => { out[b] = String.fromCharCode(chars[k]); });
  return Object.freeze(out);
})();

const ENCODER = new TextEncoder();
/** A piece's UTF-8 bytes written in GPT-2's byte alphabet (what a ByteLevel pre-tokenizer yields). */
export function byteLevel(piece) {
  let ascii = true;
  for (let k = 0; k < piece.length; k++) { const c = piece.charCodeAt(k); if (c >= 0x7f || c <= 0x20) { ascii = false; break; } }
  if (ascii) return piece;
  let out = '';
  for (const b of ENCODER.encode(piece)) out += BYTE_TO_CHAR[b];
  return out;
}
