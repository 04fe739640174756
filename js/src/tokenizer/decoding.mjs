// Token ids back to text (spec 14.6): ids -> the stream -> decode (spec 7), with the first
// error in id order: an unknown id, byte-fallback ids that are not UTF-8, or the stream's first
// error (spec 8.2) attributed to the id holding its code point.
import { decode as decodeStream } from '../decoding.mjs';
import { FormatError } from '../errors.mjs';
import { BYTE_TOKENS } from './bpe.mjs';

export class UnknownTokenIdError extends RangeError {
  constructor(id, idIndex) {
    super(`unknown token id ${id} (at index ${idIndex})`);
    this.name = 'UnknownTokenIdError';
    this.kind = 'unknown-id'; // spec 14.7
    this.id = id;
    this.idIndex = idIndex;
  }
}

/** Byte-fallback ids that are not UTF-8: `bytes` (the bad ones), `reason` as Python words it, `idIndex` of the first. */
export class ByteFallbackError extends Error {
  constructor(bytes, reason, idIndex) {
    super(`'utf-8' codec can't decode bytes ${bytes.map((b) => b.toString(16).padStart(2, '0')).join(' ')}: ${reason} (byte-fallback id at index ${idIndex})`);
    this.name = 'ByteFallbackError';
    this.kind = 'invalid-bytes'; // spec 14.7
    this.bytes = bytes;
    this.reason = reason;
    this.idIndex = idIndex;
  }
}

/** A FormatError in the stream of ids: `offset` counts code points since the last special token; `idIndex` the id holding it. */
export class TokenFormatError extends FormatError {
  constructor(kind, offset, message, idIndex) {
    super(kind, offset, message);
    this.name = 'TokenFormatError';
    this.idIndex = idIndex;
  }
}

/** What each id stands for: `token` (id -> token), `special` (id -> text), `byte` (id -> byte). */
export class TokenTable {
  constructor(vocab, idToToken, specialTokens) {
    this.token = idToToken;
    this.special = new Map([...specialTokens].map(([t, i]) => [i, t]));
    this.byte = new Map(BYTE_TOKENS.map((t, b) => [vocab.get(t), b]));
  }
}

/**
 * UTF-8 with U+FFFD for each maximal invalid subpart (as Python's errors="replace" and the
 * WHATWG decoder): { cps, starts (byte index of each code point), error: {start, end, reason} | null, tail }.
 */
export function utf8Decode(bytes) {
  const cps = [], starts = [];
  let error = null, tail = bytes.length; // tail: where an unfinished sequence at the end starts
  const n = bytes.length;
  const bad = (start, end, reason) => { cps.push(0xfffd); starts.push(start); if (error === null) error = { start, end, reason }; };
  for (let i = 0; i < n;) {
    const b = bytes[i];
    if (b < 0x80) { cps.push(b); starts.push(i); i++; continue; }
    let need, lo = 0x80, hi = 0xbf, cp;
    if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; cp = b & 0x0f; if (b === 0xe0) lo = 0xa0; if (b === 0xed) hi = 0x9f; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; cp = b & 0x07; if (b === 0xf0) lo = 0x90; if (b === 0xf4) hi = 0x8f; }
    else { bad(i, i + 1, 'invalid start byte'); i++; continue; }
    let k = 1;
    for (; k <= need; k++) {
      if (i + k >= n) break;
      const c = bytes[i + k];
      if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) break;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (k > need) { cps.push(cp); starts.push(i); i += need + 1; continue; }
    if (i + k >= n) tail = i;
    bad(i, i + k, i + k >= n ? 'unexpected end of data' : 'invalid continuation byte');
    i += k;
  }
  return { cps, starts, error, tail };
}

const cpString = (cps) => String.fromCodePoint(...cps);

/** A stretch's stream as it is built: its text and, per code point, the index of its id. */
class StretchStream {
  constructor(strict) { this.strict = strict; this.parts = []; this.owners = []; this.firstError = null; this.run = []; this.runStart = 0; }
  fail(error) { if (this.strict && this.firstError === null) this.firstError = error; }
  token(text, index) { this.endBytes(); this.parts.push(text); for (const _ of text) this.owners.push(index); }
  unknown(id, index) { this.endBytes(); this.fail(new UnknownTokenIdError(id, index)); this.token('\ufffd', index); }
  byte(b, index) { if (this.run.length === 0) this.runStart = index; this.run.push(b); }
  endBytes() {
    if (this.run.length === 0) return;
    const { cps, starts, error } = utf8Decode(this.run);
    if (error !== null) this.fail(new ByteFallbackError(this.run.slice(error.start, error.end), error.reason, this.runStart + error.start));
    this.parts.push(cpString(cps));
    for (const s of starts) this.owners.push(this.runStart + s);
    this.run = [];
  }
  /** Decode the stretch; in strict mode throw its first error in id order. */
  decode(errors, maxOutput) {
    this.endBytes();
    let text;
    try {
      text = decodeStream(this.parts.join(''), { errors, maxOutput });
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      const index = this.owners[e.offset] ?? this.owners[this.owners.length - 1];
      if (this.firstError === null || index < this.firstError.idIndex) throw new TokenFormatError(e.kind, e.offset, e.detail, index);
      throw this.firstError;
    }
    if (this.firstError !== null) throw this.firstError;
    return text;
  }
}

/** The text of `ids` (see Tokenizer.decode). */
export function decodeIds(table, ids, { errors = 'strict', skipSpecialTokens = false, maxOutput } = {}) {
  if (errors !== 'strict' && errors !== 'replace') throw new TypeError(`errors must be 'strict' or 'replace', not ${JSON.stringify(errors)}`);
  const strict = errors === 'strict';
  const out = [];
  let stretch = new StretchStream(strict);
  let index = 0;
  for (const id of ids) {
    const b = table.byte.get(id);
    if (b !== undefined) stretch.byte(b, index);
    else {
      const special = table.special.get(id);
      if (special !== undefined) {
        out.push(stretch.decode(errors, maxOutput));
        stretch = new StretchStream(strict);
        if (!skipSpecialTokens) out.push(special);
      } else {
        const token = table.token.get(id);
        if (token === undefined) stretch.unknown(id, index); else stretch.token(token, index);
      }
    }
    index++;
  }
  out.push(stretch.decode(errors, maxOutput));
  return out.join('');
}
