// functok in JavaScript: the very same Python package, run by Pyodide, in Node 20 and browsers.
//
// This file is copied into wasm/dist/ by wasm/build.mjs; import it from there.  By default it
// loads everything from its own folder, so a static server (or the file system, in Node) is
// all it needs:
//   dist/functok.mjs, functok_bridge.py, bundle.json, functok-<version>-py3-none-any.whl
//   dist/pyodide/   the Pyodide runtime from the pinned `pyodide` npm package
//   dist/functok-core.wasm, functok_core.mjs   the C core in WebAssembly and its glue
//
// Nothing is fetched from the network unless the caller points indexURL or wheelURL there.
//
// The package's engine (functok.backend()) is "wasm": the C core that functok for JavaScript
// runs on, instantiated here and registered as the JavaScript module functok_core_wasm, which
// python/functok/engine_wasm.py calls. `loadFunctok({ pure: true })`, or FUNCTOK_PURE=1 in
// Node's environment, keeps it out: the pure-Python reference runs everything.

const HERE = new URL(".", import.meta.url);

/** A functok error that crossed the boundary: FormatError keeps the spec's kind and offset. */
export class FunctokError extends Error {
  constructor({ type, message, kind, offset }) {
    super(message);
    this.name = type === "FormatError" ? "FormatError" : "FunctokError";
    this.pythonType = type;
    this.kind = kind ?? null;
    this.offset = offset ?? null; // a code point index, as in the spec
  }
}

/** The UTF-16 index in `text` of code point index `offset` (offsets in functok count code points). */
export function codePointToUtf16(text, offset) {
  let index = 0;
  for (let seen = 0; seen < offset && index < text.length; seen += 1) {
    index += text.codePointAt(index) > 0xffff ? 2 : 1;
  }
  return index;
}

function asDirectoryURL(value) {
  const url = new URL(value, HERE);
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

// Reads a URL as bytes; Node's fetch cannot read file: URLs, so those go through node:fs.
async function fetchBytes(url) {
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return new Uint8Array(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`functok: cannot fetch ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function fetchText(url) {
  return new TextDecoder().decode(await fetchBytes(url));
}

// Starts Pyodide.  When indexURL is not given, pyodide.mjs in our own folder finds its files
// next to itself, which works for file paths in Node and for URLs in browsers alike.
async function startPyodide(indexURL, pure) {
  const index = indexURL ? asDirectoryURL(indexURL) : new URL("pyodide/", HERE);
  const { loadPyodide } = await import(new URL("pyodide.mjs", index).href);
  const options = { fullStdLib: false, packages: [] };
  if (indexURL) options.indexURL = index.href;
  if (pure) options.env = { FUNCTOK_PURE: "1" }; // what functok.engine reads at import
  return loadPyodide(options);
}

/** Whether the caller or (in Node) the environment asks for the pure-Python engine. */
function wantsPure(options) {
  if (options.pure !== undefined) return Boolean(options.pure);
  const env = globalThis.process?.env?.FUNCTOK_PURE;
  return env !== undefined && env !== "" && env !== "0";
}

// The C core in WebAssembly and its glue, from our own folder (or coreURL), as the bridge
// object python/functok/engine_wasm.py calls.
async function loadCore(coreURL) {
  const wasmURL = new URL(coreURL ?? "functok-core.wasm", HERE);
  const [{ makeCoreBridge }, bytes] = await Promise.all([import(new URL("functok_core.mjs", HERE).href), fetchBytes(wasmURL)]);
  return makeCoreBridge(bytes);
}

// Installs the wheel by unpacking it into site-packages: no micropip, no package index.
function installWheel(pyodide, wheelBytes, bridgeSource) {
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(wheelBytes, "wheel", { extractDir: sitePackages });
  pyodide.FS.writeFile(`${sitePackages}/functok_bridge.py`, bridgeSource);
  return pyodide.pyimport("functok_bridge");
}

/**
 * Loads Pyodide and the functok wheel.
 * @param {{indexURL?: string|URL, wheelURL?: string|URL, bridgeURL?: string|URL,
 *          coreURL?: string|URL, pure?: boolean, onProgress?: (step: string) => void}} [options]
 */
export async function loadFunctok(options = {}) {
  const progress = options.onProgress ?? (() => {});
  progress("runtime");
  const wheelURL = options.wheelURL
    ? new URL(options.wheelURL, HERE)
    : new URL((await readBundleInfo()).wheel, HERE);
  const bridgeURL = new URL(options.bridgeURL ?? "functok_bridge.py", HERE);
  const pure = wantsPure(options);
  const [pyodide, wheelBytes, bridgeSource, core] = await Promise.all([
    startPyodide(options.indexURL, pure),
    fetchBytes(wheelURL),
    fetchText(bridgeURL),
    pure ? null : loadCore(options.coreURL),
  ]);
  progress("package");
  if (core !== null) pyodide.registerJsModule("functok_core_wasm", core); // before functok is imported
  const bridge = installWheel(pyodide, wheelBytes, bridgeSource);
  const api = makeApi(pyodide, bridge);
  progress("ready");
  return api;
}

/** bundle.json, written by the build: the wheel's file name, versions and checksums. */
export async function readBundleInfo() {
  return JSON.parse(await fetchText(new URL("bundle.json", HERE)));
}

function makeApi(pyodide, bridge) {
  const pyCall = bridge.call;
  const pyTextCall = bridge.text_call;
  // One call across the boundary: JSON in, JSON out, errors rebuilt as FunctokError.
  function call(op, args) {
    const answer = JSON.parse(pyCall(op, JSON.stringify(args)));
    if (answer.error) throw new FunctokError(answer.error);
    return answer.ok;
  }

  // encode and decode: the text crosses as a string, not inside JSON (they are the hot path).
  function textCall(op, text, options) {
    const answer = pyTextCall(op, text, JSON.stringify(options));
    if (typeof answer === "string") return answer;
    const error = answer.toJs({ dict_converter: Object.fromEntries });
    answer.destroy();
    throw new FunctokError(error);
  }

  async function loadTokenizer(jsonOrURL) {
    const json = looksLikeJSON(jsonOrURL) ? String(jsonOrURL) : await fetchText(new URL(jsonOrURL, HERE));
    const { handle, vocab_size: vocabSize } = call("load_tokenizer", { json });
    return {
      vocabSize,
      encode: (text, opts = {}) => call("tokenizer_encode", { handle, text, ...opts }),
      decode: (ids, opts = {}) => call("tokenizer_decode", { handle, ids: Array.from(ids), ...opts }),
    };
  }

  return {
    pyodide,
    version: pyodide.runPython("import functok; functok.__version__"),
    /** The engine functok runs on: "wasm" (the C core in WebAssembly) or "pure" (the reference). */
    engine: pyodide.runPython("import functok; functok.backend()"),
    specVersion: pyodide.runPython("import functok; functok.SPEC_VERSION"),
    /** Whether the loaded wheel has functok.tokenizer (loadTokenizer needs it). */
    hasTokenizer: pyodide.runPython("import importlib.util; importlib.util.find_spec('functok.tokenizer') is not None"),
    encode: (text, opts = {}) => textCall("encode", text, opts),
    decode: (stream, opts = {}) => textCall("decode", stream, opts),
    pieces: (text, opts = {}) => call("pieces", { text, ...opts }),
    pretokens: (text, opts = {}) => call("pretokens", { text, ...opts }),
    split: (text, opts = {}) => call("split", { text, ...opts }),
    inspect: (text, opts = {}) => call("inspect", { text, ...opts }),
    loadTokenizer,
    /** Runs the vector files in a folder of Pyodide's file system through the in-process runner. */
    runConformance: (directory) => call("conformance", { directory }),
    /** Copies a file into Pyodide's file system (for vector files and fixtures). */
    writeFile: (path, data) => {
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")) || "/");
      pyodide.FS.writeFile(path, data);
    },
  };
}

function looksLikeJSON(value) {
  return typeof value === "string" && value.trimStart().startsWith("{");
}
