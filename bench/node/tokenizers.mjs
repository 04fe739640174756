#!/usr/bin/env node
// Tokenizers on the same text, in one run (the tokenizer's benchmark):
//
//   node bench/node/tokenizers.mjs [--python PATH] [--mb N] [--repeat R]
//
// Corpora: the standard library's source and the UDHR (written by cpython_codec.py, as the
// codec benchmark uses), the first N MB (default 4) of each. Every pass runs in a fresh process
// with empty caches and is timed once (load time reported apart); best of R repeats.
//   * GPT-2 (50,257 tokens): js-tiktoken, gpt-tokenizer (r50k_base), @huggingface/tokenizers
//     (tokenizers.js, on a tokenizer.json converted from the same ranks), functok's loadTiktoken
//     greedy and optimal, and CPython functok's load_tiktoken greedy and optimal.
//   * a functok tokenizer (trained here by CPython functok on the stdlib text, 4,000 tokens):
//     functok for JavaScript greedy and optimal against CPython functok greedy and optimal.
// The ids are compared: every greedy GPT-2 implementation must give the same ids, and each JS
// functok pass the ids of its CPython counterpart.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const src = (p) => pathToFileURL(join(REPO, 'js/src', p)).href;
const sha = (ids) => createHash('sha256').update(JSON.stringify(ids)).digest('hex');

// --- one pass, in a child process -----------------------------------------------------------
const IMPLS = {
  'js-tiktoken': async () => {
    const [{ Tiktoken }, { default: ranks }] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/gpt2')]);
    const t = new Tiktoken(ranks);
    return (text) => t.encode(text);
  },
  'gpt-tokenizer': async () => {
    const { encode } = await import('gpt-tokenizer/encoding/r50k_base');
    return (text) => encode(text);
  },
  'tokenizers.js': async (dir) => {
    const { Tokenizer } = await import('@huggingface/tokenizers');
    const t = new Tokenizer(JSON.parse(readFileSync(join(dir, 'gpt2-tokenizer.json'), 'utf8')), {});
    return (text) => t.encode(text, { add_special_tokens: false }).ids;
  },
  'functok-gpt2-greedy': async () => gpt2Functok('greedy'),
  'functok-gpt2-optimal': async () => gpt2Functok('optimal'),
  'functok-greedy': async (dir) => functokTokenizer(dir, 'greedy'),
  'functok-optimal': async (dir) => functokTokenizer(dir, 'optimal'),
};

async function gpt2Functok(segmentation) {
  const [{ loadTiktoken }, { default: ranks }] = await Promise.all([import(src('index.mjs')), import('js-tiktoken/ranks/gpt2')]);
  const v = loadTiktoken(ranks);
  return (text) => v.encode(text, { segmentation });
}

async function functokTokenizer(dir, segmentation) {
  const { Tokenizer } = await import(src('index.mjs'));
  const t = Tokenizer.fromFile(join(dir, 'functok-tokenizer.json'));
  return (text) => t.encode(text, { segmentation }).ids;
}

async function child(impl, dir, file) {
  const text = readFileSync(file, 'utf8');
  const t0 = performance.now();
  const encode = await IMPLS[impl](dir);
  const t1 = performance.now();
  const ids = encode(text);
  const seconds = (performance.now() - t1) / 1000;
  const mb = Buffer.byteLength(text) / 1e6;
  console.log(JSON.stringify({ impl, seconds, mb_s: mb / seconds, tokens: ids.length, ids_sha256: sha(ids), load_ms: t1 - t0 }));
}

// --- the parent -------------------------------------------------------------------------------
function run(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1], argv[2], argv[3]);
  const opt = (name, dflt) => { const k = argv.indexOf(name); return k >= 0 ? argv[k + 1] : dflt; };
  const python = opt('--python', process.env.FUNCTOK_PYTHON || join(REPO, '.venv/bin/python'));
  const mb = Number(opt('--mb', 4)), repeat = Number(opt('--repeat', 1));
  if (!existsSync(python)) throw new Error(`no Python at ${python}; pass --python or set FUNCTOK_PYTHON`);
  const env = { ...process.env, PYTHONPATH: [join(REPO, 'python'), process.env.PYTHONPATH].filter(Boolean).join(':') };
  const dir = mkdtempSync(join(tmpdir(), 'functok-tok-bench-'));
  const corpora = run(python, [join(REPO, 'bench/python/cpython_codec.py'), 'corpora', dir], env).map(({ name, path }) => {
    const cut = Buffer.from(readFileSync(path, 'utf8')).subarray(0, mb * 1e6).toString('utf8').replace(/\ufffd$/, '');
    const out = join(dir, `${name}-${mb}mb.txt`);
    writeFileSync(out, cut);
    return { name, path: out };
  });
  const [{ gpt2TokenizerJson }, { default: ranks }, { readTiktokenRanks }] = await Promise.all([
    import('./gpt2-json.mjs'), import('js-tiktoken/ranks/gpt2'), import(src('index.mjs'))]);
  writeFileSync(join(dir, 'gpt2-tokenizer.json'), JSON.stringify(gpt2TokenizerJson(ranks)));
  writeFileSync(join(dir, 'gpt2.tiktoken'), `${[...readTiktokenRanks(ranks)].map(([t, r]) => `${btoa(t)} ${r}`).join('\n')}\n`);
  const tokenizer = join(dir, 'functok-tokenizer.json');
  run(python, [join(REPO, 'bench/python/cpython_tokenizer.py'), 'train', corpora[0].path, tokenizer, '4000'], env);
  console.log(`# node ${process.version}, ${python}; first ${mb} MB of each corpus; best of ${repeat} cold passes; files in ${dir}`);
  const results = {};
  for (let r = 0; r < repeat; r++) {
    for (const { name, path } of corpora) {
      const rows = [];
      for (const impl of Object.keys(IMPLS)) rows.push(...run(process.execPath, [fileURLToPath(import.meta.url), '--child', impl, dir, path]));
      for (const row of run(python, [join(REPO, 'bench/python/cpython_tokenizer.py'), 'gpt2', join(dir, 'gpt2.tiktoken'), path], env)) rows.push({ ...row, impl: `${row.impl}-${row.mode}` });
      for (const row of run(python, [join(REPO, 'bench/python/cpython_tokenizer.py'), 'time', tokenizer, path], env)) rows.push({ ...row, impl: `${row.impl}-${row.mode}` });
      for (const row of rows) {
        const best = (results[name] ??= {})[row.impl];
        if (best === undefined || row.mb_s > best.mb_s) results[name][row.impl] = row;
      }
    }
  }
  for (const [name, rows] of Object.entries(results)) {
    const same = (a, b) => rows[a].ids_sha256 === rows[b].ids_sha256;
    for (const impl of ['gpt-tokenizer', 'tokenizers.js', 'functok-gpt2-greedy', 'cpython-functok-gpt2-greedy']) {
      if (!same('js-tiktoken', impl)) throw new Error(`${name}: ${impl} gives other ids than js-tiktoken`);
    }
    for (const [a, b] of [['functok-gpt2-optimal', 'cpython-functok-gpt2-optimal'], ['functok-greedy', 'cpython-functok-greedy'], ['functok-optimal', 'cpython-functok-optimal']]) {
      if (!same(a, b)) throw new Error(`${name}: ${a} and ${b} give other ids`);
    }
    const base = rows['js-tiktoken'].mb_s;
    console.log(`\n${name} (${(Buffer.byteLength(readFileSync(corpora.find((c) => c.name === name).path, 'utf8')) / 1e6).toFixed(1)} MB)`);
    console.log(`${'implementation'.padEnd(32)}${'MB/s'.padStart(8)}${'x js-tiktoken'.padStart(15)}${'tokens'.padStart(10)}${'load ms'.padStart(9)}`);
    for (const [impl, row] of Object.entries(rows)) {
      console.log(`${impl.padEnd(32)}${row.mb_s.toFixed(2).padStart(8)}${(row.mb_s / base).toFixed(2).padStart(15)}${String(row.tokens).padStart(10)}${row.load_ms.toFixed(0).padStart(9)}`);
    }
    const r = (a, b) => (rows[a].mb_s / rows[b].mb_s).toFixed(2);
    console.log(`# functok JS vs CPython functok: tokenizer greedy ${r('functok-greedy', 'cpython-functok-greedy')}x, optimal ${r('functok-optimal', 'cpython-functok-optimal')}x;`
      + ` GPT-2 optimal ${r('functok-gpt2-optimal', 'cpython-functok-gpt2-optimal')}x`);
    console.log(`# goal: functok optimal on GPT-2 >= 1x js-tiktoken greedy: ${r('functok-gpt2-optimal', 'js-tiktoken')}x`);
  }
  console.log('# ids identical: GPT-2 greedy across all five; each functok JS pass = its CPython pass (SHA-256 of the ids)');
}

await main();
