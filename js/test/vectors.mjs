// The conformance suite's vectors sent to a protocol adapter (conformance/PROTOCOL.md) and
// judged as conformance/INTERPRETING.md says, in Node alone: js/test/conformance.test.mjs runs it
// on functok for JavaScript, native/wasm/test/ on the C core built to WebAssembly.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const VECTORS = join(ROOT, 'conformance', 'vectors');
const SPEC_VERSION = JSON.parse(readFileSync(join(ROOT, 'spec', 'opcodes.json'), 'utf8')).spec_version;
// the protocol version the suite states (conformance/PROTOCOL.md: "**Protocol version X.Y.Z.**")
const PROTOCOL_VERSION = readFileSync(join(ROOT, 'conformance', 'PROTOCOL.md'), 'utf8')
  .match(/\*\*Protocol version (\d+\.\d+\.\d+)\.\*\*/)[1];
const DEFAULTS = { normalize: 'nfc', splitter: 'llama3', split_operators: true, errors: 'strict', max_output: 2 ** 26, profile: 'paper' };

export function loadVectors() {
  const out = [];
  for (const f of readdirSync(VECTORS).filter((x) => x.endsWith('.json')).sort()) {
    for (const t of JSON.parse(readFileSync(join(VECTORS, f), 'utf8')).tests) out.push({ file: f, ...t });
  }
  return out;
}

/** A session with the adapter: send(request) resolves with the answer line, parsed. */
function session(adapter) {
  const child = spawn(process.execPath, [adapter], { stdio: ['pipe', 'pipe', 'inherit'] });
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

/**
 * Send every vector of the ops the adapter's handshake declares (all when it declares none) and
 * assert each result; `t` is the node:test context. Returns the passed count per op.
 */
export async function judgeVectors(t, adapter) {
  const s = session(adapter);
  t.after(() => s.kill()); // a failed assertion must not leave the adapter running
  const hello = await s.send({ cmd: 'start', protocol_version: PROTOCOL_VERSION });
  assert.equal(hello.protocol_version, PROTOCOL_VERSION);
  assert.deepEqual(hello.spec_versions, [SPEC_VERSION]);
  let seq = 0;
  const counts = {};
  for (const v of loadVectors()) {
    if (hello.ops && !hello.ops.includes(v.op)) continue; // the runner skips these without sending them
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
  return counts;
}
