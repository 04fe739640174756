// Memory of the wasm engine (src/engine.mjs), which V8's heap figures do not see and which
// never shrinks: a wasm module's memory grows to the most its calls ever held at once, and keeps
// that size (memory.buffer.byteLength). The 12 hostile decode streams are held to the
// reference's bound, 4x (input + output), on both engines in decode-memory.test.mjs (the engine
// decodes a long stream in windows, src/engine/wasm.mjs). Here, a long-lived page: one Tokenizer
// and the codec encode and decode new random texts, round after round (every round new
// pre-tokens, so the caches fill and turn over); the memory plateaus: the last half of the rounds
// does not grow it. This holds by construction: every call frees its buffers, the engine gives
// back any buffer a large call grew (KEEP_LIMIT), and each cache is bounded (CACHE_LIMIT entries,
// a bounded arena; native/core/vocab.c).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as functok from '../src/index.mjs';
import { prng, randomText } from './gen.mjs';

const skip = functok.engine() !== 'wasm' && `the wasm engine is not running: ${functok.engineInfo().wasmUnavailable}`;
const memory = () => functok.engineInfo().wasmMemoryBytes;

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
