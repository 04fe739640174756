#!/usr/bin/env node
// npm pack's prepack (js/package.json): puts the C core into the package as
// src/engine/wasm-module.mjs (tools/embed-wasm.mjs). It builds the core first with zig
// (native/wasm/build.mjs) only when native/wasm/build/functok-core.wasm is older than a file it
// is built from, and writes the module only when the module is older than the .wasm. In CI
// `npm run build` (the root) has just done both, and each test that packs
// (js/test/package.test.mjs, js/test/e2e/browser.test.mjs) would otherwise build it again:
// 10 s of CPU, a minute of wall clock on a loaded 2-core machine.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embed, MODULE_PATH } from './embed-wasm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const INPUT_FOLDERS = [join(root, 'native', 'core'), join(root, 'native', 'wasm')]; // their .c and .h files
const BUILD_SCRIPT = join(root, 'native', 'wasm', 'build.mjs');
const WASM = join(root, 'native', 'wasm', 'build', 'functok-core.wasm');

/** The newest modification time of the core's sources, headers and build script. */
function newestInput() {
  const inputs = [BUILD_SCRIPT, ...INPUT_FOLDERS.flatMap((dir) => readdirSync(dir).filter((f) => /\.[ch]$/.test(f)).map((f) => join(dir, f)))];
  return Math.max(...inputs.map((f) => statSync(f).mtimeMs));
}

const newer = (a, b) => existsSync(a) && statSync(a).mtimeMs > b;
const wasmFresh = newer(WASM, newestInput());
// Nothing to write when both are fresh: two packs at once (test files run side by side) then
// never rewrite the module while the other reads it into its tarball.
if (!wasmFresh || !newer(MODULE_PATH, statSync(WASM).mtimeMs)) await embed({ build: !wasmFresh, quiet: true });
