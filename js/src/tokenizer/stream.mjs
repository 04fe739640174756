// Incremental decoding for generation: DecodeStream gives each id's text once it is final, and
// the concatenation of what step() and finish() return equals Tokenizer.decode of the same ids
// (same errors, maxOutput and skipSpecialTokens), strict errors included.
//
// What is final: the stream's units (a group and the text after it, spec 7.1) decode on their
// own, so a unit is final once the next group starts (or a special token or the end comes).
// Text before the stretch's first group is literal, final as it arrives. (Python's
// DecodeStream also releases a unit's slots early when no repeat can change them; the text is
// the same, the chunks can be larger here.) The output limit (spec 7.8) counts what earlier
// units produced: each unit is decoded with the limit less the code points already output.
import { decode as decodeStream, DEFAULT_MAX_OUTPUT } from '../decoding.mjs';
import { FormatError } from '../errors.mjs';
import { ESCAPE, GROUP_FIRST, GROUP_LAST } from '../opcodes.mjs';
import { utf8Decode, UnknownTokenIdError, ByteFallbackError, TokenFormatError } from './decoding.mjs';

const isInstruction = (c) => c >= GROUP_FIRST && c <= GROUP_LAST; // opcodes and arguments: a group's code points

export class DecodeStream {
  constructor(tokenizer, { errors = 'strict', skipSpecialTokens = false, maxOutput = DEFAULT_MAX_OUTPUT } = {}) {
    if (errors !== 'strict' && errors !== 'replace') throw new TypeError(`errors must be 'strict' or 'replace', not ${JSON.stringify(errors)}`);
    if (!Number.isSafeInteger(maxOutput) || maxOutput < 0) throw new TypeError('maxOutput must be a non-negative integer');
    this.tokenizer = tokenizer;
    this.errors = errors;
    this.skipSpecialTokens = skipSpecialTokens;
    this.maxOutput = maxOutput;
    this._table = tokenizer.tokenTable;
    this._index = 0;
    this._newStretch();
  }

  _newStretch() {
    this._pending = ''; // the stream not yet decoded (UTF-16)
    this._owners = []; // per code point of _pending: the index of its id
    this._offset = 0; // code points of the stretch before _pending
    this._output = 0; // code points output for this stretch
    this._scan = 0; // _pending[0:_scan] has been looked at for cuts
    this._cut = 0; // the last cut found: _pending[0:_cut] can be decoded
    this._inGroup = false; // the scan is in a group
    this._sawGroup = false; // the stretch has had a group (text0 is over)
    this._escaped = false; // the scan's last code unit was an ESCAPE (its pair is open)
    this._bytes = []; // byte-fallback bytes not yet read as UTF-8
    this._bytesStart = 0;
    this._idError = null; // the first id error of the stretch not yet raised
  }

  /** Take one id; return the text that has become final, or null. */
  step(id) {
    const index = this._index++;
    const special = this._table.special.get(id);
    if (special !== undefined) {
      const out = this._endStretch() + (this.skipSpecialTokens ? '' : special);
      return out || null;
    }
    const b = this._table.byte.get(id);
    if (b !== undefined) {
      if (this._bytes.length === 0) this._bytesStart = index;
      this._bytes.push(b);
      this._readBytes(false);
    } else {
      this._readBytes(true);
      const token = this._table.token.get(id);
      if (token === undefined) { this._idFail(new UnknownTokenIdError(id, index)); this._append('\ufffd', index); } else this._append(token, index);
    }
    return this._release(false) || null;
  }

  /** The ids have ended: the rest of the text (raises on errors in strict mode). */
  finish() { return this._endStretch(); }

  _endStretch() {
    this._readBytes(true);
    const out = this._release(true);
    if (this._idError !== null) throw this._idError;
    this._newStretch();
    return out;
  }

  _idFail(error) { if (this.errors === 'strict' && this._idError === null) this._idError = error; }

  /** Read the buffered bytes as UTF-8, all of them when `all`, else up to an unfinished sequence at the end. */
  _readBytes(all) {
    if (this._bytes.length === 0) return;
    const r = utf8Decode(this._bytes);
    const keep = all ? this._bytes.length : r.tail;
    if (keep === 0) return;
    const done = all ? r : utf8Decode(this._bytes.slice(0, keep));
    if (done.error !== null) {
      const e = done.error;
      this._idFail(new ByteFallbackError(this._bytes.slice(e.start, e.end), e.reason, this._bytesStart + e.start));
    }
    for (let k = 0; k < done.cps.length; k++) this._append(String.fromCodePoint(done.cps[k]), this._bytesStart + done.starts[k]);
    this._bytes = this._bytes.slice(keep);
    this._bytesStart += keep;
  }

  _append(text, index) {
    this._pending += text;
    for (const _ of text) this._owners.push(index);
  }

  /** Find the last cut in the new code units: a group that starts after text; in text0, any safe end. */
  _findCut() {
    const s = this._pending;
    let i = this._scan;
    for (; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (this._escaped) { this._escaped = false; continue; }
      if (isInstruction(c)) {
        if (!this._inGroup && i > 0) this._cut = i;
        this._inGroup = true; this._sawGroup = true;
      } else {
        this._inGroup = false;
        if (c === ESCAPE) this._escaped = true;
      }
    }
    this._scan = i;
    if (!this._sawGroup) { // text0: all but an open escape or a high surrogate whose pair may follow
      let end = s.length;
      const last = s.charCodeAt(end - 1);
      if (this._escaped || (last >= 0xd800 && last <= 0xdbff)) end--;
      if (end > this._cut) this._cut = end;
    }
  }

  /**
   * The text of whole units of the format's stream (functok's decode, spec 7 and 8); a subclass
   * may decode them elsewhere with the same output and errors (the engine seam, src/engine.mjs).
   */
  _decodeUnits(units, options) { return decodeStream(units, options); }

  /** Decode and drop _pending up to the last cut (all of it when `all`); the text. */
  _release(all) {
    this._findCut();
    const end = all ? this._pending.length : this._cut;
    if (end === 0) return '';
    const chunk = this._pending.slice(0, end);
    const points = [...chunk].length;
    let text;
    try {
      text = this._decodeUnits(chunk, { errors: this.errors, maxOutput: Math.max(0, this.maxOutput - this._output) });
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      const index = this._owners[e.offset] ?? this._owners[points - 1];
      const mine = new TokenFormatError(e.kind, this._offset + e.offset, e.detail, index);
      throw this._idError !== null && this._idError.idIndex <= index ? this._idError : mine; // a tie: the id error (spec 14.6)
    }
    // every id error so far lies in this chunk or before it: it is now the first error in id order
    if (this._idError !== null && this._owners[points - 1] >= this._idError.idIndex) throw this._idError;
    this._pending = this._pending.slice(end);
    this._owners = this._owners.slice(points);
    this._offset += points;
    this._output += [...text].length;
    this._scan -= end; this._cut -= end;
    return text;
  }
}
