// The conformance suite, two ways:
// 1. every vector of conformance/vectors/, sent to js/bin/conformance.mjs over the runner protocol
//    (conformance/PROTOCOL.md) and judged as conformance/INTERPRETING.md says, in Node alone;
// 2. the Python runner itself (`python -m functok.conformance --command ...`), when
//    FUNCTOK_PYTHON names a Python that can import functok.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const JS = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(JS, '..');
const VECTORS = join(ROOT, 'conformance', 'vectors');
const SPEC_VERSION = JSON.parse(readFileSync(join(ROOT, 'spec', 'opcodes.json'), 'utf8')).spec_version;
const ADAPTER = join(JS, 'bin', 'conformance.mjs');
// the protocol version the suite states (conformance/PROTOCOL.md: "**Protocol version X.Y.Z.**")
const PROTOCOL_VERSION = readFileSync(join(ROOT, 'conformance', 'PROTOCOL.md'), 'utf8')
  .match(/\*\*Protocol version (\d+\.\d+\.\d+)\.\*\*/)[1];
const DEFAULTS = { normalize: 'nfc', splitter: 'llama3', split_operators: true, errors: 'strict', max_output: 2 ** 26, profile: 'paper' };

function loadVectors() {
  const out = [];
  for (const f of readdirSync(VECTORS).filter((x) => x.endsWith('.json')).sort()) {
    for (const t of JSON.parse(readFileSync(join(VECTORS, f), 'utf8')).tests) out.push({ file: f, ...t });
  }
  return out;
}

/** A session with the adapter: send(request) resolves with the answer line, parsed. */
function session() {
  const child = spawn(process.execPath, [ADAPTER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()(JSON.parse(line)));
  return {
    send(request) {
      return new Promise((resolve) => { waiting.push(resolve); child.stdin.write(JSON.stringify(request) + '\n'); });
    },
    kill() { child.kill(); },
    stop() {
      return new Promise((resolve) => { child.on('exit', resolve); child.stdin.write('{"cmd": "stop"}\n'); child.stdin.end(); });
    },
  };
}

function judgePiece(want, got) {
  for (const k of Object.keys(want)) assert.deepEqual(got[k], want[k], `piece field ${k}`);
}

test('every vector passes through the protocol adapter', async (t) => {
  const s = session();
  t.after(() => s.kill()); // a failed assertion must not leave the adapter running
  const hello = await s.send({ cmd: 'start', protocol_version: PROTOCOL_VERSION });
  assert.equal(hello.protocol_version, PROTOCOL_VERSION);
  assert.deepEqual(hello.spec_versions, [SPEC_VERSION]);
  let seq = 0;
  const counts = {};
  for (const v of loadVectors()) {
    const options = { ...DEFAULTS, ...(v.options ?? {}) };
    const ask = async (opts) => {
      const a = await s.send({ cmd: 'run', seq: ++seq, vector: { id: v.id, op: v.op, input: v.input, options: opts } });
      assert.equal(a.seq, seq);
      assert.ok(a.result, `${v.id}: ${a.errored ?? a.skipped}`);
      return a.result;
    };
    const r = await ask(options);
    if (v.error) {
      assert.deepEqual(r.error, v.error, v.id);
      if (v.op === 'decode') {
        const lenient = await ask({ ...options, errors: 'replace' });
        assert.equal(lenient.output, v.lenient, `${v.id} lenient`);
      }
    } else if (v.op === 'pieces') {
      assert.equal(r.output.length, v.expected.length, v.id);
      v.expected.forEach((p, k) => judgePiece(p, r.output[k]));
    } else {
      assert.deepEqual(r.output, v.expected, v.id);
    }
    counts[v.op] = (counts[v.op] ?? 0) + 1;
  }
  await s.stop();
  console.log(`# passed per op: ${JSON.stringify(counts)}`);
});

const PYTHON = process.env.FUNCTOK_PYTHON;
test('the Python runner reports 0 failed', { skip: !PYTHON && 'set FUNCTOK_PYTHON' }, () => {
  const r = spawnSync(PYTHON, ['-m', 'functok.conformance', '--command', `"${process.execPath}" js/bin/conformance.mjs`],
    { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, / 0 failed, 0 skipped/);
});
