// The conformance suite, on the engine this process runs (src/engine.mjs: the wasm core by
// default, the JavaScript reference with FUNCTOK_PURE=1; the adapter inherits the choice), two ways:
// 1. every vector of conformance/vectors/, sent to js/bin/conformance.mjs over the runner protocol
//    (conformance/PROTOCOL.md) and judged as conformance/INTERPRETING.md says, in Node alone;
// 2. the Python runner itself (`python -m functok.conformance --command ...`), when
//    FUNCTOK_PYTHON names a Python that can import functok.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { judgeVectors } from './vectors.mjs';
import { engine } from '../src/index.mjs';

const JS = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(JS, '..');
const ADAPTER = join(JS, 'bin', 'conformance.mjs');

test('the adapter runs on this process\'s engine and says so', () => {
  const r = spawnSync(process.execPath, [ADAPTER, '--version'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`engine: ${engine()}\\)`));
});

test('every vector passes through the protocol adapter', async (t) => {
  const counts = await judgeVectors(t, ADAPTER);
  assert.ok(Object.keys(counts).length >= 8, `every op is answered: ${JSON.stringify(counts)}`);
  console.log(`# passed per op: ${JSON.stringify(counts)}`);
});

const PYTHON = process.env.FUNCTOK_PYTHON;
test('the Python runner reports 0 failed', { skip: !PYTHON && 'set FUNCTOK_PYTHON' }, () => {
  const r = spawnSync(PYTHON, ['-m', 'functok.conformance', '--command', `"${process.execPath}" js/bin/conformance.mjs`],
    { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, / 0 failed, 0 skipped/);
});
