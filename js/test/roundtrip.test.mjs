// Round-trip and stream properties (spec 1.2, 8.3, 9.3) on seeded random strings: every plane,
// the format's own PUA range, stacked marks, runs and repeated units.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as functok from '../src/index.mjs';
import { prng, randomText, randomSoup } from './gen.mjs';
import { codePoints } from '../src/text.mjs';
import { TO_UPPER, TO_LOWER } from '../src/ucd.mjs';

const N = 3000;

test('decode(encode(x, normalize=null)) == x and decode(encode(x)) == NFC(x), both splitters', () => {
  const r = prng(1);
  for (let k = 0; k < N; k++) {
    const x = randomText(r);
    for (const splitter of functok.SPLITTERS) {
      const raw = functok.encode(x, { normalize: null, splitter });
      assert.equal(functok.decode(raw), x, JSON.stringify(x));
      const nfc = functok.encode(x, { splitter });
      assert.equal(functok.decode(nfc), functok.nfc(x), JSON.stringify(x));
      assert.equal(functok.decode(nfc, { errors: 'replace' }), functok.nfc(x));
    }
  }
});

test('NFC is idempotent and encoding NFC text with or without normalization agrees', () => {
  const r = prng(2);
  for (let k = 0; k < N; k++) {
    const y = functok.nfc(randomText(r));
    assert.equal(functok.nfc(y), y);
    assert.equal(functok.encode(y), functok.encode(y, { normalize: null }));
  }
});

test('pieces tile the text; pre-tokens and encoded pieces concatenate to the stream', () => {
  const r = prng(3);
  for (let k = 0; k < N; k++) {
    const x = randomText(r);
    for (const normalize of ['nfc', null]) {
      const stream = functok.encode(x, { normalize });
      for (const splitOperators of [true, false]) {
        const pt = functok.pretokens(x, { normalize, splitOperators });
        assert.equal(pt.join(''), stream);
        assert.ok(pt.every((t) => t.length > 0));
      }
      const ps = functok.pieces(x, { normalize });
      assert.equal(ps.map((p) => p.encoded).join(''), stream);
      assert.equal(ps.map((p) => p.text).join(''), normalize ? functok.nfc(x) : x);
      if (normalize === null) {
        let at = 0;
        for (const p of ps) { assert.equal(p.start, at); at = p.end; }
        assert.equal(at, codePoints(x).length);
      }
      assert.deepEqual(functok.split(normalize ? functok.nfc(x) : x), ps.map((p) => p.text));
    }
  }
});

test('lenient decoding never fails, never outputs an unescaped instruction or a surrogate, and agrees with strict on well-formed streams', () => {
  const r = prng(4);
  for (let k = 0; k < N; k++) {
    const s = randomSoup(r);
    const out = functok.decode(s, { errors: 'replace', maxOutput: 1000 });
    assert.ok(codePoints(out).length <= 1000 + codePoints(s).length);
    assert.doesNotMatch(out, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    if (!s.includes('\uefff')) assert.doesNotMatch(out, /[\ue000-\uefff]/, JSON.stringify(s));
    let strict;
    try { strict = functok.decode(s, { maxOutput: 1000 }); } catch (e) {
      assert.ok(e instanceof functok.FormatError, String(e));
      assert.ok(functok.ERROR_KINDS.includes(e.kind));
      assert.ok(e.offset >= 0 && e.offset < codePoints(s).length);
      continue;
    }
    assert.equal(strict, out);
  }
});

test('the encoder rejects a lone surrogate at its code point offset', () => {
  assert.throws(() => functok.encode('\u{1F600}a\ud800'), (e) => e.kind === 'lone-surrogate' && e.offset === 2);
  assert.throws(() => functok.pieces('\udc00'), (e) => e.kind === 'lone-surrogate' && e.offset === 0);
  assert.throws(() => functok.pretokens('ab\udbff', { normalize: null }), (e) => e.kind === 'lone-surrogate' && e.offset === 2);
});

test('giant pieces and long whitespace stay fast (spec 12.3, 12.4)', () => {
  const t0 = Date.now();
  for (const x of ['a'.repeat(200000), 'ab'.repeat(100000), ' '.repeat(100000) + 'x', '\n \t'.repeat(30000),
    '!'.repeat(100000), 'abcdefghi'.repeat(20000)]) {
    assert.equal(functok.decode(functok.encode(x)), x);
  }
  assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
});

// Spec 1.1.0: the profiles and option sets of 6.6; the decoder takes no profile (obligation 3 of 1.2).
const OPTION_SETS = [{ profile: 'compact' }, { profile: 'paper' }, { fold: 'no-whitespace' }, { fold: 'none' },
  { case: 'range' }, { profile: 'compact', fold: 'all' }, { profile: 'compact', fold: 'no-whitespace' },
  { profile: 'compact', case: 'capitalize' }];

test('every profile and option set round-trips, and pieces and pre-tokens concatenate to its stream', () => {
  const r = prng(5);
  for (let k = 0; k < N / 3; k++) {
    const x = randomText(r);
    for (const o of OPTION_SETS) {
      for (const splitter of functok.SPLITTERS) {
        const ctx = `${JSON.stringify(o)} ${splitter} ${JSON.stringify(x)}`;
        const raw = functok.encode(x, { ...o, normalize: null, splitter });
        assert.equal(functok.decode(raw), x, ctx);
        const stream = functok.encode(x, { ...o, splitter });
        assert.equal(functok.decode(stream), functok.nfc(x), ctx);
        assert.equal(functok.pretokens(x, { ...o, splitter }).join(''), stream, ctx);
        assert.equal(functok.pretokens(x, { ...o, splitter, splitOperators: false }).join(''), stream, ctx);
        assert.equal(functok.pieces(x, { ...o, splitter }).map((p) => p.encoded).join(''), stream, ctx);
      }
    }
    // the default is paper, and fold none emits no repeat-family instruction
    assert.equal(functok.encode(x, { profile: 'paper' }), functok.encode(x));
    assert.doesNotMatch(functok.encode(x, { profile: 'compact' }).replace(/\uefff[^]/gu, ''), /[\ue200\ue201]/);
    assert.doesNotMatch(functok.encode(x).replace(/\uefff[^]/gu, ''), /\ue110/);
  }
});

test('profiles and options: PROFILES as in spec 6.6, explicit options override, unknown values are usage errors', () => {
  assert.deepEqual(JSON.parse(JSON.stringify(functok.PROFILES)),
    { paper: { fold: 'all', case: 'capitalize' }, compact: { fold: 'none', case: 'range' } });
  assert.ok(Object.isFrozen(functok.PROFILES) && Object.isFrozen(functok.PROFILES.compact));
  assert.deepEqual(functok.encoderOptions('compact', 'all'), { fold: 'all', case: 'range' });
  assert.deepEqual(functok.encoderOptions('paper', null, 'range'), { fold: 'all', case: 'range' });
  for (const bad of [{ profile: 'fast' }, { profile: 'toString' }, { profile: null }, { fold: 'some' }, { case: 'upper' }]) {
    for (const f of [functok.encode, functok.pieces, functok.pretokens]) {
      assert.throws(() => f('Hello', bad), (e) => e instanceof TypeError && !(e instanceof functok.FormatError), JSON.stringify(bad));
    }
  }
  assert.equal(functok.encode('AAA', { profile: 'compact', fold: 'all' }), '\ue200\ue000\ue003\ue100\ue000a');
});

test('UPPERCASE decodes alike however case instructions overlap (spec 7.5), with marks after case', () => {
  const want = 'ABC';
  for (const g of ['\ue110\ue000\ue003', '\ue100\ue001\ue110\ue000\ue003', '\ue110\ue000\ue002\ue110\ue001\ue003',
    '\ue110\ue000\ue003\ue110\ue000\ue003', '\ue100\ue000\ue100\ue000\ue110\ue001\ue003', '\ue110\ue001\ue003\ue100\ue000']) {
    assert.equal(functok.decode(g + 'abc'), want, JSON.stringify(g));
  }
  assert.equal(functok.decode('\ue107\ue000\ue110\ue000\ue002is'), '\u0130S');
  assert.equal(functok.decode('\ue110\ue000\ue002\ue200\ue000\ue003ab'), 'AAAB'); // case before repeats
  // no code point is both an upper and a lower member, so case changes a slot at most once
  for (const c of TO_UPPER.keys()) assert.ok(!TO_LOWER.has(c), c.toString(16));
});
