#!/usr/bin/env node
// Encode and decode throughput of the C core built to WebAssembly (native/wasm/core.mjs) against functok for
// JavaScript (js/src), in one run, on the same text:
//
//   node bench/node/wasm-core.mjs [--python PATH] [--repeat N]
//
// The corpora (the standard library's source, 20 MB, and the UDHR when present) are written
// once by bench/python/cpython_codec.py (PATH: a Python that can run it; default $FUNCTOK_PYTHON,
// else .venv/bin/python), as for bench/node/vs-python.mjs. Each repeat, interleaved per corpus,
// runs each side in a fresh Node process: one pass (empty caches, cold JIT; the wasm module is
// instantiated before the clock starts, and the load time is printed apart), then a second pass
// (js/src's caches cleared; the wasm core has none). Figures are MB/s of UTF-8 input, best of
// N (decode: MB/s of the decoded text); ratios are wasm / js. Both sides' streams and decoded
// texts must have the same SHA-256.
// Build the module first: node native/wasm/build.mjs.
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const sha = (s) => createHash('sha256').update(s, 'utf8').digest('hex');

async function load(side) {
  const t = performance.now();
  if (side === 'js') {
    const { encode, clearCaches } = await import('../../js/src/encoding.mjs');
    const { decode } = await import('../../js/src/decoding.mjs');
    return { encode, decode, clearCaches, loadMs: performance.now() - t };
  }
  const { loadCore } = await import('../../native/wasm/core.mjs');
  const core = await loadCore();
  return { encode: (text) => core.encode(text), decode: (stream) => core.decode(stream), clearCaches: () => {},
    loadMs: performance.now() - t };
}

async function child(side, files) {
  const { encode, decode, clearCaches, loadMs } = await load(side);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const mb = Buffer.byteLength(text) / 1e6;
    const pass = () => {
      let t = performance.now();
      const stream = encode(text);
      const te = (performance.now() - t) / 1000;
      t = performance.now();
      const back = decode(stream);
      return { stream, back, encode: mb / te, decode: mb / ((performance.now() - t) / 1000) };
    };
    const first = pass();
    clearCaches();
    const second = pass();
    console.log(JSON.stringify({ file, mb, loadMs, encode: first.encode, encode2: second.encode, decode: first.decode,
      decode2: second.decode, stream_sha256: sha(first.stream), decoded_sha256: sha(first.back),
      same: first.stream === second.stream && first.back === second.back }));
  }
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1], argv.slice(2));
  const opt = (name, dflt) => { const k = argv.indexOf(name); return k >= 0 ? argv[k + 1] : dflt; };
  const python = opt('--python', process.env.FUNCTOK_PYTHON || join(REPO, '.venv/bin/python'));
  const repeat = Number(opt('--repeat', 3));
  if (!existsSync(python)) throw new Error(`no Python at ${python}; pass --python or set FUNCTOK_PYTHON`);
  const dir = mkdtempSync(join(tmpdir(), 'functok-wasm-bench-'));
  const corpora = run(python, [join(REPO, 'bench/python/cpython_codec.py'), 'corpora', dir]);
  console.log(`# node ${process.version}; repeat ${repeat}; corpora in ${dir}`);
  const runs = {};
  for (let r = 0; r < repeat; r++) {
    for (const { name, path } of corpora) {
      const [js] = run(process.execPath, [fileURLToPath(import.meta.url), '--child', 'js', path]);
      const [wasm] = run(process.execPath, [fileURLToPath(import.meta.url), '--child', 'wasm', path]);
      if (js.stream_sha256 !== wasm.stream_sha256 || js.decoded_sha256 !== wasm.decoded_sha256 || !js.same || !wasm.same) {
        throw new Error(`${name}: the wasm core and js/src differ (stream ${wasm.stream_sha256} vs ${js.stream_sha256})`);
      }
      (runs[name] ??= []).push({ js, wasm });
    }
  }
  const f = (x) => x.toFixed(2).padStart(7);
  console.log(`${'corpus'.padEnd(8)}${'op'.padEnd(7)}${'MB'.padStart(6)} | first pass MB/s:${'js'.padStart(7)}${'wasm'.padStart(8)}${'ratio'.padStart(8)}`
    + ` | second pass:${'js'.padStart(7)}${'wasm'.padStart(8)}${'ratio'.padStart(8)} | per-run ratios (first pass)`);
  for (const [name, rs] of Object.entries(runs)) {
    for (const op of ['encode', 'decode']) {
      const best = (g) => Math.max(...rs.map(g));
      const js = best((x) => x.js[op]), wasm = best((x) => x.wasm[op]);
      const js2 = best((x) => x.js[`${op}2`]), wasm2 = best((x) => x.wasm[`${op}2`]);
      const per = rs.map((x) => (x.wasm[op] / x.js[op]).toFixed(2)).join(' ');
      console.log(`${name.padEnd(8)}${op.padEnd(7)}${rs[0].js.mb.toFixed(1).padStart(6)} | ${''.padStart(15)}${f(js)} ${f(wasm)} ${f(wasm / js)}x`
        + ` | ${''.padStart(11)}${f(js2)} ${f(wasm2)} ${f(wasm2 / js2)}x | ${per}`);
    }
  }
  const median = (side) => rs0(runs).map((x) => x[side].loadMs).sort((a, b) => a - b)[rs0(runs).length >> 1];
  console.log(`# load (import + instantiate, median): js/src ${median('js').toFixed(1)} ms, wasm core ${median('wasm').toFixed(1)} ms;`
    + ` streams and decoded texts identical (SHA-256)`);
}

const rs0 = (runs) => Object.values(runs).flat();

await main();
