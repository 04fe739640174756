#!/usr/bin/env node
// Codec throughput against CPython functok, in one run, on the same text:
//
//   node bench/node/vs-python.mjs [--python PATH] [--repeat N]
//
// PATH is a Python with functok importable (default: $FUNCTOK_PYTHON, else .venv/bin/python).
// The corpora (the standard library's source, 20 MB, and the UDHR when present) are written once
// by bench/python/cpython_codec.py, so both sides read the same bytes. Each repeat, interleaved per
// corpus, runs in fresh processes:
//   * CPython: one encode and one decode pass with functok's caches cleared (bench/python/codec.py's cold);
//   * Node: one encode and one decode pass in a fresh process (empty caches, cold JIT), then a
//     second pass with the caches cleared again (JIT warm, caches empty).
// Figures are MB/s of UTF-8 input (decode: of the decoded text), best of N; ratios are JS/CPython.
// Wall-clock and CPU-time figures both: on a shared machine the CPU ones are the steadier
// (Node's CPU time includes its compiler and GC threads).
// Both sides' streams and decoded texts must have the same SHA-256.
// Then: gzipped size of js/src (the tokenizer included) and the time to import the package and encode a first string.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdtempSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const SRC = join(REPO, 'js', 'src');
const sha = (s) => createHash('sha256').update(s, 'utf8').digest('hex');

async function child(files) {
  const { encode, clearCaches } = await import(pathToFileURL(join(SRC, 'encoding.mjs')));
  const { decode } = await import(pathToFileURL(join(SRC, 'decoding.mjs')));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const mb = Buffer.byteLength(text) / 1e6;
    const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
    const pass = () => {
      let t = performance.now(), c = cpu();
      const stream = encode(text);
      const te = (performance.now() - t) / 1000, ce = cpu() - c;
      t = performance.now(); c = cpu();
      const back = decode(stream);
      const td = (performance.now() - t) / 1000, cd = cpu() - c;
      return { stream, back, encode: mb / te, decode: mb / td, encodeCpu: mb / ce, decodeCpu: mb / cd };
    };
    const first = pass();
    clearCaches();
    const second = pass();
    console.log(JSON.stringify({ file, mb, encode: first.encode, decode: first.decode,
      encode2: second.encode, decode2: second.decode,
      encode_cpu: first.encodeCpu, decode_cpu: first.decodeCpu,
      stream_sha256: sha(first.stream), decoded_sha256: sha(first.back),
      same: first.stream === second.stream && first.back === second.back }));
  }
}

// the Python side imports functok from this checkout's python/ (ahead of an installed one)
const ENV = { ...process.env, PYTHONPATH: [join(REPO, 'python'), process.env.PYTHONPATH].filter(Boolean).join(':') };

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, env: ENV });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

function importTimes(n, entry = 'index.mjs') {
  const code = `const c0 = process.cpuUsage();
const t0 = performance.now();
const m = await import(${JSON.stringify(pathToFileURL(join(SRC, entry)).href)});
const t1 = performance.now();
m.encode('Héllo World, naïve café 123');
const t2 = performance.now();
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ import: t1 - t0, first: t2 - t1, total: t2 - t0, sinceStart: t2, cpu: (c.user + c.system) / 1000 }));`;
  const out = [];
  for (let k = 0; k < n; k++) out.push(run(process.execPath, ['--input-type=module', '-e', code])[0]);
  const median = (key) => out.map((o) => o[key]).sort((a, b) => a - b)[out.length >> 1];
  return { import: median('import'), first: median('first'), total: median('total'), sinceStart: median('sinceStart'), cpu: median('cpu') };
}

function sizes() {
  const files = readdirSync(SRC, { recursive: true }).filter((f) => f.endsWith('.mjs')).sort();
  let raw = 0, each = 0;
  const all = [];
  for (const f of files) {
    const b = readFileSync(join(SRC, f));
    raw += b.length; each += gzipSync(b, { level: 9 }).length; all.push(b);
  }
  return { files: files.length, raw, gzipEach: each, gzipAll: gzipSync(Buffer.concat(all), { level: 9 }).length };
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv.slice(1));
  const opt = (name, dflt) => { const k = argv.indexOf(name); return k >= 0 ? argv[k + 1] : dflt; };
  const python = opt('--python', process.env.FUNCTOK_PYTHON || join(REPO, '.venv/bin/python'));
  const repeat = Number(opt('--repeat', 3));
  if (!existsSync(python)) throw new Error(`no Python at ${python}; pass --python or set FUNCTOK_PYTHON`);
  const helper = join(REPO, 'bench/python/cpython_codec.py');
  const dir = mkdtempSync(join(tmpdir(), 'functok-bench-'));
  const corpora = run(python, [helper, 'corpora', dir]);
  console.log(`# node ${process.version}, ${python}; repeat ${repeat}; corpora in ${dir}`);
  const best = {};
  for (let r = 0; r < repeat; r++) {
    for (const { name, path } of corpora) {
      const [py] = run(python, [helper, 'time', path]);
      const [js] = run(process.execPath, [fileURLToPath(import.meta.url), '--child', path]);
      if (py.stream_sha256 !== js.stream_sha256 || py.decoded_sha256 !== js.decoded_sha256 || !js.same) {
        throw new Error(`${name}: JS and CPython differ (stream ${js.stream_sha256} vs ${py.stream_sha256})`);
      }
      const b = best[name] ??= { mb: py.mb, runs: [] };
      b.runs.push({ py, js });
    }
  }
  const fmt = (x) => x.toFixed(2).padStart(7);
  console.log(`${'corpus'.padEnd(8)}${'MB'.padStart(6)} | ${'encode MB/s: py'.padStart(15)}${'js'.padStart(7)}${'js2'.padStart(7)}`
    + `${'ratio'.padStart(7)} | ${'decode MB/s: py'.padStart(15)}${'js'.padStart(7)}${'js2'.padStart(7)}${'ratio'.padStart(7)}`);
  for (const [name, b] of Object.entries(best)) {
    const max = (f) => Math.max(...b.runs.map(f));
    const pe = max((x) => x.py.encode), je = max((x) => x.js.encode), je2 = max((x) => x.js.encode2);
    const pd = max((x) => x.py.decode), jd = max((x) => x.js.decode), jd2 = max((x) => x.js.decode2);
    // per-run ratios (same repeat, back to back), the figure the goal is about
    const ratios = (f, g) => b.runs.map((x) => (f(x) / g(x)).toFixed(2)).join(' ');
    console.log(`${name.padEnd(8)}${b.mb.toFixed(1).padStart(6)} | ${fmt(pe).padStart(15)}${fmt(je)}${fmt(je2)}${(fmt(je / pe) + 'x')} | `
      + `${fmt(pd).padStart(15)}${fmt(jd)}${fmt(jd2)}${fmt(jd / pd)}x`);
    console.log(`${''.padEnd(8)}${''.padStart(6)}   per-run ratios (wall): encode ${ratios((x) => x.js.encode, (x) => x.py.encode)};`
      + ` decode ${ratios((x) => x.js.decode, (x) => x.py.decode)}`);
    const pc = max((x) => x.py.encode_cpu), jc = max((x) => x.js.encode_cpu);
    const pdc = max((x) => x.py.decode_cpu), jdc = max((x) => x.js.decode_cpu);
    console.log(`${''.padEnd(8)}${''.padStart(6)}   per CPU second: encode py ${pc.toFixed(2)} js ${jc.toFixed(2)} = ${(jc / pc).toFixed(2)}x;`
      + ` decode py ${pdc.toFixed(2)} js ${jdc.toFixed(2)} = ${(jdc / pdc).toFixed(2)}x (per run: encode`
      + ` ${ratios((x) => x.js.encode_cpu, (x) => x.py.encode_cpu)})`);
  }
  console.log('# js = first pass in a fresh Node process (cold JIT, empty caches); js2 = second pass, caches cleared;'
    + ' py = one pass, caches cleared; streams and decoded texts identical (SHA-256)');
  const s = sizes();
  console.log(`# size: js/src ${s.files} files, ${(s.raw / 1024).toFixed(1)} KiB raw, gzipped ${(s.gzipEach / 1024).toFixed(1)} KiB`
    + ` file by file (${(s.gzipAll / 1024).toFixed(1)} KiB as one file); goal <= 80 KB`);
  for (const [entry, name] of [['index.mjs', 'functok'], ['codec.mjs', 'functok/codec']]) {
    const t = importTimes(7, entry);
    console.log(`# ${name}: cold import ${t.import.toFixed(1)} ms + first encode ${t.first.toFixed(1)} ms = ${t.total.toFixed(1)} ms`
    + ` (median of 7 fresh processes; CPU ${t.cpu.toFixed(1)} ms, all threads; ${t.sinceStart.toFixed(1)} ms since process start); goal < 50 ms`);
  }
}

await main();
