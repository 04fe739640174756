// The C core (native/src/) built to WebAssembly (build.mjs), behind the API of functok for
// JavaScript: encode, decode, pretokens and split take the same options and throw the same errors as
// js/src, whose own checks (js/src/options.mjs, split.mjs, pretokenize.mjs) turn the options
// into the core's configuration integer; only the work runs in wasm.
//
//   import { loadCore } from './native/wasm/core.mjs';
//   const core = await loadCore();          // Node: build/functok-core.wasm next to this file
//   const core = await loadCore(urlOrBytes); // a browser: a URL, a Response, or the bytes
//   core.encode('Hello World')
//
// Text goes in as UTF-8 (TextEncoder.encodeInto writes it straight into wasm memory, several
// times faster than copying UTF-16 units in a loop), or as the string's UTF-16 units when it
// holds U+FFFD, which may stand for a lone surrogate that UTF-8 cannot carry (the core says so).
// The core works on code points and writes its answer as UTF-16, which TextDecoder reads. Every buffer is freed before a call returns, so memory
// holds only what one call needs (linear in its text; wasm memory grows to the largest call and
// keeps that size). A text too large for the 4 GiB of wasm32 memory gets a RangeError.
import { FormatError } from '../../js/src/errors.mjs';
import { configOf, checkNormalize, checkText, DEFAULT_PROFILE } from '../../js/src/options.mjs';
import { digitsOf } from '../../js/src/split.mjs';
import { fuseMode } from '../../js/src/pretokenize.mjs';
import { checkOptions as checkDecodeOptions, DEFAULT_MAX_OUTPUT } from '../../js/src/decode.mjs';

export { FormatError };

// exports.c's return codes and input encodings, and core.h's fuse modes (FUSE_NONE, FUSE_ALL, FUSE_FREQUENT).
const NO_MEMORY = -1, SURROGATE = -2, REPLACEMENT = -3, DECODE_ERROR = -4;
const UTF8 = 1, UTF16 = 2;
const FUSE = { none: 0, all: 1, frequent: 2 };

const UTF8_WRITER = new TextEncoder();
const UTF16_READER = new TextDecoder('utf-16le', { ignoreBOM: true }); // keep a leading U+FEFF
if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Error('functok wasm core: needs a little-endian host');

async function moduleBytes(source) {
  if (source === undefined) { // Node: the built file beside this module
    const { readFile } = await import('node:fs/promises');
    const path = new URL('./build/functok-core.wasm', import.meta.url);
    try { return await readFile(path); } catch (e) {
      throw new Error(`functok wasm core: ${path.pathname} is missing; build it with: node native/wasm/build.mjs (${e.code})`);
    }
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const response = typeof Response !== 'undefined' && source instanceof Response ? source : await fetch(source);
  if (!response.ok) throw new Error(`functok wasm core: ${response.url} answered ${response.status}`);
  return response.arrayBuffer();
}

/** The core, instantiated from `source` (bytes, a URL or a Response; in Node, the built file by default). */
export async function loadCore(source) {
  const { instance } = await WebAssembly.instantiate(await moduleBytes(source), {});
  return new Core(instance.exports);
}

export class Core {
  #x;
  constructor(wasmExports) {
    this.#x = wasmExports;
    this.#x._initialize(); // the C runtime (a reactor module: no main)
    this.#x.fk_init(); // the character tables (ucd_init)
  }

  /** The size of the module's memory in bytes (it grows to the largest call and stays). */
  get memoryBytes() { return this.#x.memory.buffer.byteLength; }

  /** The stream of `text` (spec 6); the options and errors of functok's encode. */
  encode(text, { normalize = 'nfc', splitter = 'llama3', profile = DEFAULT_PROFILE, fold, case: caseOption, features } = {}) {
    checkNormalize(normalize);
    const cfg = configOf(features, profile, fold, caseOption);
    const digits = digitsOf(splitter);
    if (typeof text !== 'string') throw new TypeError(`expected a string, not ${typeof text}`);
    return this.#call(text, (ptr, n, width) => this.#x.fk_encode(ptr, n, width, normalize === 'nfc' ? 1 : 0, digits, cfg),
      (answer) => (answer.same ? text : this.#units(answer)));
  }

  /** The pre-tokens of `text` (spec 9); the options and errors of functok's pretokens. */
  pretokens(text, { normalize = 'nfc', splitter = 'llama3', splitOperators = true, fuse, profile = DEFAULT_PROFILE, fold, case: caseOption, features } = {}) {
    const mode = fuseMode(fuse, splitOperators);
    checkNormalize(normalize);
    const cfg = configOf(features, profile, fold, caseOption);
    const digits = digitsOf(splitter);
    if (typeof text !== 'string') throw new TypeError(`expected a string, not ${typeof text}`);
    return this.#call(text, (ptr, n, width) => this.#x.fk_pretokens(ptr, n, width, normalize === 'nfc' ? 1 : 0, digits, cfg, FUSE[mode]),
      (answer) => slices(this.#units(answer), this.#ends(answer)));
  }

  /** The pieces of `text` as given (spec 5.3); the options and errors of functok's split. */
  split(text, { splitter = 'llama3' } = {}) {
    if (typeof text !== 'string') throw new TypeError('split: text must be a string');
    const digits = digitsOf(splitter);
    return this.#call(text, (ptr, n, width) => this.#x.fk_split(ptr, n, width, digits), (answer) => slices(text, this.#ends(answer)));
  }

  /** The text of a stream (spec 7 and 8); the options and errors of functok's decode. */
  decode(stream, { errors = 'strict', maxOutput = DEFAULT_MAX_OUTPUT } = {}) {
    checkDecodeOptions(stream, errors, maxOutput);
    return this.#call(stream, (ptr, n, width) => this.#x.fk_decode(ptr, n, width, errors === 'strict' ? 1 : 0, BigInt(maxOutput)),
      (answer) => (answer.same ? stream : this.#units(answer)));
  }

  // Write the text into wasm memory, run `work` on it, read its answer with `read`, and free
  // both, whatever happens.
  #call(text, work, read) {
    let rc = this.#with(text, UTF8, work);
    if (rc === REPLACEMENT) rc = this.#with(text, UTF16, work); // U+FFFD: perhaps a lone surrogate
    try {
      if (rc === SURROGATE) {
        checkText(text); // throws js/src's FormatError('lone-surrogate', offset)
        throw new Error('functok wasm core: a lone surrogate that js/src does not see');
      }
      if (rc === DECODE_ERROR) {
        const { errorKind, errorOffset, errorMessage } = this.#answer();
        throw new FormatError(this.#string(errorKind), errorOffset, this.#string(errorMessage));
      }
      if (rc === NO_MEMORY) throw new RangeError(`functok wasm core: out of memory for a text of ${text.length} UTF-16 units`);
      if (rc !== 0) throw new Error(`functok wasm core: unexpected return code ${rc}`);
      return read(this.#answer());
    } finally {
      this.#x.fk_answer_free();
    }
  }

  // work(pointer, code units, width) over the text written in `width` (UTF8 or UTF16); its return code.
  #with(text, width, work) {
    const x = this.#x, n = text.length;
    const size = width === UTF8 ? 3 * n : 2 * n; // UTF-8: at most 3 bytes per UTF-16 unit
    const ptr = x.malloc(size || 1);
    if (ptr === 0) return NO_MEMORY;
    try {
      if (width === UTF8) return work(ptr, UTF8_WRITER.encodeInto(text, new Uint8Array(x.memory.buffer, ptr, size)).written, UTF8);
      const units = new Uint16Array(x.memory.buffer, ptr, n);
      for (let i = 0; i < n; i++) units[i] = text.charCodeAt(i);
      return work(ptr, n, UTF16);
    } finally {
      x.free(ptr);
    }
  }

  // exports.c's answer_t, read afresh after each call (memory may have grown, detaching views).
  #answer() {
    const [units, len, ends, nEnds, same, errorKind, errorOffset, errorMessage] =
      new Uint32Array(this.#x.memory.buffer, this.#x.fk_answer(), 8);
    return { units, len, ends, nEnds, same: same !== 0, errorKind, errorOffset, errorMessage };
  }

  // A NUL-terminated C string (ASCII: error kinds and messages) at `ptr`.
  #string(ptr) {
    const bytes = new Uint8Array(this.#x.memory.buffer, ptr);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
  }

  #units({ units, len }) {
    return len === 0 ? '' : UTF16_READER.decode(new Uint16Array(this.#x.memory.buffer, units, len));
  }

  #ends({ ends, nEnds }) {
    return nEnds === 0 ? [] : new Uint32Array(this.#x.memory.buffer, ends, nEnds);
  }
}

/** The pieces of s that end at each of `ends`, in order. */
function slices(s, ends) {
  const out = new Array(ends.length);
  for (let k = 0, start = 0; k < ends.length; k++) { out[k] = s.slice(start, ends[k]); start = ends[k]; }
  return out;
}
