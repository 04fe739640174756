// The tokenizer against CPython functok, in the same run (FUNCTOK_PYTHON): tokenizers trained
// here by Python under each profile and fuse give the same ids under every segmentation mode and
// decode damaged ids to the same text or the same first error (Tokenizer.decode and
// DecodeStream); external vocabularies (tokenizer.json of three kinds trained here, GPT-2's
// tiktoken ranks from js-tiktoken's package) give the ids of `tokenizers`, tiktoken and
// functok's segmenter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import gpt2 from 'js-tiktoken/ranks/gpt2';
import { Tiktoken } from 'js-tiktoken/lite';
import { Tokenizer, DecodeStream, BYTE_TOKENS, FormatError, loadHF, loadTiktoken, readTiktokenRanks } from '../src/index.mjs';
import { NO_PYTHON, python, REPO } from './python.mjs';
import { prng } from './gen.mjs';

const UDHR = join(REPO, 'corpora', 'udhr'); // carried in the repository (corpora/README.md)
const read = (p) => readFileSync(join(REPO, p), 'utf8');
const udhr = (step, cut) => readdirSync(UDHR).sort().filter((_, k) => k % step === 0).map((f) => readFileSync(join(UDHR, f), 'utf8').slice(0, cut));
const RANDOM = JSON.parse(readFileSync(new URL('./fixtures/random-strings.json', import.meta.url), 'utf8')).strings;
const TRAIN = [read('python/functok/encoding.py'), read('python/functok/decoding.py'), read('python/functok/data/sample.txt'), ...udhr(40, 2000)];
const TEXTS = [read('python/functok/splitting.py'), ...udhr(17, 1500), ...RANDOM.slice(0, 400), 'a<|endoftext|>b HELLO Wörld'];
const SETTINGS = [{ profile: 'paper', split_operators: true }, { profile: 'paper', split_operators: false }, { profile: 'compact', fuse: 'frequent', split_operators: true }];
const MODES = { greedy: { segmentation: 'greedy' }, optimal: { segmentation: 'optimal' },
  'optimal-prefer-greedy': { segmentation: 'optimal', tieBreak: 'prefer-greedy' }, 'optimal-reachable': { segmentation: 'optimal', reachableOnly: true } };

test('trained tokenizers: ids identical to Python in every mode, and decode identical', { skip: NO_PYTHON, timeout: 300_000 }, () => {
  const files = python('train', { texts: TRAIN, vocab_size: 1200, special_tokens: ['<|endoftext|>'], settings: SETTINGS });
  for (const file of files) {
    const tok = Tokenizer.fromStr(file);
    const want = python('encode', { tokenizer: file, texts: TEXTS, modes: Object.keys(MODES) });
    for (const [m, o] of Object.entries(MODES)) {
      TEXTS.forEach((t, k) => assert.deepEqual(tok.encode(t, { ...o, allowedSpecial: 'all' }).ids, want.ids[m][k], `${m} ${JSON.stringify(JSON.parse(file).functok)} ${JSON.stringify(t.slice(0, 60))}`));
    }
    TEXTS.forEach((t, k) => assert.equal(tok.decode(want.ids[Object.keys(MODES)[0]][k]), want.decoded[k]));
  }
});

function outcome(f) {
  // Python's id errors have no `kind` (the JS ones carry spec 14.7's unknown-id and invalid-bytes)
  try { return { text: f() }; } catch (e) { return { error: [e.name, e.idIndex, e instanceof FormatError ? e.kind : null, e.offset ?? null] }; }
}

test('damaged ids: decode and DecodeStream give Python\'s text or first error', { skip: NO_PYTHON, timeout: 300_000 }, () => {
  const [file] = python('train', { texts: TRAIN, vocab_size: 700, special_tokens: ['<|endoftext|>'], settings: [SETTINGS[2]] });
  const tok = Tokenizer.fromStr(file);
  const r = prng(714);
  const byte = (b) => tok.tokenToId(BYTE_TOKENS[b]);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const junk = [10 ** 6, byte(0xc3), byte(0xa9), byte(0xe2), byte(0x82), byte(0xff), byte(0x41), tok.tokenToId('<|endoftext|>'),
    ...['\ue100', '\ue000', '\ue005', '\ue0ff', '\ue110', '\ue200', '\ue201', '\uefff', '\ue10d'].map((c) => tok.tokenToId(c)).filter((x) => x !== null)];
  const lists = [];
  for (let k = 0; k < 500; k++) {
    const ids = tok.encode(Array.from(pick(TEXTS)).slice(0, 80).join(''), { segmentation: k % 2 ? 'optimal' : 'greedy', allowedSpecial: 'all' }).ids;
    for (let d = Math.floor(r() * 5); d > 0; d--) ids.splice(Math.floor(r() * (ids.length + 1)), 0, pick(junk));
    lists.push(ids);
  }
  const options = [{}, { errors: 'replace' }, { max_output: 8 }, { errors: 'replace', max_output: 4, skip_special_tokens: true }];
  const camel = (o) => ({ errors: o.errors, maxOutput: o.max_output, skipSpecialTokens: o.skip_special_tokens });
  const want = python('decode', { tokenizer: file, ids: lists, options });
  lists.forEach((ids, k) => options.forEach((o, j) => {
    const [decoded, streamed] = want[k][j];
    const ctx = `${JSON.stringify(ids)} ${JSON.stringify(o)}`;
    assert.deepEqual(outcome(() => tok.decode(ids, camel(o))), decoded, `decode ${ctx}`);
    const s = new DecodeStream(tok, camel(o));
    assert.deepEqual(outcome(() => ids.map((id) => s.step(id) ?? '').join('') + s.finish()), streamed, `DecodeStream ${ctx}`);
  }));
});

test('tokenizer.json vocabularies (byte-level, Split + ByteLevel, Metaspace with byte fallback): the ids of tokenizers and of functok', { skip: NO_PYTHON, timeout: 300_000 }, () => {
  const texts = [...TEXTS.slice(0, 30), 'Ünïcødé ✓ 漢字  x\n\n  y   \t', '  leading', "it's we'll 'S"];
  const answer = python('hf', { train: TRAIN, texts });
  assert.deepEqual(Object.keys(answer), ['gpt2-like', 'llama3-like', 'llama2-like']);
  for (const [kind, a] of Object.entries(answer)) {
    const v = loadHF(a.file);
    assert.equal(v.alphabet, a.alphabet, kind);
    texts.forEach((t, k) => {
      const ctx = `${kind} ${JSON.stringify(t.slice(0, 50))}`;
      assert.deepEqual(v.encode(t), a.greedy[k], `greedy ${ctx}`);
      assert.deepEqual(v.encode(t, { segmentation: 'optimal' }), a.optimal[k], `optimal ${ctx}`);
      assert.deepEqual(v.encode(t, { segmentation: 'optimal', tieBreak: 'prefer-greedy' }), a.prefer_greedy[k], `prefer-greedy ${ctx}`);
    });
  }
});

test('GPT-2 tiktoken ranks (js-tiktoken\'s package): js-tiktoken\'s greedy ids, and Python\'s greedy and optimal ids', { skip: NO_PYTHON, timeout: 300_000 }, () => {
  const v = loadTiktoken(gpt2);
  const reference = new Tiktoken(gpt2);
  const texts = [...TEXTS.slice(0, 40), "Ünïcødé ✓ 漢字  x\n\n  y   \t it's"];
  for (const t of texts) assert.deepEqual(v.encode(t), reference.encode(t), `js-tiktoken ${JSON.stringify(t.slice(0, 50))}`);
  const dir = mkdtempSync(join(tmpdir(), 'functok-gpt2-'));
  const path = join(dir, 'gpt2.tiktoken');
  writeFileSync(path, `${[...readTiktokenRanks(gpt2)].map(([token, rank]) => `${btoa(token)} ${rank}`).join('\n')}\n`);
  const want = python('tiktoken', { path, texts });
  for (const [m, o] of [['greedy', {}], ['optimal', { segmentation: 'optimal' }], ['optimal-prefer-greedy', { segmentation: 'optimal', tieBreak: 'prefer-greedy' }]]) {
    texts.forEach((t, k) => assert.deepEqual(v.encode(t, o), want[m][k], `${m} ${JSON.stringify(t.slice(0, 50))}`));
  }
  // the rank file's own text reads the same
  assert.deepEqual([...loadTiktoken(readFileSync(path, 'utf8')).tokens], [...v.tokens]);
});
