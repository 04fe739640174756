// The C core built to WebAssembly (native/wasm/), held to functok for JavaScript (js/src):
// the conformance suite through the protocol, and a differential test on random text (every
// plane, the format's private-use range, marks, lone surrogates) under every option, and on
// random and damaged streams for the decoder. The module
// is built first when it is missing or older than its sources (zig cc: the ziglang package of
// the dev extra, or $FUNCTOK_ZIG); without zig these tests fail rather than skip.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import * as functok from '../../../js/src/codec.mjs'; // the reference (index.mjs runs on an engine)
import { prng, randomText, randomSoup } from '../../../js/test/gen.mjs';
import { HOSTILE, STOPS } from '../../../js/test/hostile.mjs';
import { judgeVectors, loadVectors } from '../../../js/test/vectors.mjs';
import { build, WASM_PATH, CORE_SOURCES } from '../build.mjs';
import { loadCore } from '../core.mjs';

const HERE = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(HERE, '..', '..');
const COUNT = Number(process.env.FUNCTOK_DIFF_COUNT || 1000);
let core;

before(async () => {
  const sources = [...CORE_SOURCES, ...['exports.c', 'engine.c', 'alloc.c', 'glue.h', 'build.mjs'].map((f) => join(HERE, f)), join(ROOT, 'native', 'core', 'core.h')];
  const built = existsSync(WASM_PATH) ? statSync(WASM_PATH).mtimeMs : 0;
  if (sources.some((f) => statSync(f).mtimeMs > built)) build({ quiet: true });
  core = await loadCore();
});

const OPS = ['encode', 'decode', 'pretokens', 'split'];

test('every encode, decode, pretokens and split vector passes through the protocol; the rest are not sent', async (t) => {
  const counts = await judgeVectors(t, join(HERE, 'conformance.mjs'));
  const want = {};
  for (const v of loadVectors()) if (OPS.includes(v.op)) want[v.op] = (want[v.op] ?? 0) + 1;
  assert.deepEqual(counts, want);
});

const PYTHON = process.env.FUNCTOK_PYTHON;
test('the Python runner reports 0 failed', { skip: !PYTHON && 'set FUNCTOK_PYTHON' }, () => {
  const r = spawnSync(PYTHON, ['-m', 'functok.conformance', '--command', `"${process.execPath}" native/wasm/conformance.mjs`],
    { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, / [1-9]\d* passed, 0 failed, /);
});

/** The result of f, or its error as [name, kind, offset, message]: the wasm core must throw what js/src throws. */
function attempt(f) {
  try { return { ok: f() }; } catch (e) { return { error: [e.constructor.name, e.kind, e.offset, e.message] }; }
}

// The option sets of spec 6.6 and the features, each with both splitters and both normalize modes.
const ENCODER_OPTIONS = [{}, { profile: 'compact' }, { fold: 'no-whitespace' }, { fold: 'none' }, { case: 'range' },
  { profile: 'compact', fold: 'all', case: 'capitalize' }, { features: ['marks', 'repeat'] }, { features: ['case'] },
  { features: [] }, { profile: 'compact', features: ['case', 'marks'] }];
const CALLS = [];
for (const o of ENCODER_OPTIONS) {
  for (const normalize of ['nfc', null]) {
    for (const splitter of ['llama3', 'paper']) CALLS.push({ ...o, normalize, splitter });
  }
}
const FUSES = [{}, { splitOperators: false }, { fuse: 'none' }, { fuse: 'all' }, { fuse: 'frequent' }];

function same(text, label) {
  const ctx = `${label} ${JSON.stringify(text)}`;
  for (const o of CALLS) {
    assert.deepEqual(attempt(() => core.encode(text, o)), attempt(() => functok.encode(text, o)), `encode ${JSON.stringify(o)} ${ctx}`);
  }
  for (const f of FUSES) {
    for (const o of [CALLS[0], CALLS[7], { profile: 'compact', ...f }]) {
      const call = { ...o, ...f };
      assert.deepEqual(attempt(() => core.pretokens(text, call)), attempt(() => functok.pretokens(text, call)), `pretokens ${JSON.stringify(call)} ${ctx}`);
    }
  }
  for (const splitter of ['llama3', 'paper']) {
    assert.deepEqual(attempt(() => core.split(text, { splitter })), attempt(() => functok.split(text, { splitter })), `split ${splitter} ${ctx}`);
  }
}

test('identical to functok for JavaScript on random text, every option', () => {
  const r = prng(20261204);
  for (let k = 0; k < COUNT; k++) same(randomText(r, k % 10 === 0 ? 400 : 40), `#${k}`);
});

/** The result of f, or its error as [name, kind, offset] (a decode error's message is the pure path's wording, not normative). */
function attemptDecode(f) {
  try { return { ok: f() }; } catch (e) { return { error: [e.constructor.name, e.kind, e.offset] }; }
}

const DECODE_OPTIONS = [{}, { errors: 'replace' }, { maxOutput: 20 }, { maxOutput: 0, errors: 'replace' }, { maxOutput: 2 ** 40 }];

test('decode: identical to functok for JavaScript on random streams, damaged streams and stream soup', () => {
  const r = prng(20261205);
  for (let k = 0; k < COUNT; k++) {
    const text = randomText(r, 40);
    const stream = functok.encode(text, k % 3 ? {} : { profile: 'compact' });
    const cut = Math.floor(r() * (stream.length + 1)); // damaged: a code unit dropped, a soup spliced in
    for (const s of [stream, stream.slice(0, cut) + stream.slice(cut + 1), stream.slice(0, cut) + randomSoup(r, 8) + stream.slice(cut), randomSoup(r, 40)]) {
      for (const o of DECODE_OPTIONS) {
        assert.deepEqual(attemptDecode(() => core.decode(s, o)), attemptDecode(() => functok.decode(s, o)), `decode ${JSON.stringify(o)} ${JSON.stringify(s)}`);
      }
    }
    if (k < 200) assert.equal(core.decode(core.encode(text)), functok.decode(functok.encode(text)), `round trip ${JSON.stringify(text)}`);
  }
});

test('decode: hostile streams (js/test/hostile.mjs) give js/src\'s output or error', () => {
  const n = 100_000;
  for (const [name, make, options, expected] of [...HOSTILE, STOPS]) {
    const s = make(n), o = typeof options === 'function' ? options(n) : options;
    const got = attemptDecode(() => core.decode(s, o));
    assert.deepEqual(got, attemptDecode(() => functok.decode(s, o)), name);
    if (expected !== null) assert.equal(got.ok, expected(n), name);
  }
});

test('lone surrogates: the same FormatError (lone-surrogate, offset) as js/src; split keeps them', () => {
  const r = prng(7);
  for (let k = 0; k < 200; k++) {
    const text = randomText(r, 30);
    const at = Math.floor(r() * (text.length + 1));
    const lone = String.fromCharCode(r() < 0.5 ? 0xd800 + Math.floor(r() * 0x400) : 0xdc00 + Math.floor(r() * 0x400));
    same(text.slice(0, at) + lone + text.slice(at), `surrogate at unit ${at}`);
  }
  assert.deepEqual(attempt(() => core.encode('a😀\udc00')).error.slice(0, 3), ['FormatError', 'lone-surrogate', 2]);
  // U+FFFD sends the text again as UTF-16 (TextEncoder writes it for a lone surrogate too)
  for (const text of ['a\ufffdb', '\ufffd\ud800', 'x\ud800\ufffd', '\ufffd😀\udfff', 'A\ufffd'.repeat(1000)]) same(text, 'U+FFFD');
  assert.equal(core.encode('A\ufffd'), functok.encode('A\ufffd'));
});

test('bad options and non-strings: the same TypeError as js/src', () => {
  const bad = [{ profile: 'nope' }, { fold: 'some' }, { case: 'upper' }, { features: ['case', 'bold'] }, { normalize: 'nfd' },
    { splitter: 'gpt2' }, { fuse: 'most' }, { errors: 'ignore' }, { maxOutput: -1 }, { maxOutput: 1.5 }, { maxOutput: 2 ** 60 }];
  for (const o of bad) {
    for (const op of OPS) {
      assert.deepEqual(attempt(() => core[op]('Hello', o)), attempt(() => functok[op]('Hello', o)), `${op} ${JSON.stringify(o)}`);
    }
  }
  for (const op of OPS) {
    for (const text of [42, null, undefined, ['a']]) {
      assert.deepEqual(attempt(() => core[op](text)), attempt(() => functok[op](text)), `${op} ${String(text)}`);
    }
  }
});

test('hostile text: long runs, private-use soup, stacked marks give js/src\'s output', () => {
  const n = 200_000;
  for (const text of ['a'.repeat(n), 'A'.repeat(n), '\ue000'.repeat(n), '\uefff'.repeat(n), 'e' + '\u0301'.repeat(n),
    '😀'.repeat(n / 2), ' '.repeat(n), '1'.repeat(n), 'ab'.repeat(n / 2), 'HTTPServer '.repeat(n / 11)]) {
    for (const o of [{}, { profile: 'compact' }]) {
      assert.equal(core.encode(text, o), functok.encode(text, o), `encode ${JSON.stringify(o)} ${JSON.stringify(text.slice(0, 12))}…`);
      assert.deepEqual(core.pretokens(text, { ...o, fuse: 'frequent' }), functok.pretokens(text, { ...o, fuse: 'frequent' }));
    }
    assert.deepEqual(core.split(text), functok.split(text));
  }
});

test('memory: every buffer is freed (200 calls of each kind do not grow the module\'s memory)', () => {
  const text = randomText(prng(3), 400).repeat(10); // about 17,000 UTF-16 units
  const stream = functok.encode(text, { profile: 'compact' });
  for (const op of ['encode', 'pretokens', 'split']) core[op](text, { profile: 'compact' });
  core.decode(stream);
  const size = core.memoryBytes;
  for (let k = 0; k < 200; k++) {
    core.encode(text);
    core.pretokens(text, { fuse: 'frequent' });
    core.split(text);
    attempt(() => core.encode(text + '\ud800'));
    core.decode(stream);
    attempt(() => core.decode('\ue000' + stream));
  }
  assert.equal(core.memoryBytes, size);
});
