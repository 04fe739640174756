// The C core in WebAssembly (native/wasm/), offered to the Python package inside Pyodide:
// wasm/functok.mjs registers `makeCoreBridge(...)`'s object as the JavaScript module
// `functok_core_wasm`, and python/functok/engine_wasm.py calls it. The Python side has checked
// every option already (functok.engine.core_arguments): these functions take the core's own
// integers, as the CPython binding's functions do (functok._native.encode(text, max_digits, cfg,
// normalize)...), and make one crossing each.
//
// Text crosses as UTF-16 bytes, not as strings. Pyodide converts a Python str that is not
// Latin-1 (a stream: its instructions are private-use code points) to a JavaScript string and
// back at about 15-60 ms per 330,000 code points, more than the core takes to encode it; the
// bytes of str.encode("utf-16-le") cross as one copy (a Uint8Array) and are the core's own
// UTF-16 input, and the core's UTF-16 answer goes back as bytes for bytes.decode. Lone
// surrogates cross too (Python encodes them with "surrogatepass"), and the core finds them.
//
// Errors are not raised here. A call the core refuses (a lone surrogate, a strict decode that
// fails, an id the token table does not know) returns undefined (None in Python), and the
// Python side runs its pure reference, which raises the error with its class, kind and offset:
// one implementation of every error, as on CPython's fast roads. Running out of wasm memory
// throws a RangeError.
//
// wasm/build.mjs bundles this file with js/src/engine/wasm.mjs (the glue functok for
// JavaScript runs on) into dist/functok_core.mjs.
import { instantiate, WasmVocabulary, WasmTable, ALPHABET, CUT, RULE, OK, NO_MEMORY } from '../js/src/engine/wasm.mjs';

const UTF16 = 2; // glue.h's input encodings: the units as they are in memory
const noMemory = (what) => new RangeError(`functok wasm core: out of memory for ${what}`);
/** UTF-16 units of stream decoded in one call into the core (about 10 bytes of wasm memory each). */
export const LONGEST_DIRECT_DECODE = 1 << 20;
const STRICT_UTF16 = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }); // throws on a lone surrogate

/** The UTF-16 units of a string, as bytes. */
function unitBytes(s) {
  const units = new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) units[i] = s.charCodeAt(i);
  return new Uint8Array(units.buffer);
}

/** The string of UTF-16 units, lone surrogates kept (TextDecoder would replace them). */
function unitString(units) {
  let s = '';
  for (let i = 0; i < units.length; i += 8192) s += String.fromCharCode.apply(null, units.subarray(i, i + 8192));
  return s;
}

const isLow = (u) => u >= 0xdc00 && u <= 0xdfff;
const isHigh = (u) => u >= 0xd800 && u <= 0xdbff;

/** UTF-16 offsets `ends` (increasing, at code point boundaries) in `units` as code point offsets. */
function codePointEnds(units, ends) {
  const out = new Uint32Array(ends.length);
  let pairs = 0;
  for (let k = 0, i = 0; k < ends.length; k++) {
    for (; i < ends[k]; i++) if (isLow(units[i]) && i > 0 && isHigh(units[i - 1])) pairs++;
    out[k] = ends[k] - pairs;
  }
  return out;
}

/** Code point offsets `ends` (increasing) into `units` as UTF-16 offsets. */
function unitEnds(units, ends) {
  const out = new Uint32Array(ends.length);
  for (let k = 0, i = 0, cp = 0; k < ends.length; k++) {
    for (; cp < ends[k] && i < units.length; cp++) i += isHigh(units[i]) && i + 1 < units.length && isLow(units[i + 1]) ? 2 : 1;
    out[k] = i;
  }
  return out;
}

/** The bridge's functions over one instance of the core built from `wasmBytes`. */
export async function makeCoreBridge(wasmBytes) {
  const wasm = await instantiate(wasmBytes);
  const x = wasm.x;

  // Run work(pointer, units) on the UTF-16 bytes in wasm memory; free them; return its code.
  function withUnits(bytes, work) {
    const ptr = wasm.alloc(bytes.length);
    try {
      wasm.u8(ptr, bytes.length).set(bytes);
      return work(ptr, bytes.length >>> 1);
    } finally {
      x.free(ptr);
    }
  }

  // Run a codec export on the bytes, then `read` its answer (undefined for a lone surrogate).
  function codec(bytes, work, read) {
    const rc = withUnits(bytes, work);
    try {
      if (rc === NO_MEMORY) throw noMemory(`a text of ${bytes.length >>> 1} UTF-16 units`);
      return rc === OK ? read(wasm.answer()) : undefined; // undefined: None, and the reference raises
    } finally {
      x.fk_answer_free();
    }
  }

  // The answer's units as bytes (a copy), or true where the answer is the input itself.
  const answerBytes = (answer) => (answer.same ? true : wasm.u8(answer.units, 2 * answer.len).slice());

  function decodeInWindows(bytes, strict, maxOutput) {
    let stream;
    try {
      stream = STRICT_UTF16.decode(bytes);
    } catch {
      return undefined; // a lone surrogate: the reference answers
    }
    try {
      return unitBytes(wasm.core.decode(stream, { errors: strict ? 'strict' : 'replace', maxOutput }));
    } catch (e) {
      if (e instanceof RangeError) throw e;
      return undefined; // a FormatError: the Python reference raises its own
    }
  }

  // A vocabulary's ids of the texts in `bytes` that end at code point offsets `ends` (null: one
  // text), each pre-tokenized by the codec or (given) one pre-token: [ids, where each text's ids end].
  function engineIds(vocabulary, bytes, ends, given) {
    const units = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 1);
    const endsPtr = ends === null || ends === undefined ? 0 : wasm.writeU32(unitEnds(units, ends));
    let rc;
    try {
      rc = withUnits(bytes, (ptr, n) => x.fk_engine_encode(vocabulary.ptr, ptr, n, UTF16, endsPtr, endsPtr ? ends.length : 0, 0, given ? 1 : 0));
    } finally {
      if (endsPtr) x.free(endsPtr);
    }
    if (rc === NO_MEMORY) throw noMemory(`a text of ${units.length} UTF-16 units`);
    if (rc !== OK) return undefined;
    const [ids, nIds, idEnds, nEnds] = wasm.u32(vocabulary.ptr, 4); // engine.c's answer, at the engine's start
    return [wasm.u32(ids, nIds).slice(), wasm.u32(idEnds, nEnds).slice()];
  }

  const bridge = {
    /** The stream of the text in `bytes` (UTF-16): its bytes, true (the text itself), or undefined. */
    encode(bytes, maxDigits, cfg, normalize) {
      return codec(bytes, (p, n) => x.fk_encode(p, n, UTF16, normalize ? 1 : 0, maxDigits, cfg), answerBytes);
    },

    /** The pre-tokens under a fuse mode (0 none, 1 all, 2 frequent): [their bytes, joined; code point ends], or undefined. */
    pretokens(bytes, maxDigits, cfg, normalize, fuse) {
      return codec(bytes, (p, n) => x.fk_pretokens(p, n, UTF16, normalize ? 1 : 0, maxDigits, cfg, fuse), (answer) => {
        const units = wasm.u16(answer.units, answer.len);
        const ends = answer.nEnds === 0 ? new Uint32Array(0) : codePointEnds(units, wasm.u32(answer.ends, answer.nEnds));
        return [new Uint8Array(units.buffer, units.byteOffset, 2 * answer.len).slice(), ends];
      });
    },

    /**
     * The text of a stream (UTF-16 bytes) as bytes, true (the stream itself: it has no groups),
     * or undefined where the reference must answer (any error). A stream of up to
     * LONGEST_DIRECT_DECODE units is decoded in one call; a longer one by js/src's Core.decode,
     * in windows, so that wasm memory (which keeps its high-water mark) holds one window.
     */
    decode(bytes, strict, maxOutput) {
      if (bytes.length > 2 * LONGEST_DIRECT_DECODE) return decodeInWindows(bytes, strict, maxOutput);
      const rc = withUnits(bytes, (p, n) => x.fk_decode(p, n, UTF16, strict ? 1 : 0, BigInt(maxOutput)));
      try {
        if (rc === NO_MEMORY) throw noMemory(`a stream of ${bytes.length >>> 1} UTF-16 units`);
        return rc === OK ? answerBytes(wasm.answer()) : undefined; // a decode error: the reference raises it
      } finally {
        x.fk_answer_free();
      }
    },

    /** A greedy encoder (functok._native.GreedyEncoder's ops) of a codec tokenizer's BPE. */
    greedyEncoder(chars, merges, byteIds, maxDigits, cfg, normalize, fuse) {
      const e = new WasmVocabulary(wasm, { alphabet: ALPHABET.characters, cut: CUT.codec, rule: RULE.hf, normalize, maxDigits, cfg, fuse });
      e.chars(chars);
      e.merges(merges);
      e.bytes(Array.from(byteIds, (id) => (id < 0 ? undefined : id)));
      engineIds(e, WARM_UP, null, false); // compiled before the first text (see warmUp)
      e.clearCaches();
      return {
        /** The ids of the texts joined in `bytes`, each ending at a code point offset of `ends` (null: one text). */
        encodeMany: (bytes, ends) => engineIds(e, bytes, ends, false),
        /** The greedy ids of each pre-token joined in `bytes` (no codec). */
        pretokenIds: (bytes, ends) => engineIds(e, bytes, ends, true),
        clearCaches: () => e.clearCaches(),
      };
    },

    /**
     * A tokenizer's id table (detokenize.c): every token's text, joined as UTF-16 bytes, ending at
     * the code point offsets `ends`, with `kinds` and `bytes` by id; decode(ids, strict,
     * skipSpecial, maxOutput) -> UTF-16 bytes or undefined.
     */
    tokenTable(textBytes, ends, kinds, bytes) {
      const units = new Uint16Array(textBytes.buffer, textBytes.byteOffset, textBytes.length >>> 1);
      const table = new WasmTable(wasm, unitString(units), unitEnds(units, ends), kinds, bytes);
      const compiled = {
        decode(ids, strict, skipSpecial, maxOutput) {
          const ptr = wasm.writeU32(ids);
          try {
            const rc = x.fk_table_decode(table.ptr, ptr, ids.length, strict ? 1 : 0, skipSpecial ? 1 : 0, BigInt(maxOutput));
            if (rc === NO_MEMORY) throw noMemory(`${ids.length} ids`);
            return rc === OK ? answerBytes({ ...wasm.answer(), same: false }) : undefined;
          } finally {
            x.free(ptr);
            x.fk_answer_free();
          }
        },
      };
      // compiled before the first ids (see warmUp): a few hundred ordinary tokens, three times
      const ordinary = [];
      for (let id = 0; id < kinds.length && ordinary.length < 256; id++) if (kinds[id] === 1) ordinary.push(id);
      for (let k = 0; k < 3; k++) compiled.decode(ordinary, false, false, 1 << 26);
      return compiled;
    },

    /** Bytes of wasm memory (it grows and never shrinks). */
    memoryBytes: () => wasm.memoryBytes,
  };
  warmUp(bridge);
  return bridge;
}

// V8 compiles a wasm function on its first call, and the glue's JavaScript is interpreted until
// it is hot: run the codec on a sample text at load, so that the first encode of a page's
// text pays neither. 90,000 code points, three times: a shorter one left the first encode of 1 MB
// at 57 ms of CPU rather than 49–53 (warm: 16–19); loading took 3.2 s of CPU either way.
const WARM_UP = unitBytes('Héllo WÖRLD 1234 ǅ 😀 naïve\n\tx = f(y) + 2;\n'.repeat(2000));

function warmUp(bridge) {
  for (let k = 0; k < 3; k++) {
    const stream = bridge.encode(WARM_UP, 3, 0, true);
    bridge.pretokens(WARM_UP, 3, 0, true, 2);
    bridge.decode(stream === true ? WARM_UP : stream, true, 1 << 26);
  }
}
