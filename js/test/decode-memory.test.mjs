// Memory of decode on hostile streams: the 12 hostile streams of
// tests/codec/test_decoding_memory.py, with its bound, 4x (input + output), on both engines: the
// reference (src/decoding.mjs) and the wasm engine (src/engine.mjs's decode, the C core).
//
// What is measured: the peak of V8's used heap (with the external memory of typed arrays) during one decode call, above the heap just
// before it (the stream is built and flattened first, so it is not counted), in a child node
// with --expose-gc and 1 MB semi-spaces (so at most about a megabyte of young garbage counts).
// The heap only grows between two garbage collections, so its peak is the largest of the
// used heap before each collection during the call (v8.GCProfiler) and the used heap after it.
// Sizes are in bytes as V8 stores a string: one per UTF-16 unit if none is above U+00FF, else
// two. Streams are about a million code units (the long groups too), so that a per-code-point
// cost stands out above a fixed one, and each shape is decoded once small before it is measured,
// so that compiled code is not counted.
//
// On the wasm engine the peak also counts the growth of wasm memory during the call
// (memory.buffer.byteLength, which V8's heap figures do not see and which never shrinks), added
// to V8's peak as if both peaks were at once. The engine decodes a long stream in windows
// (src/engine/wasm.mjs), so wasm memory holds one window's work, not the whole stream's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { decode as referenceDecode } from '../src/decoding.mjs';
import { FormatError } from '../src/errors.mjs';
import * as functok from '../src/index.mjs';
import { HOSTILE, STOPS } from './hostile.mjs';

const N = 1 << 20;
const ENGINES = ['reference', 'wasm'];
const noWasm = functok.engineInfo().wasmUnavailable;
/** The wasm memory's size in bytes (0 when the core is not loaded). */
const wasmMemory = () => functok.engineInfo().wasmMemoryBytes ?? 0;

/** Bytes of the string's UTF-16 units as V8 stores them (1 or 2 each). */
function storedSize(text) {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return 2 * text.length;
  return text.length;
}

const value = (f, n) => (typeof f === 'function' ? f(n) : f);

/**
 * (peak bytes of used heap, and of wasm memory, above the start during decode, its output; ''
 * where it threw a FormatError).
 */
function heapPeak(decode, stream, options) {
  globalThis.gc();
  const used = ({ used_heap_size: heap, external_memory: external }) => heap + external;
  const start = used(v8.getHeapStatistics()), wasmStart = wasmMemory();
  const profiler = new v8.GCProfiler();
  profiler.start();
  let out;
  try { out = decode(stream, options); } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    out = '';
  }
  let peak = used(v8.getHeapStatistics());
  for (const { beforeGC } of profiler.stop().statistics) {
    peak = Math.max(peak, beforeGC.heapStatistics.usedHeapSize + beforeGC.heapStatistics.externalMemory);
  }
  return [peak - start + wasmMemory() - wasmStart, out];
}

/** The child: each hostile stream's peak on `engine`, input and output sizes, one JSON line each. */
function child(engine, names) {
  let decode = referenceDecode;
  if (engine === 'wasm') {
    functok.setEngine('wasm');
    decode = functok.decode;
  }
  for (const [name, makeStream, options, expected] of [...HOSTILE, STOPS]) {
    if (!names.includes(name)) continue;
    const stream = makeStream(N).split('').join(''); // a flat copy: no rope to flatten during decode
    try {
      heapPeak(decode, makeStream(1024), value(options, 1024)); // compile first
      const [peak, out] = heapPeak(decode, stream, value(options, N));
      const ok = out === (expected === null ? '' : expected(N));
      console.log(JSON.stringify({ name, peak, input: storedSize(stream), output: storedSize(out), ok }));
    } catch (e) {
      console.log(JSON.stringify({ name, error: String(e) }));
    }
  }
}

/** Runs the child on `engine` and `names` and answers its results by name. */
function measure(engine, names) {
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-semi-space-size=1', fileURLToPath(import.meta.url), '--child', engine, ...names],
    { encoding: 'utf8', maxBuffer: 1 << 24, env: { ...process.env, FUNCTOK_PURE: '' } });
  assert.equal(r.status, 0, r.stderr);
  return Object.fromEntries(r.stdout.trim().split('\n').map((line) => JSON.parse(line)).map((m) => [m.name, m]));
}

if (process.argv[2] === '--child') child(process.argv[3], process.argv.slice(4));
else for (const engine of ENGINES) {
  const skip = engine === 'wasm' && noWasm !== null && `the wasm engine did not load: ${noWasm}`;
  test(`peak memory of decode on the ${engine} engine is within 4x (input + output) on 12 hostile streams`, { skip }, async (t) => {
    const results = measure(engine, HOSTILE.map(([name]) => name));
    for (const [name] of HOSTILE) {
      await t.test(name, () => {
        const { peak, input, output, ok, error } = results[name];
        assert.equal(error, undefined);
        assert.ok(ok, 'the output is not the expected one');
        const budget = 4 * (input + output);
        console.log(`${engine}, ${name}: peak ${(peak / (input + output)).toFixed(1)} x (input + output)`);
        assert.ok(peak <= budget, `peak ${peak.toLocaleString()} bytes > 4 x (input + output) = ${budget.toLocaleString()}`);
      });
    }
  });

  test(`strict decoding on the ${engine} engine stops after the first unit with an error`, { skip }, () => {
    const decode = engine === 'wasm' ? functok.decode : referenceDecode;
    if (engine === 'wasm') functok.setEngine('wasm');
    assert.throws(() => decode(STOPS[1](N)), (e) => e.kind === 'stray-argument' && e.offset === 0);
    const { peak, input, ok, error } = measure(engine, [STOPS[0]])[STOPS[0]];
    assert.equal(error, undefined);
    assert.ok(ok);
    // Decoding the whole stream would allocate at least its output, 0.4x the input's bytes (two
    // code points of every five, stored two bytes each); stopping at the first unit allocates
    // next to nothing, but V8's heap figures move by up to 0.12x the input here on a loaded
    // machine (250,368 bytes, seen in CI). A quarter of the input lies between the two.
    assert.ok(peak <= input / 4, `peak ${peak.toLocaleString()} bytes: the whole stream was decoded`);
  });
}
