// Memory of the wasm engine (src/engine.mjs), which V8's heap figures do not see and which
// never shrinks: a wasm module's memory grows to the most its calls ever held at once, and
// keeps that size. So two bounds, each measured as memory.buffer.byteLength:
//
// 1. decode-memory.test.mjs's 12 hostile streams (hostile.mjs) on the wasm engine: each stream
//    is decoded in a fresh child process (a fresh module), once small first, and the growth of
//    its memory during the big call is its peak. The bound is linear, BOUND x (input + output)
//    in bytes as V8 stores the strings, but not the reference's 4x: the core works on code
//    points (4 bytes each; the stream is read in place as UTF-16 when it has no surrogate pair,
//    exports.c), and wasm memory keeps its high-water mark, including the smaller copies a
//    doubling buffer leaves behind it (dlmalloc cannot hand them back). Measured on 2026-12-07,
//    the worst stream was long-group-of-marks at 10.3x (the decoder's mark lists and NFC of a
//    500,000-mark piece), the others 6x or less (issue 28's report).
// 2. A long-lived page: one Tokenizer and the codec encode and decode new random texts, round
//    after round (every round new pre-tokens, so the caches fill and turn over); the memory
//    plateaus: the last half of the rounds does not grow it. This holds by construction: every
//    call frees its buffers, the engine gives back any buffer a large call grew (KEEP_LIMIT), and
//    each cache is bounded (CACHE_LIMIT entries, a bounded arena; native/src/vocab.c).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as functok from '../src/index.mjs';
import { HOSTILE } from './hostile.mjs';
import { prng, randomText } from './gen.mjs';

const N = 1 << 20;
const BOUND = 12; // the reference's bound is 4 (decode-memory.test.mjs); see above
const skip = functok.engine() !== 'wasm' && `the wasm engine is not running: ${functok.engineInfo().wasmUnavailable}`;
const memory = () => functok.engineInfo().wasmMemoryBytes;
const value = (f, n) => (typeof f === 'function' ? f(n) : f);

function storedSize(text) {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return 2 * text.length;
  return text.length;
}

/** The child: one hostile stream's growth of wasm memory, input and output sizes, as JSON. */
function child(name) {
  const [, makeStream, options, expected] = HOSTILE.find(([n]) => n === name);
  const run = (n) => {
    try { return functok.decode(makeStream(n), value(options, n)); } catch (e) {
      if (!(e instanceof functok.FormatError)) throw e;
      return '';
    }
  };
  run(1024); // compiled, and the module's first allocations made
  const stream = makeStream(N);
  const before = memory();
  const out = run(N);
  console.log(JSON.stringify({ growth: memory() - before, input: storedSize(stream), output: storedSize(out),
    ok: out === (expected === null ? '' : expected(N)) }));
}

if (process.argv[2] === '--child') child(process.argv[3]);
else {
  test(`wasm memory of decode is within ${BOUND}x (input + output) on 12 hostile streams`, { skip }, async (t) => {
    for (const [name] of HOSTILE) {
      await t.test(name, () => {
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', name], { encoding: 'utf8', env: { ...process.env, FUNCTOK_PURE: '' } });
        assert.equal(r.status, 0, r.stderr);
        const { growth, input, output, ok } = JSON.parse(r.stdout);
        assert.ok(ok, 'the output is not the expected one');
        const budget = BOUND * (input + output);
        console.log(`${name}: wasm memory grew ${(growth / (input + output)).toFixed(1)} x (input + output)`);
        assert.ok(growth <= budget, `wasm memory grew ${growth.toLocaleString()} bytes > ${BOUND} x (input + output) = ${budget.toLocaleString()}`);
      });
    }
  });

  test('a long-lived page: wasm memory plateaus while encoding and decoding new texts', { skip }, () => {
    const small = JSON.parse(readFileSync(fileURLToPath(new URL('../../tests/fixtures/tokenizer-small.json', import.meta.url)), 'utf8'));
    const tok = new functok.Tokenizer(small.tokenizer, { profile: 'compact', fuse: 'frequent' });
    const r = prng(28);
    const rounds = 24, sizes = [];
    for (let round = 0; round < rounds; round++) {
      const texts = Array.from({ length: 200 }, () => randomText(r, 200));
      for (const mode of [{}, { segmentation: 'optimal' }]) {
        const batch = tok.encodeBatch(texts, mode);
        for (let k = 0; k < batch.length; k += 10) assert.equal(tok.decode(batch[k].ids), functok.nfc(texts[k]));
      }
      const stream = functok.encode(texts.join(' '));
      assert.equal(functok.decode(stream), functok.nfc(texts.join(' ')));
      sizes.push(memory());
    }
    const half = sizes[rounds / 2 - 1], last = sizes[rounds - 1];
    console.log(`wasm memory after each round (MB): ${sizes.map((s) => (s / 2 ** 20).toFixed(1)).join(' ')}`);
    assert.equal(last, half, `wasm memory grew in the second half: ${half.toLocaleString()} -> ${last.toLocaleString()} bytes`);
  });
}
