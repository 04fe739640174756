// Pyodide on the C core in WebAssembly against Pyodide pure (the stretch goal, >= 5x):
// the same functok wheel in Pyodide, once on the "wasm" engine (python/functok/engine_wasm.py,
// every op one crossing of Pyodide's JavaScript bridge) and once with FUNCTOK_PURE=1, each in a
// fresh Node process, one cold pass per op (empty caches), same texts, ratios printed in the
// same run.
//
//   npm run build && node bench/pyodide/core.mjs [--bytes N]
//
// Corpora: the standard library's source of the CPython that builds the bundle (bench/python/corpora.py)
// and the UDHR (corpora/udhr/, the first UDHR_SLICE code points of every translation), each cut
// to about N bytes of UTF-8 (default 300,000). The tokenizer is the bundle's demo tokenizer
// (8,000 ids, compact profile, frequent fuse, trained on the stdlib by web-demo/train_tokenizer.py
// at build time). The ops: codec encode and decode of the whole text, the tokenizer's encode and
// decode of it, and encode_batch and decode_batch of it cut into texts of 2,000 code points.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { udhrDocuments } from "../../wasm/test/corpus.mjs";
import { loadBuilt, python, ROOT } from "../../wasm/test/helpers.mjs";

const SELF = fileURLToPath(import.meta.url);
const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : process.argv[at + 1];
};

// One cold pass of each op, timed inside Python (time.perf_counter): what a Python caller of
// functok in Pyodide sees, the bridge's crossings included. Each output's SHA-256 goes back, and
// the table says whether both engines gave the same (decoding gives NFC text, not always the
// input: the UDHR has decomposed marks).
const TIMED = `
import json, time
import functok
from functok.tokenizer import Tokenizer

from bench_clock import cpu_seconds  # the Node process's CPU time (process.cpuUsage)

def once(op, *args):
    start, cpu = time.perf_counter(), cpu_seconds()
    result = op(*args)
    seconds[op_name] = (time.perf_counter() - start, cpu_seconds() - cpu)
    return result

BATCH_DOCUMENT = 2000  # code points per text of encode_batch

tokenizer = Tokenizer.from_str(tokenizer_json)
out = {"engine": functok.backend()}
for name in json.loads(corpus_names):
    text = texts[name]
    tokenizer.clear_caches()
    sys_encode = __import__("sys").modules["functok.encoding"]
    sys_encode.clear_caches()
    seconds = {}
    op_name = "encode"; stream = once(functok.encode, text)
    op_name = "decode"; back = once(functok.decode, stream)
    op_name = "tokenize"; encodings = once(lambda t: tokenizer.encode(t).ids, text)
    op_name = "detokenize"; detok = once(tokenizer.decode, encodings)
    tokenizer.clear_caches()
    docs = [text[i : i + BATCH_DOCUMENT] for i in range(0, len(text), BATCH_DOCUMENT)]
    op_name = "encode_batch"; batch = once(lambda b: [e.ids for e in tokenizer.encode_batch(b)], docs)
    op_name = "decode_batch"; debatch = once(tokenizer.decode_batch, batch)
    out[name] = {**seconds,
                 "bytes": len(text.encode()), "stream_sha": __import__("hashlib").sha256(stream.encode()).hexdigest(),
                 "ids_sha": __import__("hashlib").sha256(str([encodings, batch]).encode()).hexdigest(),
                 "back_sha": __import__("hashlib").sha256("|".join([back, detok, *debatch]).encode()).hexdigest()}
json.dumps(out)
`;

async function child(dir, pure) {
  const { functok } = await loadBuilt({ pure });
  const names = JSON.parse(readFileSync(join(dir, "names.json"), "utf8"));
  const py = functok.pyodide;
  py.registerJsModule("bench_clock", { cpu_seconds: () => { const { user, system } = process.cpuUsage(); return (user + system) / 1e6; } });
  py.globals.set("corpus_names", JSON.stringify(names));
  py.globals.set("tokenizer_json", readFileSync(join(dir, "tokenizer.json"), "utf8"));
  const texts = py.runPython("{}");
  for (const name of names) texts.set(name, readFileSync(join(dir, `${name}.txt`), "utf8"));
  py.globals.set("texts", texts);
  process.stdout.write(py.runPython(TIMED));
}

function cut(text, bytes) {
  const encoded = Buffer.from(text, "utf8");
  return encoded.length <= bytes ? text : encoded.subarray(0, bytes).toString("utf8").replace(/\uFFFD$/, "");
}

function stdlibText(bytes) {
  const code = "import sys; sys.path.insert(0, 'bench/python'); from corpora import read_files, stdlib_files; "
    + `sys.stdout.write(''.join(read_files(stdlib_files(), ${bytes})))`;
  return execFileSync(python(), ["-c", code], { cwd: ROOT, maxBuffer: 1 << 30 }).toString("utf8");
}

function parent() {
  const bytes = Number(argument("--bytes", 300000));
  const dir = mkdtempSync(join(tmpdir(), "functok-bench-core-"));
  try {
    const corpora = { stdlib: cut(stdlibText(bytes), bytes), udhr: cut(udhrDocuments().map((d) => d.text).join("\n"), bytes) };
    for (const [name, text] of Object.entries(corpora)) writeFileSync(join(dir, `${name}.txt`), text);
    writeFileSync(join(dir, "names.json"), JSON.stringify(Object.keys(corpora)));
    writeFileSync(join(dir, "tokenizer.json"), readFileSync(join(ROOT, "wasm", "dist", "demo-tokenizer.json")));
    const run = (pure) => {
      const started = performance.now();
      const out = JSON.parse(execFileSync(process.execPath, [SELF, "--child", dir, ...(pure ? ["--pure"] : [])],
        { maxBuffer: 1 << 26, env: { ...process.env, FUNCTOK_PURE: "" }, stdio: ["ignore", "pipe", "inherit"] }).toString());
      out.processSeconds = (performance.now() - started) / 1000;
      return out;
    };
    const load = loadavg().map((x) => x.toFixed(2)).join(", ");
    const wasm = run(false);
    const pure = run(true);
    if (wasm.engine !== "wasm" || pure.engine !== "pure") throw new Error(`engines ${wasm.engine}, ${pure.engine}`);
    console.log(`Pyodide, the C core in WebAssembly / pure; one cold pass per op, each engine in a fresh process; load average ${load}`);
    console.log("MB/s of UTF-8 by wall clock (by CPU time of the process in brackets); the ratio is pure time / wasm time");
    console.log("corpus   KB    op             wasm MB/s        pure MB/s        wasm/pure (CPU)      same output");
    for (const name of Object.keys(corpora)) {
      const w = wasm[name], p = pure[name];
      for (const op of ["encode", "decode", "tokenize", "detokenize", "encode_batch", "decode_batch"]) {
        const mbs = ([wall, cpu]) => `${(w.bytes / wall / 1e6).toFixed(2).padStart(7)} (${(w.bytes / cpu / 1e6).toFixed(2).padStart(6)})`;
        const digest = { encode: "stream_sha", decode: "back_sha", tokenize: "ids_sha", detokenize: "back_sha",
          encode_batch: "ids_sha", decode_batch: "back_sha" }[op];
        const same = w[digest] === p[digest];
        console.log(`${name.padEnd(7)} ${String(Math.round(w.bytes / 1000)).padStart(4)}   ${op.padEnd(13)} ${mbs(w[op])}   ${mbs(p[op])}   ${(p[op][0] / w[op][0]).toFixed(2).padStart(7)}x (${(p[op][1] / w[op][1]).toFixed(2).padStart(6)}x)   ${same}`);
      }
    }
    console.log(`fresh process to the end of the run: wasm ${wasm.processSeconds.toFixed(1)} s, pure ${pure.processSeconds.toFixed(1)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes("--child")) {
  try {
    await child(argument("--child"), process.argv.includes("--pure"));
  } catch (e) { // the message only: a PythonError's is its traceback (the stack would print Pyodide's source)
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  }
} else parent();
