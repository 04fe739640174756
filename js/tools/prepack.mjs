#!/usr/bin/env node
// npm pack's prepack (js/package.json): puts the C core into the package as
// src/engine/wasm-module.mjs (tools/embed-wasm.mjs), building it first with zig
// (native/wasm/build.mjs) unless native/wasm/build/functok-core.wasm is newer than every file it
// is built from. `npm run build` (the root) has just built it in CI, and each test that packs
// (js/test/package.test.mjs, js/test/e2e/browser.test.mjs) would otherwise build it again:
// 10 s of CPU, a minute of wall clock on a loaded 2-core machine.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embed } from './embed-wasm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const INPUT_FOLDERS = [join(root, 'native', 'src'), join(root, 'native', 'wasm')]; // their .c and .h files
const BUILD_SCRIPT = join(root, 'native', 'wasm', 'build.mjs');
const WASM = join(root, 'native', 'wasm', 'build', 'functok-core.wasm');

/** The newest modification time of the core's sources, headers and build script. */
function newestInput() {
  const inputs = [BUILD_SCRIPT, ...INPUT_FOLDERS.flatMap((dir) => readdirSync(dir).filter((f) => /\.[ch]$/.test(f)).map((f) => join(dir, f)))];
  return Math.max(...inputs.map((f) => statSync(f).mtimeMs));
}

const fresh = existsSync(WASM) && statSync(WASM).mtimeMs > newestInput();
await embed({ build: !fresh, quiet: true });
