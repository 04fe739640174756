// `npm pack` of js/ and an offline install of the tarball into an empty folder, as a user
// would get it: shared by package.test.mjs and e2e/browser.test.mjs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as local from '../src/index.mjs';

export const JS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Pack js/ into a temp folder: { tarball, files (paths in the tarball), pack (npm's JSON) }. */
export function pack() {
  const out = mkdtempSync(join(tmpdir(), 'functok-pack-'));
  const [info] = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', out], { cwd: JS, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  return { tarball: join(out, info.filename), files: info.files.map((f) => f.path), pack: info };
}

/** Install the tarball offline into a new empty project; returns its folder. */
export function installed(tarball) {
  const app = mkdtempSync(join(tmpdir(), 'functok-app-'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  return app;
}

/** A minimal functok tokenizer file: the 256 byte tokens and a few characters. */
export function smallFile() {
  const tokens = [...local.BYTE_TOKENS, ...'abcdefghijklmnopqrstuvwxyz HW', '\ue100', '\ue000', '\ue102', '\ue001', '\ue006'];
  return { functok: { format_version: 1, spec_version: local.SPEC_VERSION, splitter: 'llama3', normalize: 'nfc', split_operators: true },
    tokenizer: { model: { type: 'BPE', byte_fallback: true, vocab: Object.fromEntries(tokens.map((t, i) => [t, i])), merges: [] }, added_tokens: [] } };
}
