// Shared by the Node tests: where things are, loading the built bundle, and the CPython side.
//
// The tests run the bundle in wasm/dist/ (`npm run build` makes it) and compare its answers
// with CPython running the same functok sources in the same run: nothing is hard-coded from a
// previous run.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const WASM = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const ROOT = dirname(WASM);
export const DIST = join(WASM, "dist");
// The corpora are carried in the repository (corpora/), so a fresh clone reads them as CI does.
export const UDHR = resolve(ROOT, "corpora", "udhr");

/**
 * The engines the bundle runs functok on: the C core in WebAssembly (the default) and the
 * pure-Python reference (`loadFunctok({ pure: true })`). The cross-runtime tests run on each.
 */
export const ENGINES = ["wasm", "pure"];

/** loadBuilt on one of ENGINES; throws if functok reports another engine. */
export async function loadOn(engine) {
  const loaded = await loadBuilt({ pure: engine === "pure" });
  if (loaded.functok.engine !== engine) throw new Error(`asked for the ${engine} engine, functok runs on ${loaded.functok.engine}`);
  return loaded;
}

/** Imports dist/functok.mjs (the built copy, as a user would) and loads Pyodide. */
export async function loadBuilt(options = {}) {
  const entry = join(DIST, "functok.mjs");
  if (!existsSync(entry)) throw new Error("wasm/dist is missing: run `npm run build` first");
  const module = await import(pathToFileURL(entry).href);
  return { module, functok: await module.loadFunctok(options) };
}

export function python() {
  if (process.env.FUNCTOK_PYTHON) return process.env.FUNCTOK_PYTHON;
  const venv = join(ROOT, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

/** Runs wasm/test/cpython_side.py with one JSON request on stdin; returns its JSON answer. */
export function cpython(request) {
  const out = execFileSync(python(), [join(WASM, "test", "cpython_side.py")], {
    input: JSON.stringify(request),
    maxBuffer: 1 << 30,
    env: { ...process.env, PYTHONPATH: [join(ROOT, "python"), join(WASM)].join(":") },
  });
  return JSON.parse(out.toString("utf8"));
}

/** SHA-256 of a value's JSON, byte-for-byte what cpython_side.py's digest() computes. */
export function digest(value) {
  return createHash("sha256").update(JSON.stringify(value), "utf8").digest("hex");
}

/** Names the UDHR files (532: the repository carries them, so a missing file is a broken checkout). */
export function udhrFiles() {
  const names = readdirSync(UDHR).filter((name) => name.endsWith(".txt")).sort();
  if (names.length !== 532) throw new Error(`${UDHR} has ${names.length} UDHR files, not 532: a broken checkout`);
  return names;
}

export function readText(path) {
  return readFileSync(path, "utf8");
}
