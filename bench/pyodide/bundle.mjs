// Measures the wasm bundle: cold load time in Node, bundle size, and codec encode throughput
// under Pyodide as a ratio to CPython on the same text in the same run (goal: 0.25x or better).
//
//   npm run build && npm run bench         (or: node bench/pyodide/bundle.mjs [--profile])
//
// --profile prints the top of a cProfile run of encode inside Pyodide.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { codeDocuments, udhrDocuments } from "../../wasm/test/corpus.mjs";
import { DIST, loadBuilt, python, ROOT } from "../../wasm/test/helpers.mjs";

// The timing code both interpreters run: imported inside Pyodide, run as a script by CPython.
const BENCH_ENCODE = new URL("./bench_encode.py", import.meta.url);

// Best of RUNS: the machine is shared, and the minimum is the least disturbed run.
const RUNS = 5;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

// Seconds from a fresh Node process's start to a loaded functok, median of three.
function freshProcessLoadSeconds() {
  const entry = pathToFileURL(join(DIST, "functok.mjs")).href;
  const script = `const { loadFunctok } = await import(${JSON.stringify(entry)}); await loadFunctok();
    console.log(performance.now() / 1000);`;
  const times = [0, 1, 2].map(() => Number(execFileSync(process.execPath, ["--input-type=module", "-e", script]).toString()));
  return times.sort((a, b) => a - b)[1];
}

function bundleSize() {
  let raw = 0;
  let gzip = 0;
  for (const path of files(DIST)) {
    const bytes = readFileSync(path);
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  return { raw, gzip };
}

// Every 8th UDHR translation (about 70 languages) and the package's own code.
function benchText() {
  const udhr = udhrDocuments(3000).filter((_, i) => i % 8 === 0);
  return [...udhr, ...codeDocuments()].map((doc) => doc.text).join("\n\n");
}

// Times encode inside Pyodide with the same Python code as CPython (bench_encode.py), so the
// figure compares interpreters, not the JavaScript boundary.
function pyodideSeconds(functok, text) {
  functok.writeFile("/tmp/bench/bench_encode.py", readFileSync(BENCH_ENCODE, "utf8"));
  functok.pyodide.globals.set("bench_text", text);
  const [cold, warm] = functok.pyodide
    .runPython(`
import sys
sys.path.insert(0, "/tmp/bench")
from bench_encode import best_seconds
[best_seconds(bench_text, ${RUNS}, cold=True), best_seconds(bench_text, ${RUNS}, cold=False)]`)
    .toJs();
  return { cold, warm };
}

// The same timing in CPython, on functok from this checkout's python/ (C core where it is built).
function cpythonSeconds(text) {
  const out = execFileSync(python(), [fileURLToPath(BENCH_ENCODE), String(RUNS)], {
    input: text,
    maxBuffer: 1 << 20,
    env: { ...process.env, PYTHONPATH: join(ROOT, "python") },
  });
  return JSON.parse(out.toString("utf8"));
}

function boundarySeconds(functok, text) {
  let best = Infinity;
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    functok.encode(text);
    best = Math.min(best, (performance.now() - start) / 1000);
  }
  return best;
}

function profile(functok, text) {
  functok.pyodide.globals.set("bench_text", text);
  return functok.pyodide.runPython(`
import cProfile, io, pstats, functok
profiler = cProfile.Profile()
from bench_encode import clear_piece_caches
clear_piece_caches()
profiler.runcall(functok.encode, bench_text)
out = io.StringIO()
pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
out.getvalue()`);
}

async function main() {
  const start = performance.now();
  const { functok } = await loadBuilt();
  const loadSeconds = (performance.now() - start) / 1000;

  const text = benchText();
  const codePoints = Array.from(text).length;
  const reference = cpythonSeconds(text);
  const inPyodide = pyodideSeconds(functok, text);
  const throughJs = boundarySeconds(functok, text);
  const size = bundleSize();
  const freshLoad = freshProcessLoadSeconds();
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const rate = (seconds) => `${(codePoints / seconds / 1e3).toFixed(0)}k code points/s`;

  console.log(`bench text: ${codePoints} code points (UDHR sample + functok sources)`);
  console.log(`cold load (import + Pyodide + wheel, this process): ${loadSeconds.toFixed(2)} s`);
  console.log(`cold load (fresh node process, start to ready, median of 3): ${freshLoad.toFixed(2)} s`);
  console.log(`bundle: ${mib(size.raw)} on disk, ${mib(size.gzip)} gzipped`);
  console.log(`CPython ${reference.python.split(" ")[0]} encode: ${rate(reference.cold)} (new text), ${rate(reference.warm)} (piece cache warm)`);
  console.log(`Pyodide encode (inside Python): ${rate(inPyodide.cold)} (new text), ${rate(inPyodide.warm)} (piece cache warm)`);
  console.log(`Pyodide encode (through functok.mjs, warm): ${rate(throughJs)}`);
  console.log(`throughput ratio Pyodide/CPython, new text: ${(reference.cold / inPyodide.cold).toFixed(2)}x (goal 0.25x)`);
  console.log(`throughput ratio Pyodide/CPython, warm cache: ${(reference.warm / inPyodide.warm).toFixed(2)}x`);
  console.log(`throughput ratio through functok.mjs/CPython, warm cache: ${(reference.warm / throughJs).toFixed(2)}x`);
  if (process.argv.includes("--profile")) console.log(profile(functok, text));
}

await main();
