// The CPython side of the JS tests: js/test/python_side.py through $FUNCTOK_PYTHON, with this
// checkout's python/ first on the path. Tests that need it skip without FUNCTOK_PYTHON.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(HERE, '../..');
export const PYTHON = process.env.FUNCTOK_PYTHON || null;
export const NO_PYTHON = PYTHON ? false : 'set FUNCTOK_PYTHON to a Python with functok importable';

/** Answer of one python_side.py task. */
export function python(task, request) {
  const env = { ...process.env, PYTHONPATH: [join(REPO, 'python'), process.env.PYTHONPATH].filter(Boolean).join(':'), PYTHONIOENCODING: 'utf-8' };
  const r = spawnSync(PYTHON, [join(HERE, 'python_side.py'), task], { input: JSON.stringify(request), encoding: 'utf8', env, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`python_side.py ${task} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** SHA-256 of compact JSON, as python_side.py's digest (ensure_ascii=False, UTF-8, surrogates kept). */
export function digest(value) {
  return createHash('sha256').update(Buffer.from(wtf8(JSON.stringify(value)))).digest('hex');
}

/** UTF-8 with lone surrogates encoded as themselves (Python's "surrogatepass"). */
function wtf8(s) {
  const out = [];
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Uint8Array.from(out);
}
