#!/usr/bin/env node
// functok for JavaScript against its peers, on one machine, in one run (the goals in docs/benchmarks.md):
//
//   node bench/node/peers.mjs [--python PATH] [--mb N] [--vocab N] [--repeat R] [--browser] [--no-node]
//
// Corpora (bench/python/cpython_peers.py writes them, each in two disjoint halves: the text timed and
// the text its own tokenizer is trained on): the standard library's .py source, the UDHR
// translations ($FUNCTOK_UDHR, else bench/python/corpora.py's UDHR), and a multilingual sample of short
// paragraphs in 40 scripts made from the UDHR; at most N MB of each (default 2).
// Setup: CPython functok trains a VOCAB-token (default 32,000) compact/frequent tokenizer on each
// corpus's training half, cached in .cache/peers-bench/ (git-ignored) under the hash of its text.
//
// Each case is one cold pass in a fresh process: import, load, then one encode of the whole
// text, timed alone (load time reported apart), MB of UTF-8 input per CPU second of the encode
// (process.cpuUsage, every thread of the process: steadier than the wall clock on a shared
// machine, whose figure is printed beside it); best of R (default 1).
//   functok JS, own tokenizer ........ Tokenizer.fromFile(32k).encode, on the engine the package picks
//   functok JS, own tokenizer, reference  the same with FUNCTOK_PURE=1 (the JS reference engine)
//   functok JS, GPT-2 ranks .......... loadTiktoken(GPT-2), same ids as tiktoken
//   tiktoken (npm, WASM) ............. get_encoding('gpt2').encode_ordinary: the baseline of every ratio
//   js-tiktoken, gpt-tokenizer, tokenizers.js (GPT-2 as tokenizer.json)
//   CPython functok (C core) ......... the same 32k tokenizer and text
// The ids are checked: every GPT-2 row must give tiktoken's ids, every functok JS own row the
// C core's. Then the first encode after import (ms, Node: import + load + one short encode, median
// of 7 fresh processes), and with --browser the own-tokenizer and tiktoken rows in headless
// Chromium (CHROMIUM_PATH, default /usr/bin/chromium), each in a fresh page.
// The peers are root devDependencies, pinned in package-lock.json: `tiktoken` (OpenAI's Rust
// tokenizer built to WASM by dqbd/tiktoken, the package a web developer would pick: the baseline),
// js-tiktoken (its pure-JS port), gpt-tokenizer and @huggingface/tokenizers (tokenizers.js).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const CACHE = join(REPO, '.cache', 'peers-bench');
const FUNCTOK = pathToFileURL(join(REPO, 'js/src/index.mjs')).href;
const sha = (ids) => createHash('sha256').update(JSON.stringify(Array.from(ids))).digest('hex');
const SHORT = 'Hello, world! Héllo Wörld, ÉCOLE naïve.';

// Which engine a functok module runs on: the package's own answer where it gives one.
export const engineOf = (m) => m.ENGINE ?? (typeof m.engine === 'function' ? m.engine() : m.engine) ?? 'js';

// --- the cases, each run in a child process ---------------------------------------------------
// Each returns { encode, engine? } after its import and load.
const CASES = {
  'functok-js-own': { label: 'functok JS, own 32k', load: async (dir, corpus) => {
    const m = await import(FUNCTOK);
    const t = m.Tokenizer.fromFile(join(dir, `${corpus}.tokenizer.json`));
    return { encode: (text) => t.encode(text).ids, engine: engineOf(m) };
  } },
  'functok-js-own-reference': { label: 'functok JS, own 32k, FUNCTOK_PURE=1', env: { FUNCTOK_PURE: '1' }, load: (dir, corpus) => CASES['functok-js-own'].load(dir, corpus) },
  'functok-js-gpt2': { label: 'functok JS, GPT-2 (loadTiktoken)', load: async () => {
    const [m, { default: ranks }] = await Promise.all([import(FUNCTOK), import('js-tiktoken/ranks/gpt2')]);
    const v = m.loadTiktoken(ranks);
    return { encode: (text) => v.encode(text), engine: engineOf(m) };
  } },
  'functok-js-gpt2-reference': { label: 'functok JS, GPT-2, FUNCTOK_PURE=1', env: { FUNCTOK_PURE: '1' }, load: (dir) => CASES['functok-js-gpt2'].load(dir) },
  'tiktoken-npm': { label: 'tiktoken (npm, WASM), GPT-2', load: async () => {
    const { get_encoding } = await import('tiktoken');
    const e = get_encoding('gpt2');
    return { encode: (text) => e.encode_ordinary(text) };
  } },
  'js-tiktoken': { label: 'js-tiktoken, GPT-2', load: async () => {
    const [{ Tiktoken }, { default: ranks }] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/gpt2')]);
    const t = new Tiktoken(ranks);
    return { encode: (text) => t.encode(text) };
  } },
  'gpt-tokenizer': { label: 'gpt-tokenizer, GPT-2', load: async () => {
    const { encode } = await import('gpt-tokenizer/encoding/r50k_base');
    return { encode: (text) => encode(text, { disallowedSpecial: new Set() }) };
  } },
  'tokenizers.js': { label: 'tokenizers.js, GPT-2', load: async (dir) => {
    const { Tokenizer } = await import('@huggingface/tokenizers');
    const t = new Tokenizer(JSON.parse(readFileSync(join(dir, 'gpt2-tokenizer.json'), 'utf8')), {});
    return { encode: (text) => t.encode(text, { add_special_tokens: false }).ids };
  } },
};
const GPT2_ROWS = ['functok-js-gpt2', 'functok-js-gpt2-reference', 'js-tiktoken', 'gpt-tokenizer', 'tokenizers.js'];
const OWN_ROWS = ['functok-js-own', 'functok-js-own-reference'];

async function child(name, dir, corpus, file) {
  const text = readFileSync(file, 'utf8');
  const t0 = performance.now();
  const { encode, engine = '' } = await CASES[name].load(dir, corpus);
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  const ids = encode(text);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t1) / 1000, cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const mb = Buffer.byteLength(text) / 1e6;
  console.log(JSON.stringify({ impl: name, engine, seconds, cpu_seconds: cpuSeconds, mb_s: mb / cpuSeconds, wall_mb_s: mb / seconds,
    tokens: ids.length, ids_sha256: sha(ids), load_ms: t1 - t0 }));
}

// The first encode after import: the package's import, then the tokenizer's load, then the
// first ids of a short text, each timed (the first encode is where a lazy engine would pay).
const MODULE = { 'functok-js-own': FUNCTOK, 'functok-js-own-reference': FUNCTOK, 'functok-js-gpt2': FUNCTOK, 'tiktoken-npm': 'tiktoken' };

async function firstEncode(name, dir, corpus) {
  const t0 = performance.now();
  await import(MODULE[name]);
  const t1 = performance.now();
  const { encode, engine = '' } = await CASES[name].load(dir, corpus);
  const t2 = performance.now();
  encode(SHORT);
  const t3 = performance.now();
  console.log(JSON.stringify({ impl: name, engine, import_ms: t1 - t0, load_ms: t2 - t1, encode_ms: t3 - t2, total_ms: t3 - t0 }));
}

// --- the parent -------------------------------------------------------------------------------
function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

const self = (...args) => [fileURLToPath(import.meta.url), ...args];

/** The corpora and their tokenizers: written or found in the cache; returns [{ name, path, mb }]. */
function setup(python, mb, vocab) {
  mkdirSync(CACHE, { recursive: true });
  const corpora = run(python, [join(REPO, 'bench/python/cpython_peers.py'), 'corpora', CACHE, String(mb)]);
  for (const c of corpora) {
    const cached = join(CACHE, `${c.name}-${vocab}-${c.train_sha256.slice(0, 16)}.tokenizer.json`);
    if (!existsSync(cached)) {
      const t0 = Date.now();
      run(python, [join(REPO, 'bench/python/cpython_peers.py'), 'train', c.train, cached, String(vocab)]);
      console.log(`# trained ${c.name}'s ${vocab}-token tokenizer on ${c.train_mb.toFixed(1)} MB in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
    copyFileSync(cached, join(CACHE, `${c.name}.tokenizer.json`));
  }
  return corpora;
}

async function writeGpt2Json() {
  const [{ gpt2TokenizerJson }, { default: ranks }] = await Promise.all([import('./gpt2-json.mjs'), import('js-tiktoken/ranks/gpt2')]);
  writeFileSync(join(CACHE, 'gpt2-tokenizer.json'), JSON.stringify(gpt2TokenizerJson(ranks)));
}

function checkIds(name, rows) {
  const notes = [];
  for (const impl of GPT2_ROWS) {
    if (rows[impl] && rows[impl].ids_sha256 !== rows['tiktoken-npm'].ids_sha256) {
      if (impl.startsWith('functok')) throw new Error(`${name}: ${impl} gives other ids than tiktoken`);
      notes.push(`${impl} gives other ids than tiktoken`); // a peer's own difference, reported
    }
  }
  for (const impl of OWN_ROWS) {
    if (rows[impl] && rows[impl].ids_sha256 !== rows['cpython-functok'].ids_sha256) throw new Error(`${name}: ${impl} gives other ids than CPython functok`);
  }
  return notes;
}

const fmt = (x, d = 2) => x.toFixed(d);

function printCorpus(name, mb, rows) {
  const base = rows['tiktoken-npm'].mb_s;
  console.log(`\n${name} (${fmt(mb)} MB; MB/s per CPU second of the encode, the wall clock's beside it)`);
  console.log(`${'case'.padEnd(40)}${'engine'.padEnd(11)}${'MB/s'.padStart(8)}${'x tiktoken-npm'.padStart(16)}${'wall MB/s'.padStart(11)}${'x (wall)'.padStart(10)}${'tokens'.padStart(10)}${'load ms'.padStart(9)}`);
  for (const [impl, row] of Object.entries(rows)) {
    const label = CASES[impl]?.label ?? 'CPython functok, own 32k';
    console.log(`${label.padEnd(40)}${String(row.engine ?? '').padEnd(11)}${fmt(row.mb_s).padStart(8)}${fmt(row.mb_s / base).padStart(16)}${fmt(row.wall_mb_s).padStart(11)}${fmt(row.wall_mb_s / rows['tiktoken-npm'].wall_mb_s).padStart(10)}${String(row.tokens).padStart(10)}${fmt(row.load_ms, 0).padStart(9)}`);
  }
  const ratio = (a, b) => fmt(rows[a].mb_s / rows[b].mb_s);
  console.log(`# goal rows: own 32k / tiktoken-npm ${ratio('functok-js-own', 'tiktoken-npm')}x (>= 2.0);`
    + ` GPT-2 ranks / tiktoken-npm ${ratio('functok-js-gpt2', 'tiktoken-npm')}x (>= 1.5);`
    + ` functok JS (${rows['functok-js-own'].engine}) / C core in CPython ${ratio('functok-js-own', 'cpython-functok')}x (>= 0.5);`
    + ` reference engine / tiktoken-npm ${ratio('functok-js-own-reference', 'tiktoken-npm')}x`);
}

function nodeRuns(python, corpora, repeat) {
  const results = {};
  for (let r = 0; r < repeat; r++) {
    for (const { name, path } of corpora) {
      const rows = [];
      for (const [impl, { env }] of Object.entries(CASES)) rows.push(...run(process.execPath, self('--child', impl, CACHE, name, path), env));
      rows.push(...run(python, [join(REPO, 'bench/python/cpython_peers.py'), 'time', join(CACHE, `${name}.tokenizer.json`), path]));
      for (const row of rows) {
        const best = (results[name] ??= {})[row.impl];
        if (best === undefined || row.mb_s > best.mb_s) results[name][row.impl] = row;
      }
    }
  }
  for (const { name, mb } of corpora) {
    const notes = checkIds(name, results[name]);
    printCorpus(name, mb, results[name]);
    for (const n of notes) console.log(`# note: ${n}`);
  }
  console.log('# ids: every functok GPT-2 row = tiktoken-npm, every functok JS own row = CPython functok (SHA-256 of the ids)');
}

function firstEncodeRuns(corpus, times = 7) {
  console.log(`\nfirst encode after import, Node (ms: the import, the tokenizer's load, the first encode of ${JSON.stringify(SHORT)}; median of ${times} fresh processes; ${corpus}'s 32k tokenizer)`);
  console.log(`${'case'.padEnd(40)}${'engine'.padEnd(11)}${'import'.padStart(8)}${'load'.padStart(8)}${'encode'.padStart(8)}${'total'.padStart(8)}`);
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  for (const impl of ['functok-js-own', 'functok-js-own-reference', 'functok-js-gpt2', 'tiktoken-npm']) {
    const rows = Array.from({ length: times }, () => run(process.execPath, self('--first', impl, CACHE, corpus), CASES[impl].env)[0]);
    const m = (k) => fmt(median(rows.map((row) => row[k])), 1).padStart(8);
    console.log(`${CASES[impl].label.padEnd(40)}${String(rows[0].engine).padEnd(11)}${m('import_ms')}${m('load_ms')}${m('encode_ms')}${m('total_ms')}`);
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(...argv.slice(1));
  if (argv[0] === '--first') return firstEncode(...argv.slice(1));
  const opt = (name, dflt) => { const k = argv.indexOf(name); return k >= 0 ? argv[k + 1] : dflt; };
  const python = opt('--python', process.env.FUNCTOK_PYTHON || join(REPO, '.venv/bin/python'));
  const mb = Number(opt('--mb', 2)), vocab = Number(opt('--vocab', 32000)), repeat = Number(opt('--repeat', 1));
  if (!existsSync(python)) throw new Error(`no Python at ${python}; pass --python or set FUNCTOK_PYTHON`);
  const corpora = setup(python, mb, vocab);
  await writeGpt2Json();
  const [pyVersion] = run(python, ['-c', 'import json, platform, functok; print(json.dumps(platform.python_version() + " functok " + functok.__version__))']);
  console.log(`# node ${process.version}, CPython ${pyVersion}; ${cpus().length} CPUs, load average ${loadavg().map((x) => fmt(x)).join(' ')} at the start;`
    + ` at most ${mb} MB of each corpus; ${vocab}-token compact/frequent tokenizers; one cold pass per case in a fresh process, best of ${repeat}; files in ${relative(REPO, CACHE)}/`);
  if (!argv.includes('--no-node')) {
    nodeRuns(python, corpora, repeat);
    firstEncodeRuns(corpora[2].name);
  }
  if (argv.includes('--browser')) {
    const { browserRuns } = await import('../browser/peers.mjs');
    await browserRuns({ cache: CACHE, corpora, repeat, python });
  }
  console.log(`# load average ${loadavg().map((x) => fmt(x)).join(' ')} at the end`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
