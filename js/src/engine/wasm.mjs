// The C core built to WebAssembly (native/wasm/: the core, exports.c, engine.c), driven from
// JavaScript: the codec (Core: encode, decode, pretokens, split) and the tokenizer engine
// (WasmVocabulary: every id of a text or batch in one call; WasmTable: ids to text). This file
// only moves data in and out of wasm memory; js/src/engine.mjs decides when it runs, and the
// reference modules (js/src/*.mjs) check the options and raise every error.
//
// Text goes in as UTF-8 (TextEncoder.encodeInto writes it straight into wasm memory), or as the
// string's UTF-16 units when it holds U+FFFD, which may stand for a lone surrogate that UTF-8
// cannot carry (the core says so and the call is made again). Ids come back as a Uint32Array
// view, copied out before the next call. Every input buffer is freed before a call returns; the
// engine's own buffers and caches are bounded (engine.c).
import { FormatError } from '../errors.mjs';
import { configOf, checkNormalize, checkText, DEFAULT_PROFILE } from '../options.mjs';
import { digitsOf } from '../splitting.mjs';
import { fuseMode } from '../pretokenize.mjs';
import { checkOptions as checkDecodeOptions, decode as referenceDecode, DEFAULT_MAX_OUTPUT } from '../decoding.mjs';

// glue.h's return codes and input encodings, core.h's fuse modes, engine.c's enums.
export const OK = 0, NO_MEMORY = -1, SURROGATE = -2, REPLACEMENT = -3, DECODE_ERROR = -4, ASK_REFERENCE = -5;
const UTF8 = 1, UTF16 = 2;
export const FUSE = Object.freeze({ none: 0, all: 1, frequent: 2 });
export const ALPHABET = Object.freeze({ characters: 0, bytes: 1 });
export const CUT = Object.freeze({ codec: 0, llama3: 1, paper: 2, gpt2: 3, given: 4 });
export const RULE = Object.freeze({ hf: 0, tiktoken: 1 });
export const TOKEN = Object.freeze({ unknown: 0, ordinary: 1, byte: 2, special: 3 });
/** The engine's cache of ids per pre-token and mode (entries; two generations of half each). */
export const CACHE_LIMIT = 1 << 16;

const UTF8_WRITER = new TextEncoder();
const UTF16_READER = new TextDecoder('utf-16le', { ignoreBOM: true }); // keep a leading U+FEFF
const SHORT_TEXT = 256; // UTF-16 units
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The instance of the module `bytes` (an ArrayBuffer or view), or of a WebAssembly.Module. */
export async function instantiate(bytesOrModule) {
  if (!LITTLE_ENDIAN) throw new Error('functok wasm core: needs a little-endian host');
  const result = await WebAssembly.instantiate(bytesOrModule, {});
  return new Wasm(result.instance ?? result);
}

/** The module's exports and memory, with the helpers every call uses. */
export class Wasm {
  constructor(instance) {
    this.x = instance.exports;
    this.x._initialize(); // the C runtime (a reactor module: no main)
    this.x.fk_init(); // the character tables (ucd_init)
    this.core = new Core(this);
  }

  /** The size of the module's memory in bytes (it grows to what calls need, and never shrinks). */
  get memoryBytes() { return this.x.memory.buffer.byteLength; }

  /** n bytes of wasm memory (free them with x.free), or throw a RangeError. */
  alloc(n) {
    const ptr = this.x.malloc(n || 1);
    if (ptr === 0) throw new RangeError(`functok wasm core: out of memory for ${n} bytes`);
    return ptr;
  }

  u8(ptr, n) { return new Uint8Array(this.x.memory.buffer, ptr, n); }
  u16(ptr, n) { return new Uint16Array(this.x.memory.buffer, ptr, n); }
  u32(ptr, n) { return new Uint32Array(this.x.memory.buffer, ptr, n); }

  /** A copy of `values` (numbers below 2**32) in wasm memory as uint32; free it. */
  writeU32(values) {
    const ptr = this.alloc(4 * values.length);
    this.u32(ptr, values.length).set(values);
    return ptr;
  }

  /**
   * Write `text` into memory as UTF-8 (UTF-16 when `width` is UTF16), run work(pointer, units,
   * width), free it, and return work's return code; on REPLACEMENT, again as UTF-16.
   */
  withText(text, work, utf16 = false) {
    if (utf16) return this.#withText(text, UTF16, work);
    let rc = this.#withText(text, UTF8, work);
    if (rc === REPLACEMENT) rc = this.#withText(text, UTF16, work); // U+FFFD: perhaps a lone surrogate
    return rc;
  }

  #withText(text, width, work) {
    const n = text.length;
    const size = width === UTF8 ? 3 * n : 2 * n; // UTF-8: at most 3 bytes per UTF-16 unit
    const ptr = this.x.malloc(size || 1);
    if (ptr === 0) return NO_MEMORY;
    try {
      if (width === UTF8) return work(ptr, UTF8_WRITER.encodeInto(text, this.u8(ptr, size)).written, UTF8);
      writeUnits(this.u16(ptr, n), text);
      return work(ptr, n, UTF16);
    } finally {
      this.x.free(ptr);
    }
  }

  // glue.h's answer_t, read afresh after each call (memory may have grown, detaching views).
  answer() {
    const [units, len, ends, nEnds, same, errorKind, errorOffset, errorMessage] = this.u32(this.x.fk_answer(), 8);
    return { units, len, ends, nEnds, same: same !== 0, errorKind, errorOffset, errorMessage };
  }

  /** A NUL-terminated C string (ASCII: error kinds and messages) at `ptr`. */
  string(ptr) {
    const bytes = new Uint8Array(this.x.memory.buffer, ptr);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
  }

  /** The answer's UTF-16 units as a string (short ones without TextDecoder, whose fixed cost is a crossing's). */
  units({ units, len }) {
    if (len <= SHORT_TEXT) return len === 0 ? '' : String.fromCharCode.apply(null, this.u16(units, len));
    return UTF16_READER.decode(this.u16(units, len));
  }
}

function writeUnits(view, text) {
  for (let i = 0; i < text.length; i++) view[i] = text.charCodeAt(i);
}

const noMemory = (what) => new RangeError(`functok wasm core: out of memory for ${what}`);

/** The codec (spec 2 to 9) on the core: the options and errors of js/src's encode, decode, pretokens, split. */
export class Core {
  #w;
  constructor(wasm) { this.#w = wasm; }

  get memoryBytes() { return this.#w.memoryBytes; }

  /** The stream of `text` (spec 6); the options and errors of functok's encode. */
  encode(text, { normalize = 'nfc', splitter = 'llama3', profile = DEFAULT_PROFILE, fold, case: caseOption, features } = {}) {
    checkNormalize(normalize);
    const cfg = configOf(features, profile, fold, caseOption);
    const digits = digitsOf(splitter);
    if (typeof text !== 'string') throw new TypeError(`expected a string, not ${typeof text}`);
    return this.#call(text, (ptr, n, width) => this.#w.x.fk_encode(ptr, n, width, normalize === 'nfc' ? 1 : 0, digits, cfg),
      (answer) => (answer.same ? text : this.#w.units(answer)));
  }

  /** The pre-tokens of `text` (spec 9); the options and errors of functok's pretokens. */
  pretokens(text, { normalize = 'nfc', splitter = 'llama3', splitOperators = true, fuse, profile = DEFAULT_PROFILE, fold, case: caseOption, features } = {}) {
    const mode = fuseMode(fuse, splitOperators);
    checkNormalize(normalize);
    const cfg = configOf(features, profile, fold, caseOption);
    const digits = digitsOf(splitter);
    if (typeof text !== 'string') throw new TypeError(`expected a string, not ${typeof text}`);
    return this.#call(text, (ptr, n, width) => this.#w.x.fk_pretokens(ptr, n, width, normalize === 'nfc' ? 1 : 0, digits, cfg, FUSE[mode]),
      (answer) => slices(this.#w.units(answer), this.#ends(answer)));
  }

  /** The pieces of `text` as given (spec 5.3); the options and errors of functok's split. */
  split(text, { splitter = 'llama3' } = {}) {
    if (typeof text !== 'string') throw new TypeError('split: text must be a string');
    const digits = digitsOf(splitter);
    return this.#call(text, (ptr, n, width) => this.#w.x.fk_split(ptr, n, width, digits), (answer) => slices(text, this.#ends(answer)));
  }

  /**
   * The text of a stream (spec 7 and 8); the options and errors of functok's decode. A long
   * stream crosses into the core in windows cut where the format allows (cutWindow), each
   * window's text made a string and its scratch freed before the next, so that wasm memory holds
   * one window, not the whole stream (the core keeps 4 bytes per code point, and wasm memory keeps
   * its high-water mark); a stretch that cannot be cut within LONGEST_WINDOW units is decoded by
   * the reference, whose memory is bounded by 4x (input + output). Every error is the
   * reference's: after any, the whole stream is decoded again by the reference, which raises it.
   */
  decode(stream, { errors = 'strict', maxOutput = DEFAULT_MAX_OUTPUT } = {}) {
    checkDecodeOptions(stream, errors, maxOutput);
    const strict = errors === 'strict';
    const whole = () => referenceDecode(stream, { errors, maxOutput });
    if (stream.length <= DECODE_WINDOW) return this.#decodeWindow(stream, strict, maxOutput) ?? whole();
    // A repeat checks the output so far against maxOutput (spec 7.8), as the decoder counts it,
    // which is not always the code points of the text before it (a lenient decode may differ);
    // the windows could not give each its exact share, so a long stream with a repeat is the
    // reference's.
    const parts = [];
    // Code points so far: a repeat checks the output before it, plus its group's, against
    // maxOutput (spec 7.8), so each window gets what the windows before it left. Text alone may
    // pass the limit; then every later repeat fails, as it does with a budget of 0 (its group has
    // a slot).
    let produced = 0;
    for (let start = 0, text0 = firstGroupCode(stream); start < stream.length;) {
      const end = cutWindow(stream, start + DECODE_WINDOW, text0);
      const window = stream.slice(start, end);
      const text = end - start > LONGEST_WINDOW
        ? referenceWindow(window, errors, Math.max(0, maxOutput - produced))
        : this.#decodeWindow(window, strict, Math.max(0, maxOutput - produced));
      if (text === null) return whole();
      parts.push(text);
      produced += codePointCount(text);
      start = end;
    }
    return parts.join('');
  }

  /** The text of one window (or a short stream) in the core, or null after a decode error. */
  #decodeWindow(window, strict, maxOutput) {
    const w = this.#w;
    const rc = w.withText(window, (ptr, n, width) => w.x.fk_decode(ptr, n, width, strict ? 1 : 0, BigInt(maxOutput)), true);
    try {
      if (rc === DECODE_ERROR) return null;
      if (rc === NO_MEMORY) throw noMemory(`a stream of ${window.length} UTF-16 units`);
      if (rc !== OK) throw new Error(`functok wasm core: unexpected return code ${rc}`);
      const answer = w.answer();
      return answer.same ? window : w.units(answer);
    } finally {
      w.x.fk_answer_free();
    }
  }

  // Run `work` on the text in memory (UTF-8), read its answer with `read`, and free it, whatever happens.
  #call(text, work, read) {
    const w = this.#w;
    const rc = w.withText(text, work);
    try {
      if (rc === SURROGATE) {
        checkText(text); // throws js/src's FormatError('lone-surrogate', offset)
        throw new Error('functok wasm core: a lone surrogate that js/src does not see');
      }
      if (rc === NO_MEMORY) throw noMemory(`a text of ${text.length} UTF-16 units`);
      if (rc !== OK) throw new Error(`functok wasm core: unexpected return code ${rc}`);
      return read(w.answer());
    } finally {
      w.x.fk_answer_free();
    }
  }

  #ends({ ends, nEnds }) { return nEnds === 0 ? [] : this.#w.u32(ends, nEnds); }
}

/** The pieces of s that end at each of `ends`, in order. */
function slices(s, ends) {
  const out = new Array(ends.length);
  for (let k = 0, start = 0; k < ends.length; k++) { out[k] = s.slice(start, ends[k]); start = ends[k]; }
  return out;
}

// Decoding in windows. A stream is text0 (group text)* (spec 7.1), and may be cut (python/
// functok/chunks.py, spec 12.2) just before a group, since each group reads only the text after
// it, or anywhere in text0, which no group reads.

/** UTF-16 units of stream per crossing into the core when decoding. */
export const DECODE_WINDOW = 1 << 16;
/** A stretch with no cut longer than this is decoded by the reference (see Core.decode). */
export const LONGEST_WINDOW = 4 * DECODE_WINDOW;

const isGroupCode = (c) => c >= 0xe000 && c <= 0xeffe;
const isSurrogate = (c) => c >= 0xd800 && c <= 0xdfff;

/** Where text0 ends: the first code unit of U+E000..U+EFFF (a group or an ESCAPE), or the length. */
function firstGroupCode(s) {
  const i = s.search(/[\ue000-\uefff]/);
  return i < 0 ? s.length : i;
}

/**
 * The first cut at or after `from`, or the stream's length: in text0 (before `text0`), between
 * two units that are not surrogates; after it, just before a group whose previous unit is a
 * plain text slot (not a surrogate, not an ESCAPE that would make the group code literal).
 */
function cutWindow(s, from, text0) {
  for (let p = from; p < s.length; p++) {
    const before = s.charCodeAt(p - 1), c = s.charCodeAt(p);
    if (p <= text0 ? !isSurrogate(before) && !isSurrogate(c)
      : isGroupCode(c) && !isGroupCode(before) && before !== 0xefff && !isSurrogate(before)) return p;
  }
  return s.length;
}

/** The reference's text of one window, or null after an error (the whole stream then raises it). */
function referenceWindow(window, errors, maxOutput) {
  try {
    return referenceDecode(window, { errors, maxOutput });
  } catch (e) {
    if (e instanceof FormatError) return null;
    throw e;
  }
}

/** Code points in a string: its units less its surrogate pairs. */
function codePointCount(s) {
  let n = s.length;
  for (let i = 0; i + 1 < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { n--; i++; }
    }
  }
  return n;
}

/**
 * One vocabulary in the engine (engine.c's `engine`): made from a reference TokenVocabulary's
 * tables by `load` (js/src/engine.mjs), then encode(texts or pre-tokens) -> ids per stretch.
 * Freed with the FinalizationRegistry when the JavaScript object goes.
 */
const finalizer = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(({ w, free, ptr }) => w.x[free](ptr)) : null;

export class WasmVocabulary {
  /** `config`: { alphabet, cut, rule, normalize, maxDigits, cfg, fuse, ignoreMerges } (engine.c's enums). */
  constructor(wasm, { alphabet, cut, rule, normalize = false, maxDigits = 3, cfg = 0, fuse = 0, ignoreMerges = false }) {
    this.w = wasm;
    this.ptr = wasm.x.fk_engine_new(alphabet, cut, rule, normalize ? 1 : 0, maxDigits, cfg, fuse, ignoreMerges ? 1 : 0, CACHE_LIMIT);
    if (this.ptr === 0) throw noMemory('a tokenizer');
    finalizer?.register(this, { w: wasm, free: 'fk_engine_free', ptr: this.ptr });
    this.segmenters = [false, false]; // made: every candidate, reachable only
  }

  /** Run load(ptr...) with each array of numbers written to memory as uint32; throw on no memory. */
  #load(what, arrays, call) {
    const ptrs = arrays.map((a) => this.w.writeU32(a));
    try {
      if (call(...ptrs) !== OK) throw noMemory(what);
    } finally {
      for (const p of ptrs) this.w.x.free(p);
    }
  }

  /** The one-code-point tokens: [code point, id, code point, id, ...]. */
  chars(pairs) { this.#load('the characters', [pairs], (p) => this.w.x.fk_engine_chars(this.ptr, p, pairs.length / 2)); }

  /** The merges: [left, right, rank, new id, ...] (a Uint32Array or an array). */
  merges(quads) { this.#load('the merges', [quads], (p) => this.w.x.fk_engine_merges(this.ptr, p, quads.length / 4)); }

  /** The byte-fallback ids by byte (undefined where missing). */
  bytes(ids) {
    const has = ids.map((id) => (id === undefined ? 0 : 1));
    const idPtr = this.w.writeU32(ids.map((id) => id ?? 0));
    const hasPtr = this.w.alloc(256);
    this.w.u8(hasPtr, 256).set(has);
    this.w.x.fk_engine_bytes(this.ptr, idPtr, hasPtr);
    this.w.x.free(idPtr);
    this.w.x.free(hasPtr);
  }

  /** Byte strings (Uint8Arrays, one after the other in `bytes`, ending at `ends`) and their values. */
  ranks(bytes, ends, values) {
    const keyPtr = this.w.alloc(bytes.length);
    this.w.u8(keyPtr, bytes.length).set(bytes);
    try {
      this.#load('the ranks', [ends, values], (e, v) => this.w.x.fk_engine_ranks(this.ptr, keyPtr, e, v, values.length));
    } finally {
      this.w.x.free(keyPtr);
    }
  }

  /** An optimal segmenter: candidates' symbols (flat), their ends and ids; byteIds (256, undefined where missing) or null. */
  segmenter(reachable, symbols, ends, ids, byteIds) {
    const k = reachable ? 1 : 0;
    const fallback = byteIds !== null;
    const hasPtr = fallback ? this.w.alloc(256) : 0;
    if (fallback) this.w.u8(hasPtr, 256).set(byteIds.map((id) => (id === undefined ? 0 : 1)));
    try {
      this.#load('the segmenter', [symbols, ends, ids, fallback ? byteIds.map((id) => id ?? 0) : []],
        (s, e, i, b) => this.w.x.fk_engine_segmenter(this.ptr, k, s, e, i, ids.length, fallback ? b : 0, hasPtr));
    } finally {
      if (hasPtr) this.w.x.free(hasPtr);
    }
    this.segmenters[k] = true;
  }

  clearCaches() { this.w.x.fk_engine_clear_caches(this.ptr); }

  /**
   * The ids of `text` under `mode` (engine.c's MODE_*): the stretches of text that end at the
   * UTF-16 offsets `ends` (null: one stretch), each pre-tokenized on its own (`given`: each
   * stretch is one pre-token). Returns { ids: Uint32Array view, ends: where each stretch's ids
   * end } valid until the next call, or a return code (SURROGATE, ASK_REFERENCE) for the
   * reference to answer.
   */
  encode(text, ends, mode, given = false) {
    const w = this.w;
    const endsPtr = ends === null ? 0 : w.writeU32(ends);
    let rc;
    try {
      rc = w.withText(text, (ptr, n, width) => w.x.fk_engine_encode(this.ptr, ptr, n, width, endsPtr, ends === null ? 0 : ends.length, mode, given ? 1 : 0));
    } finally {
      if (endsPtr) w.x.free(endsPtr);
    }
    if (rc === NO_MEMORY) throw noMemory(`a text of ${text.length} UTF-16 units`);
    if (rc !== OK) return rc;
    const [ids, nIds, idEnds, nEnds] = w.u32(this.ptr, 4);
    return { ids: w.u32(ids, nIds), ends: w.u32(idEnds, nEnds) };
  }
}

/** A tokenizer's ids -> text in the engine (detokenize.c's fast road). */
export class WasmTable {
  /** `text`: every token's text, one after the other, ending at `ends` (UTF-16); `kinds`, `bytes` by id. */
  constructor(wasm, text, ends, kinds, bytes) {
    this.w = wasm;
    const n = kinds.length;
    const textPtr = wasm.alloc(2 * text.length);
    writeUnits(wasm.u16(textPtr, text.length), text);
    const endsPtr = wasm.writeU32(ends);
    const kindsPtr = wasm.alloc(n), bytesPtr = wasm.alloc(n);
    wasm.u8(kindsPtr, n).set(kinds);
    wasm.u8(bytesPtr, n).set(bytes);
    this.ptr = wasm.x.fk_table_new(textPtr, text.length, endsPtr, kindsPtr, bytesPtr, n);
    for (const p of [textPtr, endsPtr, kindsPtr, bytesPtr]) wasm.x.free(p);
    if (this.ptr === 0) throw noMemory('a token table');
    finalizer?.register(this, { w: wasm, free: 'fk_table_free', ptr: this.ptr });
  }

  /** The text of `ids` (an array of integers in [0, 2**32)), or ASK_REFERENCE. */
  decode(ids, strict, skipSpecial, maxOutput) {
    const w = this.w;
    const ptr = w.writeU32(ids);
    try {
      const rc = w.x.fk_table_decode(this.ptr, ptr, ids.length, strict ? 1 : 0, skipSpecial ? 1 : 0, BigInt(maxOutput));
      if (rc === NO_MEMORY) throw noMemory(`${ids.length} ids`);
      if (rc !== OK) return rc;
      return w.units(w.answer());
    } finally {
      w.x.free(ptr);
      w.x.fk_answer_free();
    }
  }
}
