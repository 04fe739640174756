// Cross-runtime determinism: the same corpus encoded by CPython and by Pyodide gives the same
// streams, pieces and token ids, compared as SHA-256 digests per document.  CPython runs in
// a subprocess in the same run (wasm/test/cpython_side.py); nothing is a recorded value.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { codeDocuments, determinismCorpus, udhrDocuments } from "./corpus.mjs";
import { cpython, digest, ENGINES, loadOn, udhrFiles } from "./helpers.mjs";

// The same digests as cpython_side.py's document_digests, computed from functok.mjs's answers.
function pyodideDigests(functok, documents, tokenizer) {
  const digests = {};
  for (const { name, text } of documents) {
    digests[name] = tokenizer
      ? tokenizerDigests(tokenizer, text)
      : { stream: digest(functok.encode(text)), pieces: digest(functok.pieces(text)),
          decoded: digest(functok.decode(functok.encode(text))) };
  }
  return digests;
}

function tokenizerDigests(tokenizer, text) {
  const greedy = tokenizer.encode(text, { segmentation: "greedy" }).ids;
  return {
    ids_greedy: digest(greedy),
    ids_optimal: digest(tokenizer.encode(text, { segmentation: "optimal" }).ids),
    decoded: digest(tokenizer.decode(greedy)),
  };
}

function differences(expected, actual) {
  const lines = [];
  if (Object.keys(expected).length !== Object.keys(actual).length) lines.push("document counts differ");
  for (const [name, want] of Object.entries(expected)) {
    for (const [what, hash] of Object.entries(want)) {
      if (actual[name]?.[what] !== hash) lines.push(`${name}: ${what} differs`);
    }
  }
  return lines;
}

// CPython's digests, computed once for both engines.
const documents = determinismCorpus();
let codecReference;
const tokenizerReference = {};
const reference = () => (codecReference ??= cpython({ task: "digests", documents }));

for (const engine of ENGINES) describe(`CPython and Pyodide give identical answers (${engine} engine)`, () => {
  let functok;

  before(async () => {
    ({ functok } = await loadOn(engine));
  });

  test("the corpus has UDHR, code and edge cases", () => {
    assert.ok(codeDocuments().length > 0, "no functok sources found");
    assert.equal(udhrDocuments().length, udhrFiles().length);
  });

  // The control: the two interpreters' own Unicode data disagree (U+0264 and U+019B gained
  // uppercase partners in Unicode 16), so agreement below comes from functok's pinned tables.
  test("the two runtimes' own Unicode data differ", () => {
    const probes = ["\u0264", "\u019b"];
    const reference = cpython({ task: "runtime", probes });
    functok.pyodide.globals.set("probes", probes);
    const ours = functok.pyodide.runPython("import unicodedata; [unicodedata.unidata_version, [c.upper() for c in probes]]").toJs();
    assert.notEqual(ours[0], reference.unidata_version);
    assert.notDeepEqual(ours[1], reference.probes);
  });

  test("streams, pieces and decoded text", () => {
    const ours = pyodideDigests(functok, documents, null);
    assert.deepEqual(differences(reference().documents, ours), []);
    assert.equal(Object.keys(reference().documents).length, documents.length);
  });

  test("token ids under greedy and optimal segmentation", async () => {
    assert.ok(functok.hasTokenizer, "the wheel has no functok.tokenizer");
    // A small tokenizer trained in CPython on the project's own code, so that most of the
    // multilingual corpus is unseen and goes through the lossless fallback.
    const trainingTexts = codeDocuments().map((doc) => doc.text);
    tokenizerReference.json ??= cpython({ task: "train_tokenizer", texts: trainingTexts, vocab_size: 600 }).json;
    const tokenizer = await functok.loadTokenizer(tokenizerReference.json);
    tokenizerReference.digests ??= cpython({ task: "digests", documents, tokenizer: tokenizerReference.json });
    const ours = pyodideDigests(functok, documents, tokenizer);
    assert.deepEqual(differences(tokenizerReference.digests.documents, ours), []);
    assert.equal(Object.keys(tokenizerReference.digests.documents).length, documents.length);
    const sample = documents[0].text;
    assert.equal(tokenizer.decode(tokenizer.encode(sample).ids), functok.decode(functok.encode(sample)));
  });
});
