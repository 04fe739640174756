// Errors of decode, bounded on hostile streams: strict decoding keeps only the first error
// and stops after its unit, lenient decoding keeps none, and a text is split into slots only for
// its first 256. What must not change: strict decoding's error is the first (spec 8.2) of the
// errors the lenient decoder acts on (decodeWithErrors), the lenient text is the same, and both
// equal the Python reference's on damaged streams: encoded text with code points inserted,
// deleted and replaced, long texts with escapes and surrogates past slot 255, stacked marks and
// repeats that push slots past 255.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode, encode, FormatError } from '../src/index.mjs';
import { decodeWithErrors } from '../src/decoding.mjs';
import { firstError } from '../src/errors.mjs';
import { prng, randomText, randomSoup } from './gen.mjs';
import { PYTHON, NO_PYTHON, REPO } from './python.mjs';

const COUNT = Number(process.env.FUNCTOK_DIFF_COUNT || 1000);
const pick = (r, list) => list[Math.floor(r() * list.length)];
const int = (r, n) => Math.floor(r() * n);

// Code points that damage a stream: instructions, small and large arguments, ESCAPE, surrogates.
const DAMAGE = ['\ue000', '\ue001', '\ue003', '\ue0ff', '\ue0fe', '\ue100', '\ue102', '\ue10d', '\ue10e', '\ue110',
  '\ue200', '\ue201', '\ue300', '\uefff', '\ud800', '\udc00', 'a', ' ', '\u0301'];

/** A group: random instructions, often well-formed, with arguments up to 255. */
function randomGroup(r) {
  const out = [];
  const arg = () => String.fromCharCode(0xe000 + (r() < 0.7 ? int(r, 8) : 250 + int(r, 6)));
  for (let k = 1 + int(r, 5); k > 0; k--) {
    const op = pick(r, ['\ue100', '\ue102', '\ue105', '\ue107', '\ue110', '\ue200', '\ue201', '\ue300', '\ue000']);
    const arity = { '\ue110': 2, '\ue200': 2, '\ue201': 3, '\ue300': 0, '\ue000': 0 }[op] ?? 1;
    out.push(op);
    for (let a = 0; a < arity; a++) out.push(arg());
  }
  if (r() < 0.2) out.push('\ue102\ue000'.repeat(2 + int(r, 5))); // stacked marks on slot 0
  return out.join('');
}

/** A text of up to 600 slots, with escapes, pairs and lone surrogates anywhere. */
function randomLongText(r) {
  const out = [];
  for (let k = int(r, 600); k > 0; k--) {
    const t = r();
    if (t < 0.02) out.push('\uefff' + pick(r, ['\ue000', '\uefff', '\ud83d\ude00', '\u4e2d']));
    else if (t < 0.03) out.push(pick(r, ['\ud800', '\udfff']));
    else if (t < 0.04) out.push('\ud83d\ude00');
    else out.push(pick(r, ['a', 'b', 'i', 'e', ' ', '\u00e9', '\u4e2d']));
  }
  if (r() < 0.05) out.push('\uefff');
  return out.join('');
}

/** An encoded text, damaged a few times; or groups with long texts. */
function damagedStream(r) {
  if (r() < 0.4) return Array.from({ length: 1 + int(r, 3) }, () => randomGroup(r) + randomLongText(r)).join('');
  const cps = Array.from(r() < 0.2 ? randomSoup(r) : encode(randomText(r, 60)));
  for (let k = int(r, 4); k > 0; k--) {
    const at = int(r, cps.length + 1);
    const how = r();
    if (how < 0.4) cps.splice(at, 0, pick(r, DAMAGE));
    else if (how < 0.7) cps.splice(at, 1);
    else cps.splice(at, 1, pick(r, DAMAGE));
  }
  return cps.join('');
}

function outcome(f) {
  try { return { text: f() }; } catch (e) {
    if (e instanceof FormatError) return { error: [e.kind, e.offset] };
    throw e;
  }
}

const streams = (seed) => {
  const r = prng(seed);
  return Array.from({ length: COUNT }, () => damagedStream(r));
};

test('strict decoding reports the first of the errors lenient decoding acts on, and lenient text is unchanged', () => {
  for (const s of streams(20261201)) {
    for (const maxOutput of [undefined, 40]) {
      const options = maxOutput === undefined ? {} : { maxOutput };
      const { text, errors } = decodeWithErrors(s, options);
      const ctx = JSON.stringify(s);
      assert.equal(decode(s, { ...options, errors: 'replace' }), text, ctx);
      const strict = outcome(() => decode(s, options));
      if (errors.length === 0) assert.deepEqual(strict, { text }, ctx);
      else {
        const first = firstError(errors);
        assert.deepEqual(strict, { error: [first.kind, first.offset] }, ctx);
      }
    }
  }
});

test('strict errors and lenient text equal the Python reference on damaged streams', { skip: NO_PYTHON }, () => {
  const cases = streams(20261202);
  const dir = mkdtempSync(join(tmpdir(), 'functok-decode-'));
  const file = join(dir, 'streams.json');
  writeFileSync(file, JSON.stringify(cases));
  const script = String.raw`
import json, sys, functok
def attempt(f):
    try:
        return {"text": f()}
    except functok.FormatError as e:
        return {"error": [e.kind, e.offset]}
out = [{"strict": attempt(lambda: functok.decode(s)), "replace": functok.decode(s, errors="replace"),
         "small": attempt(lambda: functok.decode(s, max_output=40)),
         "small-replace": functok.decode(s, errors="replace", max_output=40)}
       for s in json.load(open(sys.argv[1], encoding="utf-8", errors="surrogatepass"))]
sys.stdout.buffer.write(json.dumps(out).encode())
`;
  const env = { ...process.env, PYTHONPATH: join(REPO, 'python') };
  const r = spawnSync(PYTHON, ['-c', script, file], { encoding: 'utf8', env, maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  const want = JSON.parse(r.stdout);
  cases.forEach((s, k) => {
    const ctx = JSON.stringify(s);
    assert.deepEqual(outcome(() => decode(s)), want[k].strict, `strict ${ctx}`);
    assert.equal(decode(s, { errors: 'replace' }), want[k].replace, `replace ${ctx}`);
    assert.deepEqual(outcome(() => decode(s, { maxOutput: 40 })), want[k].small, `maxOutput ${ctx}`);
    assert.equal(decode(s, { errors: 'replace', maxOutput: 40 }), want[k]['small-replace'], `maxOutput replace ${ctx}`);
  });
});

test('a stream of only junk is one strict error and an empty lenient text, however long', () => {
  for (const junk of ['\ue000', '\ue300', '\ue0ff\ue3ff']) {
    const s = junk.repeat(100_000);
    assert.throws(() => decode(s), (e) => e.kind === (junk === '\ue300' ? 'unknown-opcode' : 'stray-argument') && e.offset === 0);
    assert.equal(decode(s, { errors: 'replace' }), '');
    assert.equal(decodeWithErrors(s).errors.length, s.length); // each is an error when all are recorded
  }
});
