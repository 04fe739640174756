// The WebAssembly build's allocator (native/wasm/alloc.c: malloc, realloc and free in place of
// zig's), driven through the module's exports by a random workload of small, medium and large
// blocks, against a model: every live block keeps its bytes (each filled with its own pattern,
// checked before it is freed or moved and after every realloc), no two live blocks overlap,
// every payload is 16-byte aligned, and memory freed is used again (the same workload a second
// time does not grow the module's memory).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { build, WASM_PATH } from '../build.mjs';
import { prng } from '../../../js/test/gen.mjs';

const STEPS = Number(process.env.FUNCTOK_ALLOC_STEPS || 6000);
let x;

before(async () => {
  if (!existsSync(WASM_PATH)) build({ quiet: true }); // wasm.test.mjs rebuilds a stale one
  const { instance } = await WebAssembly.instantiate(await readFile(WASM_PATH), {});
  x = instance.exports;
  x._initialize();
});

/** A random integer in [0, n) from prng `r` (floats in [0, 1)). */
const below = (r, n) => Math.floor(r() * n);

/** A size: mostly small, some of a few KiB, a few of up to 512 KiB (large enough to come from the top and grow there). */
function sizeOf(r) {
  const kind = below(r, 100);
  if (kind < 70) return below(r, 200);
  if (kind < 95) return below(r, 20000);
  return below(r, 1 << 19);
}

const byteOf = (id, k) => (id * 31 + k * 7) & 0xff;

function fill(ptr, n, id) {
  const bytes = new Uint8Array(x.memory.buffer, ptr, n);
  for (let k = 0; k < n; k++) bytes[k] = byteOf(id, k);
}

function check(ptr, n, id) {
  const bytes = new Uint8Array(x.memory.buffer, ptr, n);
  for (let k = 0; k < n; k++) if (bytes[k] !== byteOf(id, k)) return k;
  return -1;
}

/** Run the workload; returns the module's memory size after every block is freed. */
function workload(seed) {
  const r = prng(seed);
  const live = new Map(); // id -> { ptr, n }
  let nextId = 1;
  for (let step = 0; step < STEPS; step++) {
    const op = below(r, 10);
    const ids = [...live.keys()];
    if (op < 5 || ids.length === 0) { // malloc
      const n = sizeOf(r), ptr = x.malloc(n);
      assert.notEqual(ptr, 0, `malloc(${n}) failed`);
      const id = nextId++;
      fill(ptr, n, id);
      live.set(id, { ptr, n });
    } else {
      const id = ids[below(r, ids.length)], { ptr, n } = live.get(id);
      assert.equal(check(ptr, n, id), -1, `block ${id} (${n} bytes at ${ptr}) was overwritten`);
      if (op < 8) { // realloc: the kept bytes survive, the rest is filled again
        const m = below(r, 2) ? sizeOf(r) : n + below(r, 64), moved = x.realloc(ptr, m);
        assert.notEqual(moved, 0, `realloc(${m}) failed`);
        assert.equal(check(moved, Math.min(n, m), id), -1, `realloc lost block ${id}'s bytes`);
        fill(moved, m, id);
        live.set(id, { ptr: moved, n: m });
      } else {
        x.free(ptr);
        live.delete(id);
      }
    }
    if (step % 500 === 0) checkLayout(live);
  }
  checkLayout(live);
  for (const [id, { ptr, n }] of live) {
    assert.equal(check(ptr, n, id), -1, `block ${id} was overwritten`);
    x.free(ptr);
  }
  return x.memory.buffer.byteLength;
}

function checkLayout(live) {
  const blocks = [...live.values()].sort((a, b) => a.ptr - b.ptr);
  for (let k = 0; k < blocks.length; k++) {
    assert.equal(blocks[k].ptr % 16, 0, `payload at ${blocks[k].ptr} is not 16-byte aligned`);
    if (k > 0) assert.ok(blocks[k - 1].ptr + blocks[k - 1].n <= blocks[k].ptr, `blocks at ${blocks[k - 1].ptr} and ${blocks[k].ptr} overlap`);
  }
}

test('malloc, realloc and free keep every live block whole, apart and aligned', () => {
  workload(1);
});

test('memory freed is used again: the same workload twice does not grow the memory', () => {
  const first = workload(2);
  const second = workload(2);
  assert.equal(second, first, `memory grew from ${first} to ${second} bytes on the same workload`);
});

test('a request larger than memory can hold fails with 0, and the allocator still works', () => {
  assert.equal(x.malloc(0xfff00000), 0);
  const ptr = x.malloc(100);
  assert.notEqual(ptr, 0);
  assert.equal(x.realloc(ptr, 0xfff00000), 0); // the block is left as it was
  x.free(ptr);
});
