// Inside Pyodide, the wasm engine (the C core in WebAssembly, python/functok/engine_wasm.py)
// against the pure engine, op by op, in one process: the same output, or the same error (class,
// kind, offset). The texts are a sample of the determinism corpus, random text over the
// scripts, marks, private-use code points and surrogates the format cares about, and streams
// damaged at random (seeded: a failure names its seed and repeats). CPython's side is
// determinism.test.mjs's, which runs on both engines too.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { determinismCorpus } from "./corpus.mjs";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST, loadOn } from "./helpers.mjs";

const DIFFERENTIAL = String.raw`
import random
from functok import engine as seam
from functok.encoding import PROFILES

wasm, pure = seam.WASM_ENGINE, seam.PURE_ENGINE
assert seam.current is wasm, seam.current.name

def outcome(op, *args, **options):
    try:
        return ("ok", op(*args, **options))
    except Exception as e:  # the error's class, kind and offset (FormatError), or its message
        return ("error", type(e).__name__, getattr(e, "kind", None), getattr(e, "offset", None),
                None if hasattr(e, "kind") else str(e))

ALPHABET = ("aZ09 \n\t.,;-_'\"" "éÉñÑçÇåÅøØüÜ" "İıŞşĞğ" "ǅǆǄ" "ßẞ" "ΑαΣσς" "ДдЁё" "אב" "عربية" "हिन्दी"
            "中文字" "かなカナ" "한국어" "\u0301\u0308\u0327\u0323" "😀🇫🇷" "\ue000\ue100\ue200\uefff\uf8ff"
            "\ud800\udc00")

def random_text(rng, n):
    return "".join(rng.choice(ALPHABET) for _ in range(n))

def damaged(rng, stream):
    chars = list(stream)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(chars) + 1)
        chars.insert(at, chr(rng.choice([0xE000, 0xE005, 0xE100, 0xE150, 0xE200, 0xE201, 0xEFFF, 0xD800,
                                         rng.randrange(0xE000, 0xF000)])))
    return "".join(chars)

def differences(texts, seed):
    rng = random.Random(seed)
    found = []
    def same(what, a, b):
        if a != b:
            found.append((what, ascii(a)[:200], ascii(b)[:200]))
    for k, text in enumerate(texts):
        options = {"profile": rng.choice(sorted(PROFILES)), "normalize": rng.choice(["nfc", None])}
        same(f"encode {k} {options}", outcome(wasm.encode, text, **options), outcome(pure.encode, text, **options))
        for mode in ("none", "all", "frequent"):
            same(f"pretokens {mode} {k}", outcome(wasm.pretokens_by, mode, text, **options),
                 outcome(pure.pretokens_by, mode, text, **options))
        stream = outcome(pure.encode, text, **options)
        if stream[0] != "ok":
            continue
        for candidate in (stream[1], damaged(rng, stream[1])):
            for errors in ("strict", "replace"):
                max_output = rng.choice([2**26, 2**26, 5, 0])
                same(f"decode {errors} {max_output} {k}", outcome(wasm.decode, candidate, errors=errors, max_output=max_output),
                     outcome(pure.decode, candidate, errors=errors, max_output=max_output))
    return found
`;

const TOKENIZER = String.raw`
from functok.tokenizer import Tokenizer
texts = [random_text(random.Random(k), 300).replace("\ud800", "").replace("\udc00", "") for k in range(20)] + documents[:20]
tok = Tokenizer.from_str(demo_tokenizer)  # the bundle's demo tokenizer, 8k, compact/frequent
assert tok._native_encoder() is not None, "no wasm greedy encoder"
ids = [tok.encode(t).ids for t in texts]
batch = [e.ids for e in tok.encode_batch(texts)]
pure_ids = [tok.vocabulary.encode_pretokens(pure.pretokens_by(tok.pre_tokenizer.fuse, t, profile=tok.pre_tokenizer.profile))
            for t in texts]
decoded = [tok.decode(i) for i in ids]
lenient = [tok.decode(i + [10**6, 2**40, -1], errors="replace") for i in ids]
offsets = [tok.encode(t).offsets for t in texts]  # the wasm engine's ids over the pure pre-tokenizer's spans
reference = Tokenizer.from_str(demo_tokenizer)
reference.fast_path = False  # the pure BPE and offsets alone
[ids == batch, ids == pure_ids, decoded == [pure.decode(pure.encode(t)) for t in texts],
 lenient == [d + "\ufffd" * 3 for d in decoded], offsets == [reference.encode(t).offsets for t in texts],
 ids == [reference.encode(t).ids for t in texts], sum(map(len, ids))]
`;

describe("the wasm engine and the pure engine inside Pyodide", () => {
  let py;

  before(async () => {
    ({ functok: { pyodide: py } } = await loadOn("wasm"));
    py.runPython(DIFFERENTIAL);
    const documents = determinismCorpus().filter((_, i) => i % 12 === 0).map((d) => [...d.text].slice(0, 2000).join(""));  // whole code points: a cut pair is a lone surrogate
    assert.ok(documents.length >= 40, `${documents.length} documents`);
    py.globals.set("documents_js", documents);
    py.runPython("documents = documents_js.to_py()");
    py.globals.set("demo_tokenizer", readFileSync(join(DIST, "demo-tokenizer.json"), "utf8"));
  });

  test("give the same answers on the corpus", () => {
    assert.deepEqual(py.runPython("differences(documents, 1)").toJs(), []);
  });

  test("give the same answers or errors on random text and damaged streams", () => {
    for (const seed of [2, 3, 4, 5]) {
      const found = py.runPython(`differences([random_text(random.Random(${seed} * 1000 + k), k % 40) for k in range(150)], ${seed})`).toJs();
      assert.deepEqual(found, [], `seed ${seed}`);
    }
  });

  test("wasm memory running out is a MemoryError, as in CPython; other JavaScript errors pass", () => {
    py.registerJsModule("failing_bridge", {
      encode: () => { throw new RangeError("functok wasm core: out of memory for a text of 9 UTF-16 units"); },
      decode: () => { throw new TypeError("a bug"); },
    });
    const out = py.runPython(String.raw`
import failing_bridge
from pyodide.ffi import JsException
from functok.engine_wasm import _MemoryErrors
bridge = _MemoryErrors(failing_bridge, JsException)
answers = []
for call in (bridge.encode, bridge.decode):
    try:
        call()
    except Exception as e:
        answers.append(type(e).__name__)
answers`).toJs();
    assert.deepEqual(out, ["MemoryError", "JsException"]);
  });

  test("the wasm engine's tokenizer parts give the pure parts' ids and text", () => {
    const out = py.runPython(TOKENIZER).toJs();
    assert.deepEqual(out.slice(0, 6), [true, true, true, true, true, true]);
    assert.ok(out[6] > 1000, `${out[6]} ids`);
  });
});
