// Differential test against the Python reference, when one is available:
//   FUNCTOK_PYTHON=/path/to/python (with functok importable) node --test js/test/
// Seeded random texts and stream soup; every op's output must be identical, under the default
// profile and under every option set of spec 1.1.0 (OPTIONS).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as functok from '../src/index.mjs';
import { prng, randomText, randomSoup } from './gen.mjs';

const PYTHON = process.env.FUNCTOK_PYTHON;
const COUNT = Number(process.env.FUNCTOK_DIFF_COUNT || 1000);

const SCRIPT = String.raw`
import json, sys, functok
def attempt(f):
    try:
        return {"ok": f()}
    except functok.FormatError as e:
        return {"error": [e.kind, e.offset]}
cases = json.load(open(sys.argv[1]))
out = []
for text in cases["texts"]:
    r = {}
    for norm in ("nfc", None):
        for sp in ("llama3", "paper"):
            k = f"{norm}-{sp}"
            r["encode-" + k] = attempt(lambda: functok.encode(text, normalize=norm, splitter=sp))
            r["pretokens-" + k] = attempt(lambda: functok.pretokens(text, normalize=norm, splitter=sp))
            r["pieces-" + k] = attempt(lambda: [[p.text, p.start, p.end, [str(i) for i in p.instructions], p.base, list(p.slot_starts)] for p in functok.pieces(text, normalize=norm, splitter=sp)])
    r["split"] = functok.split(text)
    for off in ("case", "marks", "repeat"):
        r["features-" + off] = attempt(lambda: functok.encode(text, features={"case", "marks", "repeat"} - {off}))
        r["features-compact-" + off] = attempt(lambda: functok.encode(text, profile="compact", features={"case", "marks", "repeat"} - {off}))
    for name, o in cases["options"].items():
        for norm, sp in cases["combos"][name]:
            k = f"{name}-{norm}-{sp}"
            r["encode-" + k] = attempt(lambda: functok.encode(text, normalize=norm, splitter=sp, **o))
            r["pretokens-" + k] = attempt(lambda: functok.pretokens(text, normalize=norm, splitter=sp, **o))
            r["pretokens-joined-" + k] = attempt(lambda: functok.pretokens(text, normalize=norm, splitter=sp, split_operators=False, **o))
            r["pieces-" + k] = attempt(lambda: [[p.text, p.start, p.end, [str(i) for i in p.instructions], p.base, list(p.slot_starts)] for p in functok.pieces(text, normalize=norm, splitter=sp, **o)])
    out.append(r)
soup = []
for s in cases["soup"]:
    soup.append({"strict": attempt(lambda: functok.decode(s)), "replace": functok.decode(s, errors="replace"),
                 "small": attempt(lambda: functok.decode(s, max_output=20))})
# json.dumps, not json.dump: dump streams through the pure-Python encoder, about 10x slower here.
sys.stdout.write(json.dumps({"texts": out, "soup": soup}))
`;

// The encoder options of spec 1.1.0 (6.6), each with the (normalize, splitter) pairs it is run
// with: the profile compact under all four, the single overrides under two.
const ALL = [['nfc', 'llama3'], ['nfc', 'paper'], [null, 'llama3'], [null, 'paper']];
const TWO = [['nfc', 'llama3'], [null, 'paper']];
const OPTIONS = {
  compact: [{ profile: 'compact' }, ALL],
  paper: [{ profile: 'paper' }, TWO],
  'no-whitespace': [{ fold: 'no-whitespace' }, ALL],
  none: [{ fold: 'none' }, TWO],
  range: [{ case: 'range' }, ALL],
  'compact-all': [{ profile: 'compact', fold: 'all' }, TWO],
  'compact-no-whitespace': [{ profile: 'compact', fold: 'no-whitespace' }, TWO],
  'compact-capitalize': [{ profile: 'compact', case: 'capitalize' }, TWO],
  'no-whitespace-range': [{ fold: 'no-whitespace', case: 'range' }, TWO],
};

function attempt(f) {
  try { return { ok: f() }; } catch (e) {
    if (e instanceof functok.FormatError) return { error: [e.kind, e.offset] };
    throw e;
  }
}

test('identical to the Python reference on random text and stream soup', { skip: !PYTHON && 'set FUNCTOK_PYTHON' }, () => {
  const r = prng(20261130);
  const texts = Array.from({ length: COUNT }, () => randomText(r));
  const soup = Array.from({ length: COUNT }, () => randomSoup(r));
  const dir = mkdtempSync(join(tmpdir(), 'functok-diff-'));
  const file = join(dir, 'cases.json');
  const options = Object.fromEntries(Object.entries(OPTIONS).map(([k, [o]]) => [k, o]));
  const combos = Object.fromEntries(Object.entries(OPTIONS).map(([k, [, c]]) => [k, c]));
  writeFileSync(file, JSON.stringify({ texts, soup, options, combos }));
  const py = spawnSync(PYTHON, ['-c', SCRIPT, file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(py.status, 0, py.stderr);
  const expected = JSON.parse(py.stdout);
  texts.forEach((text, k) => {
    const want = expected.texts[k];
    for (const normalize of ['nfc', null]) {
      for (const splitter of ['llama3', 'paper']) {
        const key = `${normalize === null ? 'None' : normalize}-${splitter}`;
        const o = { normalize, splitter };
        const ctx = `${key} ${JSON.stringify(text)}`;
        assert.deepEqual(attempt(() => functok.encode(text, o)), want[`encode-${key}`], `encode ${ctx}`);
        assert.deepEqual(attempt(() => functok.pretokens(text, o)), want[`pretokens-${key}`], `pretokens ${ctx}`);
        const mine = attempt(() => functok.pieces(text, o).map((p) => [p.text, p.start, p.end,
          p.instructions.map(String), p.base, p.slotStarts]));
        assert.deepEqual(mine, want[`pieces-${key}`], `pieces ${ctx}`);
      }
    }
    assert.deepEqual(functok.split(text), want.split, `split ${JSON.stringify(text)}`);
    for (const off of ['case', 'marks', 'repeat']) {
      const features = functok.FEATURES.filter((f) => f !== off);
      assert.deepEqual(attempt(() => functok.encode(text, { features })), want[`features-${off}`], `features ${off} ${JSON.stringify(text)}`);
      assert.deepEqual(attempt(() => functok.encode(text, { features, profile: 'compact' })), want[`features-compact-${off}`],
        `features ${off} compact ${JSON.stringify(text)}`);
    }
    for (const [name, [options, pairs]] of Object.entries(OPTIONS)) {
      for (const [normalize, splitter] of pairs) {
        const key = `${name}-${normalize === null ? 'None' : normalize}-${splitter}`;
        const o = { normalize, splitter, ...options };
        const ctx = `${key} ${JSON.stringify(text)}`;
        assert.deepEqual(attempt(() => functok.encode(text, o)), want[`encode-${key}`], `encode ${ctx}`);
        assert.deepEqual(attempt(() => functok.pretokens(text, o)), want[`pretokens-${key}`], `pretokens ${ctx}`);
        assert.deepEqual(attempt(() => functok.pretokens(text, { ...o, splitOperators: false })), want[`pretokens-joined-${key}`],
          `pretokens joined ${ctx}`);
        const mine = attempt(() => functok.pieces(text, o).map((p) => [p.text, p.start, p.end,
          p.instructions.map(String), p.base, p.slotStarts]));
        assert.deepEqual(mine, want[`pieces-${key}`], `pieces ${ctx}`);
      }
    }
  });
  soup.forEach((s, k) => {
    const want = expected.soup[k];
    const ctx = JSON.stringify(s);
    assert.deepEqual(attempt(() => functok.decode(s)), want.strict, `strict ${ctx}`);
    assert.equal(functok.decode(s, { errors: 'replace' }), want.replace, `replace ${ctx}`);
    assert.deepEqual(attempt(() => functok.decode(s, { maxOutput: 20 })), want.small, `max_output ${ctx}`);
  });
});
