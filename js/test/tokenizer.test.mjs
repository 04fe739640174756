// The tokenizer on its own (no Python needed): a small tokenizer file built here, round trips,
// special tokens, file errors, fuse, and DecodeStream against Tokenizer.decode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as functok from '../src/index.mjs';
import { Tokenizer, DecodeStream, TokenizerFileError, BYTE_TOKENS } from '../src/index.mjs';
import { prng } from './gen.mjs';

/** A functok tokenizer file: byte tokens, ASCII, the format's code points in use, a few merges. */
function smallFile({ header = {}, specials = ['<|endoftext|>', '<s>'] } = {}) {
  const tokens = [...specials, ...BYTE_TOKENS];
  for (let c = 0x20; c < 0x7f; c++) tokens.push(String.fromCharCode(c));
  tokens.push('\n', '\t', 'é');
  for (let c = 0xe000; c < 0xe010; c++) tokens.push(String.fromCharCode(c));
  for (const c of [0xe100, 0xe101, 0xe102, 0xe105, 0xe110, 0xe200, 0xe201, 0xefff]) tokens.push(String.fromCharCode(c));
  const merges = [['t', 'h'], ['th', 'e'], ['e', 'r'], ['i', 'n'], ['o', 'n'], ['a', 'n'], [' ', 't'], [' t', 'he'], ['in', 'g'], [' ', 'a'],
    ['\ue100', '\ue000'], ['\ue110', '\ue000'], ['e', 's'], ['h', 'e'], ['r', 'e'], ['l', 'l'], ['he', 'll'], ['hell', 'o']];
  for (const [a, b] of merges) tokens.push(a + b);
  const vocab = Object.fromEntries(tokens.map((t, i) => [t, i]));
  const hf = { version: '1.0', added_tokens: specials.map((s, i) => ({ id: i, content: s, special: true })),
    normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null,
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null,
      fuse_unk: false, byte_fallback: true, ignore_merges: false, vocab, merges } };
  return { functok: { format_version: 1, spec_version: functok.SPEC_VERSION, splitter: 'llama3', normalize: 'nfc',
    split_operators: header.fuse === undefined ? true : header.fuse !== 'all', profile: 'paper', alphabet: 'characters+byte-fallback', ...header }, tokenizer: hf };
}

const RANDOM = JSON.parse(readFileSync(new URL('./fixtures/random-strings.json', import.meta.url), 'utf8')).strings;
const TEXTS = ['Hello World, the thing is here.', 'HELLO THERE', 'Ünïcødé ✓ 漢字 😀', 'aaaaaa bbb', 'x\ue100y\uefff', '', ...RANDOM.slice(0, 300)];

test('encode and decode round-trip under both segmentations and every fuse', () => {
  for (const fuse of functok.FUSE_MODES) {
    for (const profile of ['paper', 'compact']) {
      const tok = Tokenizer.fromJSON(smallFile({ header: { fuse, profile } }));
      for (const text of TEXTS) {
        const greedy = tok.encode(text).ids;
        assert.equal(tok.decode(greedy), functok.nfc(text), `greedy ${fuse} ${profile} ${JSON.stringify(text)}`);
        for (const tieBreak of functok.TIE_BREAKS) {
          const optimal = tok.encode(text, { segmentation: 'optimal', tieBreak }).ids;
          assert.equal(tok.decode(optimal), functok.nfc(text));
          assert.ok(optimal.length <= greedy.length, `optimal is never longer (${JSON.stringify(text)})`);
        }
      }
    }
  }
});

test('fuse: the pre-tokens concatenate to the stream; "frequent" joins group-bearing pieces to the one before', () => {
  const text = 'the Cat sat ON the MAT, Éa';
  const stream = functok.encode(text);
  for (const fuse of functok.FUSE_MODES) {
    const tok = Tokenizer.fromJSON(smallFile({ header: { fuse } }));
    assert.equal(tok.preTokenizer(text).join(''), stream, fuse);
  }
  const frequent = Tokenizer.fromJSON(smallFile({ header: { fuse: 'frequent' } })).preTokenizer('a Cat');
  assert.deepEqual(frequent, ['a\ue100\ue001 cat']);
  const none = Tokenizer.fromJSON(smallFile({ header: { fuse: 'none' } })).preTokenizer('a Cat');
  assert.deepEqual(none, ['a', '\ue100\ue001', ' cat']);
  const all = Tokenizer.fromJSON(smallFile({ header: { fuse: 'all' } })).preTokenizer('a Cat');
  assert.deepEqual(all, ['a', '\ue100\ue001 cat']);
});

test('greedy BPE: lowest rank first, then leftmost; byte fallback for missing characters', () => {
  const tok = Tokenizer.fromJSON(smallFile());
  assert.deepEqual(tok.encode('hello').tokens, ['hello']);
  assert.deepEqual(tok.encode('the').tokens, ['the']);
  assert.deepEqual(tok.encode('ther').tokens, ['the', 'r']); // th (rank 0) before er (rank 2)
  assert.deepEqual(tok.encode('漢').tokens, ['<0xE6>', '<0xBC>', '<0xA2>']);
  assert.equal(tok.vocabSize, Object.keys(smallFile().tokenizer.model.vocab).length);
  assert.equal(tok.idToToken(tok.tokenToId('the')), 'the');
  assert.equal(tok.tokenToId('nope'), null);
});

test('special tokens: allowed, disallowed, ordinary text', () => {
  const tok = Tokenizer.fromJSON(smallFile());
  const eot = tok.tokenToId('<|endoftext|>');
  assert.throws(() => tok.encode('a<|endoftext|>b'), TypeError);
  const ids = tok.encode('a<|endoftext|>b', { allowedSpecial: 'all' }).ids;
  assert.deepEqual(ids, [tok.tokenToId('a'), eot, tok.tokenToId('b')]);
  assert.ok(!tok.encode('a<|endoftext|>b', { disallowedSpecial: [] }).ids.includes(eot));
  assert.equal(tok.decode(ids), 'a<|endoftext|>b');
  assert.equal(tok.decode(ids, { skipSpecialTokens: true }), 'ab');
  assert.throws(() => tok.encode('x', { allowedSpecial: ['<nope>'] }), TypeError);
});

test('the file: unknown header values and broken models are TokenizerFileErrors naming the place', () => {
  const cases = [
    [{ functok: { ...smallFile().functok, format_version: 2 } }, '$.functok.format_version'],
    [{ functok: { ...smallFile().functok, spec_version: '1.99.0' } }, '$.functok.spec_version'],
    [{ functok: { ...smallFile().functok, spec_version: '2.0.0' } }, '$.functok.spec_version'],
    [{ functok: { ...smallFile().functok, profile: 'fast' } }, '$.functok.profile'],
    [{ functok: { ...smallFile().functok, fuse: 'some' } }, '$.functok.fuse'],
    [{ functok: { ...smallFile().functok, fuse: 'all', split_operators: true } }, '$.functok.fuse'],
    [{ functok: { ...smallFile().functok, splitter: 'gpt2' } }, '$.functok.splitter'],
    [{ functok: { ...smallFile().functok, alphabet: 'bytes' } }, '$.functok.alphabet'],
    [{ functok: { ...smallFile().functok, normalize: 'nfkc' } }, '$.functok.normalize'],
  ];
  for (const [patch, where] of cases) {
    const data = { ...smallFile(), ...patch };
    assert.throws(() => Tokenizer.fromJSON(data, 't.json'), (e) => e instanceof TokenizerFileError && e.where === where && e.file === 't.json', where);
  }
  const noBytes = smallFile();
  delete noBytes.tokenizer.model.vocab['<0x41>'];
  assert.throws(() => Tokenizer.fromJSON(noBytes), (e) => e instanceof TokenizerFileError && e.where === '$.tokenizer.model.vocab');
  const badMerge = smallFile();
  badMerge.tokenizer.model.merges.push(['q', 'z']);
  assert.throws(() => Tokenizer.fromJSON(badMerge), (e) => e instanceof TokenizerFileError && /merges\[\d+\]$/.test(e.where));
  assert.throws(() => Tokenizer.fromStr('{"functok": 1'), TokenizerFileError);
  const twice = JSON.stringify(smallFile()).replace('"hello":', '"hel\\u006co":1,"hello":');
  assert.throws(() => Tokenizer.fromStr(twice), (e) => e instanceof TokenizerFileError && /"hello" twice/.test(e.problem));
  assert.doesNotThrow(() => Tokenizer.fromStr(JSON.stringify(smallFile()).replace('"hello":', '"x\\\\":99999,"hello":')));
  assert.throws(() => Tokenizer.fromStr('[]'), (e) => e instanceof TokenizerFileError && e.where === '$');
  const text = JSON.stringify(smallFile());
  assert.equal(Tokenizer.fromStr(Tokenizer.fromStr(text).toStr()).toStr(), Tokenizer.fromStr(text).toStr());
});

function outcome(f) {
  try { return { text: f() }; } catch (e) { return { error: [e.name, e.idIndex, e.kind ?? null, e.offset ?? null] }; }
}

function streamed(tok, ids, options) {
  const s = new DecodeStream(tok, options);
  let out = '';
  for (const id of ids) out += s.step(id) ?? '';
  return out + s.finish();
}

test('DecodeStream gives what decode gives, errors included, on damaged ids', () => {
  const tok = Tokenizer.fromJSON(smallFile());
  const r = prng(1412);
  const byte = (b) => tok.tokenToId(BYTE_TOKENS[b]);
  const junk = [() => 10 ** 6, () => byte(0xc3), () => byte(0xa9), () => byte(0xff), () => byte(0x41), () => tok.tokenToId('\ue100'),
    () => tok.tokenToId('\ue000'), () => tok.tokenToId('\ue005'), () => tok.tokenToId('\ue200'), () => tok.tokenToId('\uefff'), () => 0];
  for (let k = 0; k < 600; k++) {
    const text = TEXTS[k % TEXTS.length];
    const ids = tok.encode(text, { segmentation: k % 2 ? 'optimal' : 'greedy' }).ids;
    const damaged = ids.slice();
    for (let d = Math.floor(r() * 4); d > 0; d--) damaged.splice(Math.floor(r() * (damaged.length + 1)), 0, junk[Math.floor(r() * junk.length)]());
    for (const options of [{}, { errors: 'replace' }, { maxOutput: 5 }, { errors: 'replace', maxOutput: 3, skipSpecialTokens: true }]) {
      assert.deepEqual(outcome(() => streamed(tok, damaged, options)), outcome(() => tok.decode(damaged, options)), `${JSON.stringify(damaged)} ${JSON.stringify(options)}`);
    }
  }
});

test('DecodeStream releases text as it becomes final', () => {
  const tok = Tokenizer.fromJSON(smallFile());
  const s = new DecodeStream(tok);
  const chunks = tok.encode('ab Cd ef').ids.map((id) => s.step(id));
  assert.equal(chunks[0], 'a'); // text0 is final at once
  assert.equal(chunks.filter(Boolean).join('') + s.finish(), 'ab Cd ef');
});
