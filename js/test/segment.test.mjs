// One segmenter: the `segment` export, which answers the conformance `segment` op,
// runs the TokenVocabulary and Segmenter that every Tokenizer runs; there is no second copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as functok from '../src/index.mjs';
import { Segmenter } from '../src/tokenizer/segmenter.mjs';
import { TokenVocabulary } from '../src/tokenizer/vocabulary.mjs';

const VECTORS = fileURLToPath(new URL('../../conformance/vectors/segment.json', import.meta.url));
const vectors = JSON.parse(readFileSync(VECTORS, 'utf8')).tests;

/** The calls of the reference's Segmenter.prototype.segment during f(), run on the reference
 * engine (on the wasm engine the core's segmenter runs instead; differential.test.mjs compares). */
function segmenterCalls(f) {
  const original = Segmenter.prototype.segment;
  const engine = functok.engine();
  let calls = 0;
  Segmenter.prototype.segment = function counted(...args) { calls++; return original.apply(this, args); };
  functok.setEngine('reference');
  try { return [f(), calls]; } finally { Segmenter.prototype.segment = original; functok.setEngine(engine); }
}

test('every segment vector runs the Tokenizer\'s Segmenter, through a TokenVocabulary', () => {
  for (const v of vectors) {
    const o = v.options;
    const vocabulary = new functok.Vocabulary({ tokens: o.tokens, merges: o.merges ?? [], specialTokens: o.special_tokens ?? [], byteFallback: o.byte_fallback ?? false });
    assert.ok(vocabulary.vocabulary instanceof TokenVocabulary, v.id);
    const [tokens, calls] = segmenterCalls(() => functok.segment(v.input, vocabulary, { tieBreak: o.tie_break, reachableOnly: o.reachable_only }));
    assert.deepEqual(tokens, v.expected, v.id);
    if (v.input !== '') assert.ok(calls > 0, `${v.id}: the Segmenter ran`);
  }
});

test('segment() gives the ids a Tokenizer-style vocabulary gives, spelled as tokens', () => {
  const tokens = ['a', 'b', 'c', 'ab', 'bc', 'abc'];
  const vocabulary = new functok.Vocabulary({ tokens, merges: [['b', 'c'], ['a', 'b']], byteFallback: true });
  assert.equal(vocabulary.tokens.length, 6 + 256); // the byte tokens come after the listed ones
  assert.deepEqual(functok.segment('abcé', vocabulary), ['abc', '<0xC3>', '<0xA9>']);
  assert.deepEqual(vocabulary.greedy('abc'), ['a', 'bc']);
  assert.deepEqual(functok.segment('abc', vocabulary, { reachableOnly: true }), ['ab', 'c']); // abc is unreachable; ab|c is longest-first
  assert.deepEqual([...vocabulary.candidateSet(true)].sort(), ['a', 'ab', 'b', 'bc', 'c']);
  assert.throws(() => functok.segment('abc', vocabulary, { tieBreak: 'rightmost' }), TypeError);
});

test('the codec entry has no segmenter, and the second copy is gone', async () => {
  const codec = await import('../src/codec.mjs');
  for (const name of ['segment', 'Vocabulary', 'TIE_BREAKS']) assert.ok(!(name in codec), name);
  assert.ok(!existsSync(fileURLToPath(new URL('../src/segment.mjs', import.meta.url))));
  assert.deepEqual(functok.TIE_BREAKS, ['leftmost-longest', 'prefer-greedy']);
});
