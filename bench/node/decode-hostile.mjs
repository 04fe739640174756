#!/usr/bin/env node
// Decode time on hostile streams against CPython functok, in one run, on the same streams:
//
//   node bench/node/decode-hostile.mjs [--python PATH] [--runs N]
//
// The streams: a million stray arguments, a long text after one escape, and the 12 of
// js/test/hostile.mjs (those of tests/codec/test_decoding_memory.py). Each side decodes each stream RUNS
// times (CPython with functok's caches cleared each time); figures are the best run in ms, and
// the ratio is JS / CPython (below 1: JavaScript is faster). Both sides' outputs (or error kind and offset) must agree.
// PATH is a Python with functok importable (default: $FUNCTOK_PYTHON, else .venv/bin/python).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, FormatError } from '../../js/src/index.mjs';
import { HOSTILE } from '../../js/test/hostile.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const N = 1 << 20;
const arg = (name, fallback) => { const at = process.argv.indexOf(name); return at > 0 ? process.argv[at + 1] : fallback; };
const RUNS = Number(arg('--runs', 3));
const PYTHON = arg('--python', process.env.FUNCTOK_PYTHON ?? join(REPO, '.venv/bin/python'));

const CASES = [
  ['stray-arguments', '\ue000'.repeat(1e6) + 'a', { errors: 'replace' }],
  ['escape-then-text', '\uefff\ue000' + 'lorem ipsum '.repeat(7e5), {}],
  ...HOSTILE.map(([name, stream, options]) => [name, stream(N), typeof options === 'function' ? options(N) : options]),
];

const SCRIPT = String.raw`
import json, sys, time, functok
from functok.decoding_cache import clear_caches  # the pure decoder's cache of decoded groups
runs = int(sys.argv[2])
out = []
for stream, options in json.load(open(sys.argv[1], encoding="utf-8")):
    options = {{"maxOutput": "max_output"}.get(k, k): v for k, v in options.items()}
    best = float("inf")
    for _ in range(runs):
        clear_caches()
        start = time.perf_counter()
        try:
            result = ["text", len(functok.decode(stream, **options))]
        except functok.FormatError as e:
            result = ["error", e.kind, e.offset]
        best = min(best, time.perf_counter() - start)
    out.append({"ms": best * 1000, "result": result})
sys.stdout.write(json.dumps(out))  # dumps: dump streams through the pure-Python encoder
`;

function jsDecode(stream, options) {
  let best = Infinity, result;
  for (let k = 0; k < RUNS; k++) {
    const start = performance.now();
    try { result = ['text', decode(stream, options).length]; } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      result = ['error', e.kind, e.offset];
    }
    best = Math.min(best, performance.now() - start);
  }
  // Python counts code points, JavaScript UTF-16 units: every output here is in the BMP
  return { ms: best, result };
}

if (!existsSync(PYTHON)) throw new Error(`no Python at ${PYTHON}: pass --python or set FUNCTOK_PYTHON`);
const file = join(mkdtempSync(join(tmpdir(), 'functok-hostile-')), 'streams.json');
writeFileSync(file, JSON.stringify(CASES.map(([, stream, options]) => [stream, options])));
const py = spawnSync(PYTHON, ['-c', SCRIPT, file, String(RUNS)],
  { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, PYTHONPATH: join(REPO, 'python') } });
if (py.status !== 0) throw new Error(py.stderr);
const reference = JSON.parse(py.stdout);

console.log(`decode of hostile streams, best of ${RUNS}: JavaScript (node ${process.version}) and CPython functok, ms`);
CASES.forEach(([name, stream, options], k) => {
  const js = jsDecode(stream, options);
  const want = reference[k];
  if (JSON.stringify(js.result) !== JSON.stringify(want.result)) throw new Error(`${name}: JS ${js.result}, Python ${want.result}`);
  console.log(`${name.padEnd(26)} ${String(stream.length).padStart(8)} units  JS ${js.ms.toFixed(1).padStart(7)}  CPython ${want.ms.toFixed(1).padStart(7)}  ratio ${(js.ms / want.ms).toFixed(2)}x`);
});
