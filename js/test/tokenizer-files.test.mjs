// Broken and edge-case tokenizer files: the cases of fixtures/tokenizer-files.json
// (written by tests/fixtures/tokenizer_cases.py, which tests/tokenizer/test_tokenizer_files.py runs too)
// get the verdict the fixture states from functok for JavaScript's loaders, and, with
// FUNCTOK_PYTHON, the same verdict and the same ids as CPython functok's loaders. A refusal is
// one TokenizerFileError naming the file; nothing loops, overflows the stack or makes up a value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer, TokenizerFileError, loadHF, loadTiktoken } from '../src/index.mjs';
import { NO_PYTHON, python } from './python.mjs';

const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/tokenizer-files.json', import.meta.url), 'utf8'));
const { texts: TEXTS, bases: BASES, cases: CASES } = FIXTURE;

/** A case's bytes, as tests/fixtures/tokenizer_cases.py's from_fixture builds them. */
function bytesOf(c) {
  if (c.base64 !== undefined) return Buffer.from(c.base64, 'base64');
  if (c.parts !== undefined) return Buffer.from(c.parts.map(([t, n]) => t.repeat(n)).join(''), 'utf8');
  const base = BASES[c.name];
  return Buffer.from(base.slice(0, c.head) + c.middle + base.slice(base.length - c.tail), 'utf8');
}

/** Each case written to a file of its own name, in a folder of its own. */
function writeCases() {
  const dir = mkdtempSync(join(tmpdir(), 'functok-files-'));
  return CASES.map((c, k) => {
    mkdirSync(join(dir, String(k)));
    const path = join(dir, String(k), c.name);
    writeFileSync(path, bytesOf(c));
    return path;
  });
}

/** The JS loader the file's name calls for: accepted, with the ids of TEXTS, or refused. */
function load(path) {
  try {
    if (path.endsWith('t.json')) {
      const tok = Tokenizer.fromFile(path);
      return { verdict: 'accept', ids: TEXTS.map((t) => tok.encode(t).ids) };
    }
    const bytes = readFileSync(path);
    const v = path.endsWith('hf.json') ? loadHF(bytes, { name: path }) : loadTiktoken(bytes, { name: path });
    return { verdict: 'accept', ids: TEXTS.map((t) => v.encode(t)) };
  } catch (e) {
    return { verdict: 'refuse', error: e };
  }
}

const PATHS = writeCases();
const JS = PATHS.map(load);

test('every shared case gets the verdict the fixture states; a refusal is one TokenizerFileError naming the file', () => {
  assert.ok(CASES.length > 150);
  CASES.forEach((c, k) => {
    const got = JS[k];
    if (got.verdict === 'refuse') {
      const e = got.error;
      assert.ok(e instanceof TokenizerFileError, `${c.id}: ${e?.name}: ${String(e?.message).slice(0, 200)}`);
      assert.equal(e.file, PATHS[k], c.id);
      assert.ok(e.message.startsWith(`${PATHS[k]}: `) && !e.message.includes('\n') && e.message.length < 400, `${c.id}: ${e.message}`);
    }
    assert.equal(got.verdict, c.verdict, `${c.id}: ${got.error?.message ?? 'loaded'}`);
  });
});

test('the Python loaders give the same verdict, and the same ids on accept', { skip: NO_PYTHON, timeout: 300_000 }, () => {
  const py = python('files', { paths: PATHS, texts: TEXTS });
  CASES.forEach((c, k) => {
    assert.equal(py[k].verdict, JS[k].verdict, `${c.id}: Python ${py[k].message ?? 'loaded'}; JS ${JS[k].error?.message ?? 'loaded'}`);
    if (py[k].verdict === 'refuse') assert.equal(py[k].error, 'TokenizerFileError', `${c.id}: ${py[k].message}`);
    else assert.deepEqual(JS[k].ids, py[k].ids, c.id);
  });
});

test('a missing file and a folder are TokenizerFileErrors naming them (they were plain ENOENT and EISDIR errors)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'functok-none-'));
  for (const [path, code] of [[join(dir, 'nope.json'), 'ENOENT'], [dir, 'EISDIR']]) {
    assert.throws(() => Tokenizer.fromFile(path), (e) => e instanceof TokenizerFileError && e.file === path
      && e.where === null && e.problem.startsWith('cannot read the file') && e.problem.includes(code), path);
  }
});

const HF = JSON.parse(BASES['hf.json']);

test('a parsed tokenizer.json nested 3,000 deep is refused, not a stack overflow', () => {
  for (const [part, kind] of [['normalizer', 'normalizers'], ['pre_tokenizer', 'pretokenizers']]) {
    let leaf = part === 'normalizer' ? { type: 'NFC' } : { type: 'Metaspace', replacement: '_' };
    for (let k = 0; k < 3000; k++) leaf = { type: 'Sequence', [kind]: [leaf] };
    assert.throws(() => loadHF({ ...HF, [part]: leaf }, { name: 'deep.json' }),
      (e) => e instanceof TokenizerFileError && /nested at most 127 deep/.test(e.problem), part);
  }
});

test('a parsed decoder with a 300,000-item list loads (no spread of the list onto the stack)', () => {
  const decoder = { type: 'Sequence', decoders: Array.from({ length: 300_000 }, () => ({ type: 'Fuse' })) };
  assert.deepEqual(loadHF({ ...HF, decoder }).encode('ab'), loadHF(HF).encode('ab'));
});

test('no value is made up: Replace without content, Prepend without prepend, a Metaspace replacement "" are refused at load', () => {
  for (const [part, value, where] of [
    ['normalizer', { type: 'Replace', pattern: { String: ',' } }, '$.normalizer.content'],
    ['normalizer', { type: 'Prepend' }, '$.normalizer.prepend'],
    ['normalizer', { type: 'Sequence', normalizers: [null] }, '$.normalizer.normalizers[0]'],
    ['pre_tokenizer', { type: 'Metaspace', replacement: '' }, '$.pre_tokenizer.replacement'],
    ['pre_tokenizer', { type: 'Metaspace', replacement: 5 }, '$.pre_tokenizer.replacement'],
    ['pre_tokenizer', { type: 'Metaspace', replacement: '_', prepend_scheme: 'sometimes' }, '$.pre_tokenizer.prepend_scheme'],
  ]) {
    assert.throws(() => loadHF({ ...HF, [part]: value }, { name: 'x.json' }), (e) => e instanceof TokenizerFileError && e.where === where, where);
  }
});
