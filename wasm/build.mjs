// Builds wasm/dist/, the self-contained folder that runs functok under Pyodide.  Offline: it uses
// only the local checkout, the venv's Python (for the wheel) and node_modules (for Pyodide).
//
//   npm ci && npm run build        (or: node wasm/build.mjs)
//
// Steps: 1. build the pure-Python functok wheel from a clean copy of the sources (the web
//           demo's files among them: the build copies them into the wheel);
//        2. copy the Pyodide runtime out of the pinned `pyodide` npm package;
//        3. copy the loader, its type declarations and its Python bridge;
//        4. copy the conformance vectors (the files themselves, not a fork of them);
//        5. train the web demo's small tokenizer (web-demo/train_tokenizer.py) for this functok;
//        6. copy the C core built to WebAssembly (native/wasm/build.mjs, run first by `npm run
//           build`) and bundle its glue (wasm/core_bridge.mjs with js/src/engine/wasm.mjs) with
//           esbuild into functok_core.mjs: under Pyodide, functok's engine runs on it;
//        7. write bundle.json, which names the wheel and records versions and checksums.
// Set FUNCTOK_PYTHON to choose the interpreter that builds the wheel.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const WASM = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(WASM);
const DIST = join(WASM, "dist");

// The files Pyodide needs at run time; the rest of the npm package is docs, maps and typings.
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "package.json"];
const LOADER_FILES = ["functok.mjs", "functok.d.ts", "functok_bridge.py"];
// The C core in WebAssembly, as native/wasm/build.mjs leaves it (not committed; built first).
const CORE_WASM = join(ROOT, "native", "wasm", "build", "functok-core.wasm");
// What setuptools needs to build the wheel; copied so that stale build/ folders never leak in.
// setup.py's build_py writes functok/data/web/ (the web demo, which the wheel carries as any
// wheel of functok does) from web-demo/, js/src/ and spec/opcodes.json with
// web-demo/copy_to_package.py, which picks the files, and functok/data/grammar/ from spec/grammar/.
const WHEEL_SOURCES = ["pyproject.toml", "setup.py", "python/functok", "README.md", "LICENSE",
  "web-demo", "js/src", "spec/opcodes.json", "spec/grammar"];

function python() {
  if (process.env.FUNCTOK_PYTHON) return process.env.FUNCTOK_PYTHON;
  const venv = join(ROOT, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

function sha256(path) {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

// `--no-isolation` keeps the build offline: setuptools comes from the venv (the dev extras pin
// a version new enough), not from a freshly downloaded build environment.
function buildWheel() {
  const work = mkdtempSync(join(tmpdir(), "functok-wheel-"));
  try {
    for (const path of WHEEL_SOURCES) {
      if (existsSync(join(ROOT, path))) {
        cpSync(join(ROOT, path), join(work, path), { recursive: true, filter: (src) => !/__pycache__|\.egg-info|\.so$/.test(src) });  // the C core is CPython's, not Pyodide's
      }
    }
    execFileSync(python(), ["-m", "build", "--wheel", "--no-isolation", "--outdir", DIST, work], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, SOURCE_DATE_EPOCH: process.env.SOURCE_DATE_EPOCH ?? "315532800" },
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const wheels = readdirSync(DIST).filter((name) => name.endsWith(".whl"));
  if (wheels.length !== 1) throw new Error(`expected one wheel in ${DIST}, found ${wheels.join(", ")}`);
  return wheels[0];
}

function copyPyodide() {
  const require = createRequire(import.meta.url);
  const pyodideDir = dirname(require.resolve("pyodide/package.json"));
  mkdirSync(join(DIST, "pyodide"));
  for (const name of PYODIDE_FILES) cpSync(join(pyodideDir, name), join(DIST, "pyodide", name));
  return JSON.parse(readFileSync(join(pyodideDir, "package.json"), "utf8")).version;
}

function copyVectors() {
  const source = join(ROOT, "conformance", "vectors");
  if (!existsSync(source)) return [];
  const names = readdirSync(source).filter((name) => name.endsWith(".json")).sort();
  mkdirSync(join(DIST, "conformance", "vectors"), { recursive: true });
  for (const name of names) cpSync(join(source, name), join(DIST, "conformance", "vectors", name));
  return names.map((name) => `conformance/vectors/${name}`);
}

// Trained here rather than checked in, so that it always matches this bundle's functok.
function trainDemoTokenizer() {
  execFileSync(python(), [join(ROOT, "web-demo", "train_tokenizer.py"), join(DIST, "demo-tokenizer.json")], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PYTHONPATH: join(ROOT, "python") },
  });
}

// The core's .wasm and its glue, one ESM file (esbuild, pinned in package.json: the bundler
// functok for JavaScript's own tests check). Pyodide's python/functok/engine_wasm.py calls it.
async function bundleCore() {
  if (!existsSync(CORE_WASM)) throw new Error(`${CORE_WASM} is missing: run node native/wasm/build.mjs first (npm run build does)`);
  cpSync(CORE_WASM, join(DIST, "functok-core.wasm"));
  const esbuild = await import("esbuild");
  await esbuild.build({
    entryPoints: [join(WASM, "core_bridge.mjs")], outfile: join(DIST, "functok_core.mjs"),
    bundle: true, format: "esm", platform: "neutral", logLevel: "warning",
    banner: { js: "// Generated by wasm/build.mjs (esbuild) from wasm/core_bridge.mjs and js/src/engine/wasm.mjs; do not edit." },
  });
}

function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

// functok.d.ts takes its shared types from js/index.d.ts; dist/ carries that file beside it.
function copySharedTypes() {
  cpSync(join(ROOT, "js", "index.d.ts"), join(DIST, "functok-js.d.ts"));
  const loader = join(DIST, "functok.d.ts");
  const types = readFileSync(loader, "utf8");
  if (!types.includes('"../js/index.d.ts"')) throw new Error("wasm/functok.d.ts no longer imports ../js/index.d.ts");
  writeFileSync(loader, types.replace('"../js/index.d.ts"', '"./functok-js.d.ts"'));
}

async function main() {
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  const wheel = buildWheel();
  const pyodideVersion = copyPyodide();
  for (const name of LOADER_FILES) cpSync(join(WASM, name), join(DIST, name));
  copySharedTypes();
  const vectors = copyVectors();
  trainDemoTokenizer();
  await bundleCore();
  const files = Object.fromEntries(listFiles(DIST).sort().map((path) => [relative(DIST, path), sha256(path)]));
  const bundle = {
    generated_by: "wasm/build.mjs; do not edit",
    wheel,
    pyodide_version: pyodideVersion,
    conformance_vectors: vectors,
    sha256: files,
  };
  writeFileSync(join(DIST, "bundle.json"), `${JSON.stringify(bundle, null, 2)}\n`);
  const bytes = listFiles(DIST).reduce((sum, path) => sum + statSync(path).size, 0);
  console.log(`wasm/dist: ${wheel}, pyodide ${pyodideVersion}, ${vectors.length} vector files, ${(bytes / 2 ** 20).toFixed(1)} MiB`);
}

await main();
