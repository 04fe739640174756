// Byte-identical to CPython: the same texts through functok for JavaScript
// and through CPython functok in the same run, compared digest by digest (SHA-256 of the JSON
// of each answer): streams, pieces and pre-tokens under each option set, and token ids under
// greedy and optimal segmentation with a tokenizer trained here by Python (fused, when this
// functok has `fuse`) and with the web demo's tokenizer (wasm/dist, when built).
// The texts: the 2,000 seeded random strings of fixtures/random-strings.json
// (js/tools/make-random-strings.py) and the Pyodide determinism corpus (wasm/test/corpus.mjs:
// hard cases, the package's sources, UDHR slices).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as functok from '../src/index.mjs';
import { NO_PYTHON, python, digest, REPO } from './python.mjs';

const OPTIONS = {
  paper: { profile: 'paper' },
  compact: { profile: 'compact' },
  'compact-none-paper': { profile: 'compact', normalize: null, splitter: 'paper' },
  'paper-no-whitespace-range': { profile: 'paper', fold: 'no-whitespace', case: 'range' },
};
const MODES = ['greedy', 'optimal', 'optimal-prefer-greedy'];
const MODE_OPTIONS = { greedy: { segmentation: 'greedy' }, optimal: { segmentation: 'optimal' },
  'optimal-prefer-greedy': { segmentation: 'optimal', tieBreak: 'prefer-greedy' } };

function jsDigests(texts, options, tokenizers, modes) {
  return texts.map((text) => {
    const d = {};
    for (const [name, o] of Object.entries(options)) {
      try {
        d[`stream/${name}`] = digest(functok.encode(text, o));
        d[`pieces/${name}`] = digest(functok.pieces(text, o).map((p) => [p.text, p.start, p.end, p.instructions.map(String), p.base, p.slotStarts]));
        for (const ops of [true, false]) d[`pretokens/${name}/${ops ? 'True' : 'False'}`] = digest(functok.pretokens(text, { ...o, splitOperators: ops }));
        d[`pretokens/${name}/frequent`] = digest(functok.pretokens(text, { ...o, fuse: 'frequent' }));
      } catch (e) {
        if (!(e instanceof functok.FormatError)) throw e;
        d[`error/${name}`] = [e.kind, e.offset];
      }
    }
    tokenizers.forEach((tok, k) => {
      for (const m of modes) {
        try {
          const ids = tok.encode(text, { ...MODE_OPTIONS[m], disallowedSpecial: [] }).ids;
          d[`ids/${k}/${m}`] = digest(ids);
          if (m === 'greedy') d[`decoded/${k}`] = digest(tok.decode(ids));
        } catch (e) {
          if (!(e instanceof functok.FormatError)) throw e;
          d[`ids-error/${k}/${m}`] = [e.kind, e.offset];
        }
      }
    });
    return d;
  });
}

function compare(name, texts, expected, actual) {
  const bad = [];
  texts.forEach((t, k) => {
    const want = expected[k], got = actual[k];
    for (const key of new Set([...Object.keys(want), ...Object.keys(got)])) {
      if (JSON.stringify(want[key]) !== JSON.stringify(got[key])) bad.push(`${name}[${k}] ${key}: ${JSON.stringify(t.slice(0, 40))}`);
    }
  });
  assert.deepEqual(bad.slice(0, 20), [], `${bad.length} digests differ`);
}

async function corpus() {
  const { determinismCorpus } = await import(join(REPO, 'wasm/test/corpus.mjs'));
  return determinismCorpus().map((d) => d.text);
}

function tokenizers() {
  const trainTexts = [readFileSync(join(REPO, 'python/functok/encoding.py'), 'utf8'), readFileSync(join(REPO, 'python/functok/data/sample.txt'), 'utf8')];
  const files = python('train', { texts: trainTexts, vocab_size: 800, special_tokens: ['<|endoftext|>'],
    settings: [{ profile: 'compact', fuse: 'frequent', split_operators: true }, { profile: 'paper', split_operators: false }] });
  const demo = join(REPO, 'wasm/dist/demo-tokenizer.json');
  if (existsSync(demo)) files.push(readFileSync(demo, 'utf8'));
  return files;
}

test('digests identical to CPython: 2,000 random strings and the Pyodide determinism corpus', { skip: NO_PYTHON, timeout: 600_000 }, async (t) => {
  const random = JSON.parse(readFileSync(new URL('./fixtures/random-strings.json', import.meta.url), 'utf8')).strings;
  assert.equal(random.length, 2000);
  const files = tokenizers();
  if (files.length < 3) t.diagnostic('wasm/dist/demo-tokenizer.json absent (npm run build): the demo tokenizer is not compared');
  const toks = files.map((f) => functok.Tokenizer.fromStr(f));
  const docs = await corpus();
  // the corpus (larger) with two option sets and the two segmentations; the random strings with all
  for (const [name, texts, options, modes] of [['random', random, OPTIONS, MODES], ['corpus', docs, { paper: OPTIONS.paper, compact: OPTIONS.compact }, MODES.slice(0, 2)]]) {
    const expected = python('digests', { texts, options, tokenizers: files, modes }).digests;
    compare(name, texts, expected, jsDigests(texts, options, toks, modes));
  }
});

test('the random strings are fresh (js/tools/make-random-strings.py --check)', { skip: NO_PYTHON }, () => {
  const r = spawnSync(process.env.FUNCTOK_PYTHON, [join(REPO, 'js/tools/make-random-strings.py'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});
