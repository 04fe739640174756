// The two engines of functok for JavaScript (src/engine.mjs) give the same output or the same
// error (class, kind, offset, id index, message) for every op: the codec, a Tokenizer's encode,
// encodeBatch and decode under every profile, fuse mode and splitter, greedy and optimal with
// both tie-breaks (and reachableOnly), both merge rules (Hugging Face files and tiktoken ranks,
// GPT-2's included), and decode of damaged id lists. Each case runs through the seam once per
// engine: `onBoth(f)` is the one backend parameter.
//
// Seeded random texts (gen.mjs: every plane, private use, the format's own range, stacked
// marks) and stream soup with lone surrogates; FUNCTOK_ENGINES_COUNT sets how many per group.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import gpt2 from 'js-tiktoken/ranks/gpt2';
import * as functok from '../src/index.mjs';
import { prng, randomText, randomSoup } from './gen.mjs';

const COUNT = Number(process.env.FUNCTOK_ENGINES_COUNT || process.env.FUNCTOK_HYPOTHESIS_EXAMPLES || 150);
const fixture = (path) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
const SMALL = JSON.parse(fixture('../../tests/fixtures/tokenizer-small.json'));
const FILES = JSON.parse(fixture('./fixtures/tokenizer-files.json'));
const wasmExpected = !['', '0', undefined].includes(process.env.FUNCTOK_PURE) ? false : true;

/** What f() gives: { value } or { error: its class, name, kind, offset, id index and message }. */
function outcome(f) {
  try {
    const value = f();
    return { value: value instanceof functok.Encoding ? { ids: value.ids } : value };
  } catch (e) {
    return { error: { class: e?.constructor?.name, name: e?.name, kind: e?.kind, offset: e?.offset, idIndex: e?.idIndex, message: e?.message } };
  }
}

/** f() on the wasm engine and on the reference: the same outcome. */
function onBoth(f, what) {
  const before = functok.engine();
  try {
    functok.setEngine('wasm');
    const wasm = outcome(f);
    functok.setEngine('reference');
    const reference = outcome(f);
    assert.deepEqual(wasm, reference, what);
    return wasm;
  } finally {
    functok.setEngine(before);
  }
}

const skip = functok.engineInfo().wasmUnavailable !== null && `the wasm engine is not loaded: ${functok.engineInfo().wasmUnavailable}`;

test('the wasm engine runs by default (unless FUNCTOK_PURE), and engine() says which runs', () => {
  assert.equal(functok.engine(), wasmExpected ? 'wasm' : 'reference', functok.engineInfo().wasmUnavailable ?? '');
  assert.throws(() => functok.setEngine('turbo'), TypeError);
  if (!wasmExpected) assert.throws(() => functok.setEngine('wasm'), /not available: FUNCTOK_PURE/);
});

/** Random texts: gen.mjs's, some with special tokens' text, and soup with lone surrogates. */
function texts(seed, count, special = null) {
  const r = prng(seed);
  return Array.from({ length: count }, (_, k) => {
    if (k % 10 === 9) return randomSoup(r, 30);
    const t = randomText(r, 40);
    if (special !== null && r() < 0.2) { const at = Math.floor(r() * (t.length + 1)); return t.slice(0, at) + special + t.slice(at); }
    return t;
  });
}

const MODES = [
  {}, { segmentation: 'optimal' }, { segmentation: 'optimal', tieBreak: 'prefer-greedy' },
  { segmentation: 'optimal', reachableOnly: true }, { segmentation: 'optimal', tieBreak: 'prefer-greedy', reachableOnly: true },
];

test('the codec: encode, pretokens, split and decode, every profile, fuse mode and splitter', { skip }, () => {
  const r = prng(7);
  for (const text of texts(1, COUNT)) {
    for (const profile of ['paper', 'compact']) {
      for (const splitter of ['llama3', 'paper']) {
        const normalize = r() < 0.8 ? 'nfc' : null;
        const stream = onBoth(() => functok.encode(text, { profile, splitter, normalize }), `encode ${JSON.stringify(text)}`);
        for (const fuse of ['none', 'all', 'frequent']) onBoth(() => functok.pretokens(text, { profile, splitter, normalize, fuse }), `pretokens ${fuse}`);
        if (stream.value !== undefined) onBoth(() => functok.decode(stream.value), 'decode');
      }
    }
    onBoth(() => functok.split(text), 'split');
    onBoth(() => functok.encode(text, { fold: 'no-whitespace', case: 'range', features: ['case', 'repeat'] }), 'options');
  }
  for (const soup of texts(2, COUNT).map((t, k) => (k % 2 ? t : randomSoup(r, 40)))) {
    for (const errors of ['strict', 'replace']) {
      onBoth(() => functok.decode(soup, { errors }), `decode ${JSON.stringify(soup)}`);
      onBoth(() => functok.decode(soup, { errors, maxOutput: 3 }), 'decode maxOutput');
    }
  }
  onBoth(() => functok.encode(42), 'a number');
  onBoth(() => functok.decode('x', { errors: 'ignore' }), 'bad errors');
});

// Long streams: the wasm engine decodes them in windows cut before a group or in text0
// (src/engine/wasm.mjs), and stretches with no cut on the reference; maxOutput (each window gets
// what the windows before it left), lenient replacements and the first error must not see them.
test('the codec: decode of long streams, cut in windows, with maxOutput', { skip }, () => {
  const r = prng(17);
  const REPEAT = '\ue200\ue000\ue003'; // slot 0 three times more
  const piece = () => {
    const pick = r();
    if (pick < 0.6) return functok.encode(randomText(r, 60));
    if (pick < 0.7) return randomSoup(r, 20); // lone surrogates, stray instructions
    if (pick < 0.8) return `${REPEAT}ab${'\u00e9'.repeat(Math.floor(r() * 300))}`;
    if (pick < 0.9) return `x\uefff${String.fromCharCode(0xe000 + Math.floor(r() * 0x1000))}y`; // an escape before a group code
    return '\u4e2d\ud83d\ude00'.repeat(Math.floor(r() * 50)); // text0 with pairs
  };
  const long = (units) => { let s = ''; while (s.length < units) s += piece(); return s; };
  const cases = [
    long(70_000), long(200_000), long(300_000),
    'plain text0 '.repeat(20_000) + '\ud83d\ude00'.repeat(30_000), // no group: cut anywhere in text0
    '\ue102\ue000'.repeat(150_000) + 'a' + long(140_000), // a group too long to cut, then windows
    functok.encode('A b '.repeat(40_000)) + '\ud800', // a lone surrogate at the very end
  ];
  for (const [k, stream] of cases.entries()) {
    const lenient = functok.decode(stream, { errors: 'replace' });
    const size = [...lenient].length;
    for (const errors of ['strict', 'replace']) {
      for (const maxOutput of [undefined, size, size - 1, Math.floor(size / 2), 10]) {
        onBoth(() => functok.decode(stream, maxOutput === undefined ? { errors } : { errors, maxOutput }), `long stream ${k}, ${errors}, maxOutput ${maxOutput}`);
      }
    }
  }
});

/** A functok tokenizer over tokenizer-small.json's model with header options `options`. */
const smallTokenizer = (options) => new functok.Tokenizer(SMALL.tokenizer, options);

test('Tokenizer: encode and encodeBatch, every profile, fuse mode, splitter and segmentation', { skip }, () => {
  const special = '<|endoftext|>';
  const sample = texts(3, COUNT, special);
  for (const profile of ['paper', 'compact']) {
    for (const fuse of ['none', 'all', 'frequent']) {
      for (const splitter of ['llama3', 'paper']) {
        const tok = smallTokenizer({ profile, fuse, splitter, normalize: splitter === 'paper' ? null : 'nfc' });
        for (const [k, text] of sample.entries()) {
          const mode = MODES[k % MODES.length];
          onBoth(() => tok.encode(text, mode), `${profile} ${fuse} ${splitter} ${JSON.stringify(mode)} ${JSON.stringify(text)}`);
          if (text.includes(special)) {
            onBoth(() => tok.encode(text, { ...mode, allowedSpecial: 'all' }), 'allowed special');
            onBoth(() => tok.encode(text, { ...mode, disallowedSpecial: [] }), 'special as text');
          }
        }
        for (const mode of MODES) onBoth(() => tok.encodeBatch(sample.slice(0, 20), { ...mode, allowedSpecial: 'all' }), 'encodeBatch');
      }
    }
  }
  const tok = smallTokenizer({});
  onBoth(() => tok.encode('abc', { segmentation: 'fastest' }), 'bad segmentation');
  onBoth(() => tok.encode('abc', { allowedSpecial: ['<|nope|>'] }), 'unknown special');
  onBoth(() => tok.encode(null), 'no text');
  onBoth(() => tok.encodeBatch(['ok', `a${special}`, 'b\ud800']), 'a batch with errors');
  onBoth(() => tok.encodeBatch(['ok', 'b\ud800', `a${special}`]), 'a batch with errors, the other order');
});

test('Tokenizer.decode: ids of random text, and damaged id lists', { skip }, () => {
  const tok = smallTokenizer({ profile: 'compact', fuse: 'frequent' });
  const r = prng(11);
  const byteIds = functok.BYTE_TOKENS.map((t) => tok.tokenToId(t));
  const size = tok.vocabSize;
  for (const text of texts(4, COUNT, '<|endoftext|>')) {
    const { value } = onBoth(() => tok.encode(text, { allowedSpecial: 'all' }), 'encode');
    const ids = value?.ids ?? [];
    const damaged = ids.slice();
    for (let k = 0, n = 1 + Math.floor(r() * 3); k < n; k++) {
      const at = Math.floor(r() * (damaged.length + 1));
      const pick = r();
      if (pick < 0.25) damaged.splice(at, 0, size + Math.floor(r() * 10)); // an unknown id
      else if (pick < 0.5) damaged.splice(at, 0, byteIds[0x80 + Math.floor(r() * 0x80)]); // a broken byte run
      else if (pick < 0.65) damaged.splice(at, 0, byteIds[0xe2], byteIds[0x82]); // a cut sequence
      else if (pick < 0.8) damaged.splice(at, 1); // an id lost
      else damaged.splice(at, 0, Math.floor(r() * size)); // any id: instructions out of place
    }
    for (const list of [ids, damaged]) {
      for (const errors of ['strict', 'replace']) {
        onBoth(() => tok.decode(list, { errors }), `decode ${errors} ${JSON.stringify(list)}`);
        onBoth(() => tok.decode(list, { errors, skipSpecialTokens: true, maxOutput: 5 }), 'skip, maxOutput');
      }
      onBoth(() => tok.decodeBatch([list, ids]), 'decodeBatch');
    }
  }
  // Each stretch between special tokens has its own maxOutput: the core once counted the text
  // before a stretch against it, and with errors 'replace' dropped a repeat that fits.
  const stream = functok.encode('ababab'); // MULTIREPEAT(0, 2, 3) "ab": 6 code points out
  const spelled = [...new TextEncoder().encode(stream)].map((b) => byteIds[b]);
  const eot = tok.tokenToId('<|endoftext|>');
  for (const [list, text] of [[[eot, ...spelled], '<|endoftext|>ababab'], [[...spelled, eot, ...spelled], 'ababab<|endoftext|>ababab']]) {
    for (const errors of ['strict', 'replace']) {
      for (const maxOutput of [6, 8]) assert.deepEqual(onBoth(() => tok.decode(list, { errors, maxOutput }), 'a stretch\'s limit'), { value: text });
    }
  }
  for (const odd of [[-1], [1.5], ['3'], [2 ** 32], [2 ** 32 - 1], [NaN], [0n]]) onBoth(() => tok.decode(odd), `odd ${String(odd)}`);
  onBoth(() => tok.decode([1, 2], { errors: 'ignore' }), 'bad errors');
  onBoth(() => tok.decode([1, 2], { maxOutput: -1 }), 'bad maxOutput');
  onBoth(() => tok.decode(new Set([5, 6])), 'an iterable');
});

/**
 * DecodeStream over `ids`, one step per id: what each step and finish return, and the error
 * (with the step it came at) where one is raised.
 */
function streamed(tok, ids, options) {
  const out = [];
  try {
    const s = new functok.DecodeStream(tok, options);
    for (const id of ids) out.push(s.step(id));
    out.push(s.finish());
  } catch (e) {
    if (!(e instanceof Error) || e.name === 'AssertionError') throw e;
    out.push({ error: { class: e.constructor.name, kind: e.kind, offset: e.offset, idIndex: e.idIndex, message: e.message }, at: out.length });
  }
  return out;
}

test('DecodeStream: random, damaged and byte-fallback id sequences, step by step', { skip }, () => {
  const r = prng(23);
  const special = '<|endoftext|>';
  for (const profile of ['paper', 'compact']) {
    for (const fuse of ['none', 'all', 'frequent']) {
      const tok = smallTokenizer({ profile, fuse });
      const byteIds = functok.BYTE_TOKENS.map((t) => tok.tokenToId(t));
      const bytes = (s) => Array.from(new TextEncoder().encode(s), (b) => byteIds[b]);
      for (const text of texts(6, Math.ceil(COUNT / 6), special)) {
        const ids = tok.encode(text.replace(/[\ud800-\udfff]/g, ''), { allowedSpecial: 'all' }).ids;
        const at = Math.floor(r() * (ids.length + 1));
        const lists = [
          ids,
          // byte-fallback runs (a character of 2, 3 and 4 bytes; an instruction; a cut run)
          [...ids.slice(0, at), ...bytes('\u00e9\u4e2d\ud83d\ude00'), ...bytes('\ue100'), ...ids.slice(at)],
          [...ids.slice(0, at), ...bytes('\u4e2d').slice(0, 2), ...ids.slice(at)],
          // damaged: an unknown id, any id (instructions out of place), an id lost
          [...ids.slice(0, at), tok.vocabSize + 3, ...ids.slice(at)],
          [...ids.slice(0, at), Math.floor(r() * tok.vocabSize), Math.floor(r() * tok.vocabSize), ...ids.slice(at)],
          ids.filter((_, k) => k !== at),
        ];
        for (const list of lists) {
          for (const options of [{}, { errors: 'replace' }, { skipSpecialTokens: true }, { errors: 'replace', maxOutput: 7 }, { maxOutput: 7 }]) {
            const both = onBoth(() => streamed(tok, list, options), `${profile} ${fuse} ${JSON.stringify(options)} ${JSON.stringify(list)}`);
            const whole = outcome(() => tok.decode(list, options));
            const last = both.value.at(-1);
            if (whole.error === undefined) assert.equal(both.value.map((t) => t ?? '').join(''), whole.value, 'DecodeStream is Tokenizer.decode');
            else assert.equal(last.error?.kind ?? last.error?.class, whole.error.kind ?? whole.error.class, 'the same first error');
          }
        }
      }
    }
  }
});

/** A Hugging Face tokenizer.json of the fixtures (byte fallback, no pre-tokenizer), with changes. */
const hfFile = (changes = {}) => {
  const hf = JSON.parse(FILES.bases['hf.json']);
  return { ...hf, ...changes, model: { ...hf.model, ...(changes.model ?? {}) } };
};

test('loadHF and loadTiktoken: both merge rules, GPT-2 ranks, every segmentation', { skip }, () => {
  const metaspace = { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true };
  const vocabularies = {
    'hf.json': functok.loadHF(hfFile()),
    'hf.json, Metaspace, ignore_merges': functok.loadHF(hfFile({ pre_tokenizer: metaspace, model: { ignore_merges: true } })),
    'hf.json, no byte fallback': functok.loadHF(hfFile({ model: { byte_fallback: false } })),
    'r.tiktoken': functok.loadTiktoken(FILES.bases['r.tiktoken']),
    'GPT-2 ranks': functok.loadTiktoken(gpt2),
    'GPT-2 ranks, llama3 pattern': functok.loadTiktoken(gpt2, { pattern: 'llama3' }),
    'GPT-2 ranks, paper pattern': functok.loadTiktoken(gpt2, { pattern: 'paper' }),
  };
  const sample = [...texts(5, COUNT), ...FILES.texts, "don't WE'LL 's 're  \n\n x"];
  for (const [name, v] of Object.entries(vocabularies)) {
    for (const [k, text] of sample.entries()) {
      onBoth(() => v.encode(text, MODES[k % MODES.length]), `${name} ${JSON.stringify(MODES[k % MODES.length])} ${JSON.stringify(text)}`);
    }
    onBoth(() => v.encodePretokens(['ab', '', 'x y', '\u00e9'], { segmentation: 'optimal' }), `${name} encodePretokens`);
    onBoth(() => v.ids('hello'), `${name} ids`);
  }
});

test('segment: the conformance vectors\' character vocabularies', { skip }, () => {
  const vectors = JSON.parse(fixture('../../conformance/vectors/segment.json')).tests;
  for (const v of vectors) {
    const o = v.options;
    const vocabulary = new functok.Vocabulary({ tokens: o.tokens, merges: o.merges ?? [], specialTokens: o.special_tokens ?? [], byteFallback: o.byte_fallback ?? false });
    onBoth(() => functok.segment(v.input, vocabulary, { tieBreak: o.tie_break, reachableOnly: o.reachable_only }), v.id);
    onBoth(() => vocabulary.greedy(v.input), `${v.id} greedy`);
  }
});
