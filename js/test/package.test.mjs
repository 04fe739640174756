// A real package (issue 14, item 7): `npm pack` gives a tarball with exports, types, files, a
// license and the version; installed offline into an empty folder, it works from Node ESM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JS, pack, installed, smallFile } from './pack.mjs';
import * as local from '../src/index.mjs';

const manifest = JSON.parse(readFileSync(join(JS, 'package.json'), 'utf8'));

test('package.json: name, version, license, exports, types, files; no runtime dependencies', () => {
  assert.equal(manifest.name, 'functok');
  assert.equal(manifest.version, local.VERSION);
  assert.equal(manifest.license, 'Apache-2.0');
  assert.equal(manifest.type, 'module');
  assert.equal(manifest.exports['.'].types, './index.d.ts');
  assert.equal(manifest.exports['.'].default, './src/index.mjs');
  assert.equal(manifest.exports['./codec'].default, './src/codec.mjs');
  assert.equal(manifest.types, './index.d.ts');
  assert.deepEqual(Object.keys(manifest.dependencies ?? {}), []);
});

test('npm pack, offline install into an empty folder, use from Node ESM', { timeout: 120_000 }, () => {
  const { tarball, files } = pack();
  for (const f of ['package.json', 'index.d.ts', 'LICENSE', 'README.md', 'src/index.mjs', 'src/tables.mjs', 'src/tokenizer/tokenizer.mjs', 'src/tokenizer/external.mjs']) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  assert.ok(!files.some((f) => f.startsWith('test/') || f.startsWith('bench/') || f.startsWith('tools/')), 'no tests, benchmarks or tools');
  const app = installed(tarball);
  const tokenizer = JSON.parse(local.Tokenizer.fromJSON(smallFile()).toStr());
  writeFileSync(join(app, 'tokenizer.json'), JSON.stringify(tokenizer));
  writeFileSync(join(app, 'main.mjs'), `
import { encode, decode, pieces, FormatError, Tokenizer, DecodeStream, VERSION, SPEC_VERSION, engine } from 'functok';
import manifest from 'functok/package.json' with { type: 'json' };
import * as codec from 'functok/codec';
if (codec.encode('Héllo World') !== encode('Héllo World') || 'Tokenizer' in codec || 'engine' in codec) throw new Error('functok/codec is the codec alone');
const tok = Tokenizer.fromFile('tokenizer.json');
const ids = tok.encode('Héllo World', { segmentation: 'optimal' }).ids;
let error = null;
try { decode('ab\\uefff'); } catch (e) { error = e instanceof FormatError ? [e.kind, e.offset] : String(e); }
console.log(JSON.stringify({ stream: encode('Héllo World'), back: decode(encode('Héllo World')), n: pieces('a b').length,
  text: tok.decode(ids), error, VERSION, SPEC_VERSION, version: manifest.version, engine: engine() }));
`);
  const out = JSON.parse(execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8' }));
  assert.deepEqual(out, { stream: local.encode('Héllo World'), back: 'Héllo World', n: 2, text: 'Héllo World',
    error: ['escape-at-end', 2], VERSION: local.VERSION, SPEC_VERSION: local.SPEC_VERSION, version: manifest.version,
    engine: local.engine() }); // the tarball carries the wasm core (prepack embeds it) when this checkout has it
});
