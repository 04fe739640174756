#!/usr/bin/env node
// Builds the C core (native/core/, without the CPython binding), exports.c (the codec's exports)
// and engine.c (the tokenizer engine's: BPE, tiktoken's merge, the segmenter, the caches and the
// detokenizer), with alloc.c (malloc and free in place of zig's allocator, see there), into
// native/wasm/build/functok-core.wasm with `zig cc` from the ziglang package on PyPI (the dev
// extra installs it). The module imports nothing (no WASI shim needed): it runs in Node and in
// browsers as is. The build folder is not committed: the core changes with every native/core
// commit, and a committed binary would need a rebuild and a freshness check on each of them.
//
// Which zig: $FUNCTOK_ZIG (a command, e.g. "zig" or "python -m ziglang"), else `-m ziglang` of
// $FUNCTOK_PYTHON, of the repository's .venv, or of python3.
// Run: node native/wasm/build.mjs [--quiet]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
export const WASM_PATH = join(here, 'build', 'functok-core.wasm');

// The core's files (native/core/; the CPython binding, native/python/, stays out).
export const CORE_SOURCES = ['cpbuf', 'ucd', 'normalize', 'splitting', 'encoding', 'pretokens', 'decoding', 'bpe', 'vocab',
  'tokenizer', 'segment', 'detokenize']
  .map((name) => join(root, 'native', 'core', `${name}.c`));
const EXPORTS = ['malloc', 'free', 'realloc', 'fk_init', 'fk_answer', 'fk_answer_free', 'fk_encode', 'fk_pretokens', 'fk_split', 'fk_decode',
  'fk_engine_new', 'fk_engine_free', 'fk_engine_clear_caches', 'fk_engine_chars', 'fk_engine_merges', 'fk_engine_bytes',
  'fk_engine_ranks', 'fk_engine_segmenter', 'fk_engine_encode', 'fk_table_new', 'fk_table_free', 'fk_table_decode'];
const GLUE = ['exports.c', 'engine.c', 'alloc.c'].map((name) => join(here, name));

function zigCommand() {
  if (process.env.FUNCTOK_ZIG) return process.env.FUNCTOK_ZIG.split(/\s+/).filter(Boolean);
  const venv = join(root, '.venv', 'bin', 'python');
  const python = process.env.FUNCTOK_PYTHON || (existsSync(venv) ? venv : 'python3');
  return [python, '-m', 'ziglang'];
}

/** Build the module; returns its path. Throws with zig's message when the build fails. */
export function build({ quiet = false } = {}) {
  mkdirSync(dirname(WASM_PATH), { recursive: true });
  const [command, ...prefix] = zigCommand();
  const args = [...prefix, 'cc', '--target=wasm32-wasi', '-std=c11', '-O2', '-Wall', '-Wextra',
    '-s', // no debug sections: 90 KB instead of 1 MB
    '-mexec-model=reactor', // a library: no main, and _initialize runs the C runtime's constructors
    '-Wl,-z,stack-size=1048576', // 1 MiB of stack, not zig's 16 MiB: a page's memory starts at 2 MB, not 17
    // (the core keeps nothing large on the stack; its one recursion, NFC's decomposition, stops at 32 deep)
    ...EXPORTS.map((name) => `-Wl,--export=${name}`),
    '-o', WASM_PATH, ...GLUE, ...CORE_SOURCES];
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  if (run.error) throw new Error(`cannot run ${command} (install ziglang from PyPI, or set FUNCTOK_ZIG): ${run.error.message}`);
  if (run.status !== 0) throw new Error(`zig cc failed (${command} ${args.join(' ')}):\n${run.stderr}`);
  if (run.stderr) process.stderr.write(run.stderr); // warnings: the core builds without any
  if (!quiet) {
    const kb = (statSync(WASM_PATH).size / 1024).toFixed(0);
    console.log(`built ${WASM_PATH} (${kb} KB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return WASM_PATH;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) build({ quiet: process.argv.includes('--quiet') });
