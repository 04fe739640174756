// The fixed corpus of the cross-runtime determinism test and of wasm/bench.mjs:
//  - UDHR: the first UDHR_SLICE code points of every translation in ../shared/corpora/udhr
//    (532 files in 43 scripts) where the corpus is present;
//  - code: the functok package's own Python sources and its built-in sample text
//    (python/functok/data/*.txt), which every checkout ships;
//  - edge cases: test/fixtures/edge-cases.json, inputs where Unicode 14 and 16 disagree.

import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { readText, ROOT, UDHR, udhrFiles } from "./helpers.mjs";

// Enough of each translation to cover its script and marks, small enough that the pure-Python
// codec gets through all 532 of them in Pyodide in well under a minute.
export const UDHR_SLICE = 1500;

function firstCodePoints(text, count) {
  return Array.from(text).slice(0, count).join("");
}

function packageTexts(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "__pycache__" ? [] : packageTexts(path);
    return name.endsWith(".py") || (dir.endsWith("data") && name.endsWith(".txt")) ? [path] : [];
  });
}

export function udhrDocuments(slice = UDHR_SLICE) {
  return udhrFiles().map((name) => ({
    name: `udhr/${name}`,
    text: firstCodePoints(readText(join(UDHR, name)), slice),
  }));
}

export function codeDocuments() {
  return packageTexts(join(ROOT, "python", "functok"))
    .sort()
    .map((path) => ({ name: relative(ROOT, path), text: readText(path) }));
}

export function edgeCaseDocuments() {
  const { cases } = JSON.parse(readText(new URL("./fixtures/edge-cases.json", import.meta.url)));
  return Object.entries(cases).map(([name, text]) => ({ name: `edge/${name}`, text }));
}

export function determinismCorpus() {
  return [...edgeCaseDocuments(), ...codeDocuments(), ...udhrDocuments()];
}
