#!/usr/bin/env node
// The engines of functok for JavaScript against their baselines, in one run (the goals they were built to):
//
//   node bench/node/engine.mjs [--python PATH] [--mb N] [--vocab V] [--tokenizer FILE] [--repeat R]
//
// Each pass is one cold pass in a fresh process (a freshly loaded tokenizer, empty caches),
// timed once (best of R such passes, default 1, for a loaded machine), on the first N MB (default 1) of each corpus (the standard library's source and
// the UDHR, as cpython_codec.py writes them):
//   * a functok tokenizer (V tokens, default 32,000, compact profile, fuse "frequent", trained
//     here by CPython functok on other text of the same corpora, or --tokenizer FILE): functok
//     for JavaScript on the wasm engine and on the reference (FUNCTOK_PURE=1), and CPython
//     functok's C core, greedy and optimal;
//   * GPT-2 ranks: the `tiktoken` npm package (its WebAssembly build; FUNCTOK_TIKTOKEN_MODULE
//     names it when it is not resolvable from here), functok's loadTiktoken on both engines,
//     CPython functok's load_tiktoken.
// Ids are compared by SHA-256: each functok pass against CPython's, GPT-2 greedy against tiktoken.
// Then the first encode after import, in a fresh process: import, tokenizer load, first encode.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const INDEX = pathToFileURL(join(REPO, 'js/src/index.mjs')).href;
const sha = (ids) => createHash('sha256').update(JSON.stringify(Array.from(ids))).digest('hex');

// --- one pass, in a child process -----------------------------------------------------------
const IMPLS = {
  tiktoken: async () => {
    const tiktoken = await import(process.env.FUNCTOK_TIKTOKEN_MODULE || 'tiktoken'); // Node: its tiktoken.cjs
    const enc = (tiktoken.get_encoding ?? tiktoken.default.get_encoding)('gpt2');
    return (text) => enc.encode_ordinary(text);
  },
  'functok-gpt2': async (_, segmentation) => {
    const [{ loadTiktoken }, { default: ranks }] = await Promise.all([import(INDEX), import('js-tiktoken/ranks/gpt2')]);
    const v = loadTiktoken(ranks);
    return (text) => v.encode(text, { segmentation });
  },
  functok: async (tokenizer, segmentation) => {
    const { Tokenizer } = await import(INDEX);
    const t = Tokenizer.fromFile(tokenizer);
    return (text) => t.encode(text, { segmentation }).ids;
  },
};

async function child(impl, tokenizer, segmentation, file) {
  const text = readFileSync(file, 'utf8');
  const t0 = performance.now();
  const encode = await IMPLS[impl](tokenizer, segmentation);
  const t1 = performance.now();
  const ids = encode(text);
  const seconds = (performance.now() - t1) / 1000;
  const engine = impl === 'tiktoken' ? 'wasm' : (await import(INDEX)).engine();
  console.log(JSON.stringify({ seconds, mb_s: Buffer.byteLength(text) / 1e6 / seconds, tokens: ids.length, ids_sha256: sha(ids), load_ms: t1 - t0, engine }));
}

/** Import to the first ids, in this fresh process: { import_ms, load_ms, first_ms }. */
async function firstEncode(tokenizer) {
  const t0 = performance.now();
  const functok = await import(INDEX);
  const t1 = performance.now();
  const t = functok.Tokenizer.fromFile(tokenizer);
  const t2 = performance.now();
  t.encode('Hello world, the first encode after import.');
  const t3 = performance.now();
  console.log(JSON.stringify({ engine: functok.engine(), import_ms: t1 - t0, load_ms: t2 - t1, first_ms: t3 - t2 }));
}

// --- the parent -------------------------------------------------------------------------------
function run(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

const node = (args, pure = false) => run(process.execPath, [fileURLToPath(import.meta.url), ...args],
  pure ? { ...process.env, FUNCTOK_PURE: '1' } : { ...process.env, FUNCTOK_PURE: '' });
let repeat = 1;
/** The best (highest MB/s) of `repeat` runs of pass(), which returns rows. */
const best = (pass) => {
  let rows = pass();
  for (let r = 1; r < repeat; r++) rows = pass().map((row, k) => (row.mb_s > rows[k].mb_s ? row : rows[k]));
  return rows;
};

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1], argv[2], argv[3], argv[4]);
  if (argv[0] === '--first') return firstEncode(argv[1]);
  const opt = (name, dflt) => { const k = argv.indexOf(name); return k >= 0 ? argv[k + 1] : dflt; };
  const python = opt('--python', process.env.FUNCTOK_PYTHON || join(REPO, '.venv/bin/python'));
  const mb = Number(opt('--mb', 1)), vocab = opt('--vocab', '32000');
  repeat = Number(opt('--repeat', 1));
  if (!existsSync(python)) throw new Error(`no Python at ${python}; pass --python or set FUNCTOK_PYTHON`);
  const env = { ...process.env, PYTHONPATH: [join(REPO, 'python'), process.env.PYTHONPATH].filter(Boolean).join(':') };
  const dir = mkdtempSync(join(tmpdir(), 'functok-engine-bench-'));
  const texts = run(python, [join(REPO, 'bench/python/cpython_codec.py'), 'corpora', dir], env).map(({ name, path }) => ({ name, text: readFileSync(path, 'utf8') }));
  const corpora = texts.map(({ name, text }) => {
    const out = join(dir, `${name}-${mb}mb.txt`);
    writeFileSync(out, Buffer.from(text).subarray(0, mb * 1e6).toString('utf8').replace(/\ufffd$/, ''));
    return { name, path: out };
  });
  let tokenizer = opt('--tokenizer', null);
  if (tokenizer === null) { // trained on text the passes do not read: a later slice of each corpus
    const train = join(dir, 'train.txt');
    writeFileSync(train, texts.map(({ text }) => text.slice(3e6, 4e6)).join('\n'));
    tokenizer = join(dir, 'functok-tokenizer.json');
    run(python, [join(REPO, 'bench/python/cpython_tokenizer.py'), 'train', train, tokenizer, vocab, 'compact', 'frequent'], env);
  }
  const [{ default: ranks }, { readTiktokenRanks }] = await Promise.all([import('js-tiktoken/ranks/gpt2'), import(INDEX)]);
  const rankFile = join(dir, 'gpt2.tiktoken');
  writeFileSync(rankFile, `${[...readTiktokenRanks(ranks)].map(([t, r]) => `${btoa(t)} ${r}`).join('\n')}\n`);
  console.log(`# node ${process.version}; first ${mb} MB of each corpus; best of ${repeat} cold passes, each in a fresh process; tokenizer ${tokenizer}`);
  for (const { name, path } of corpora) {
    const rows = {};
    const cpython = best(() => run(python, [join(REPO, 'bench/python/cpython_tokenizer.py'), 'time', tokenizer, path], env));
    const cpythonGpt2 = best(() => run(python, [join(REPO, 'bench/python/cpython_tokenizer.py'), 'gpt2', rankFile, path], env));
    for (const segmentation of ['greedy', 'optimal']) {
      rows[`functok ${segmentation}, wasm`] = best(() => node(['--child', 'functok', tokenizer, segmentation, path]))[0];
      rows[`functok ${segmentation}, reference`] = best(() => node(['--child', 'functok', tokenizer, segmentation, path], true))[0];
      rows[`functok ${segmentation}, CPython C core`] = cpython.find((r) => r.mode === segmentation);
    }
    rows['tiktoken (npm, wasm), GPT-2'] = best(() => node(['--child', 'tiktoken', '-', '-', path]))[0];
    for (const segmentation of ['greedy', 'optimal']) {
      rows[`loadTiktoken GPT-2 ${segmentation}, wasm`] = best(() => node(['--child', 'functok-gpt2', '-', segmentation, path]))[0];
      rows[`loadTiktoken GPT-2 ${segmentation}, reference`] = best(() => node(['--child', 'functok-gpt2', '-', segmentation, path], true))[0];
      rows[`load_tiktoken GPT-2 ${segmentation}, CPython`] = cpythonGpt2.find((r) => r.mode === segmentation);
    }
    for (const s of ['greedy', 'optimal']) {
      for (const e of ['wasm', 'reference']) {
        if (rows[`functok ${s}, ${e}`].ids_sha256 !== rows[`functok ${s}, CPython C core`].ids_sha256) throw new Error(`${name}: functok ${s} on ${e}: other ids than CPython's`);
        if (rows[`loadTiktoken GPT-2 ${s}, ${e}`].ids_sha256 !== rows[`load_tiktoken GPT-2 ${s}, CPython`].ids_sha256) throw new Error(`${name}: GPT-2 ${s} on ${e}: other ids than CPython's`);
      }
    }
    if (rows['loadTiktoken GPT-2 greedy, wasm'].ids_sha256 !== rows['tiktoken (npm, wasm), GPT-2'].ids_sha256) throw new Error(`${name}: GPT-2 greedy: other ids than tiktoken's`);
    const base = rows['tiktoken (npm, wasm), GPT-2'].mb_s;
    console.log(`\n${name} (${(Buffer.byteLength(readFileSync(path, 'utf8')) / 1e6).toFixed(2)} MB)`);
    console.log(`${'pass'.padEnd(40)}${'MB/s'.padStart(8)}${'x tiktoken'.padStart(12)}${'tokens'.padStart(10)}${'load ms'.padStart(9)}`);
    for (const [what, row] of Object.entries(rows)) {
      console.log(`${what.padEnd(40)}${row.mb_s.toFixed(2).padStart(8)}${(row.mb_s / base).toFixed(2).padStart(12)}${String(row.tokens).padStart(10)}${row.load_ms.toFixed(0).padStart(9)}`);
    }
    const ratio = (a, b) => (rows[a].mb_s / rows[b].mb_s).toFixed(2);
    console.log(`# goals: functok ${vocab} greedy on wasm / tiktoken ${ratio('functok greedy, wasm', 'tiktoken (npm, wasm), GPT-2')}x (>= 2.0);`
      + ` loadTiktoken GPT-2 on wasm / tiktoken ${ratio('loadTiktoken GPT-2 greedy, wasm', 'tiktoken (npm, wasm), GPT-2')}x (>= 1.5);`
      + ` wasm / CPython C core, same tokenizer: greedy ${ratio('functok greedy, wasm', 'functok greedy, CPython C core')}x,`
      + ` optimal ${ratio('functok optimal, wasm', 'functok optimal, CPython C core')}x (>= 0.5);`
      + ` wasm / reference: greedy ${ratio('functok greedy, wasm', 'functok greedy, reference')}x`);
  }
  console.log('# ids identical: every functok pass = its CPython pass; GPT-2 greedy = tiktoken (SHA-256 of the ids)');
  for (const pure of [false, true]) {
    const [f] = best(() => node(['--first', tokenizer], pure).map((r) => ({ ...r, mb_s: -(r.import_ms + r.load_ms + r.first_ms) })));
    console.log(`# first encode after import (${f.engine}): import ${f.import_ms.toFixed(1)} ms, tokenizer load ${f.load_ms.toFixed(1)} ms,`
      + ` first encode ${f.first_ms.toFixed(1)} ms; import to first ids ${(f.import_ms + f.load_ms + f.first_ms).toFixed(1)} ms`);
  }
}

await main();
