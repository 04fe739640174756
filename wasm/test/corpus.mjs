// The fixed corpus of the cross-runtime determinism test and of bench/pyodide/bundle.mjs:
//  - UDHR: the first UDHR_SLICE code points of every translation in corpora/udhr
//    (532 files in 43 scripts) where the corpus is present;
//  - code: the Python sources of the functok package's core (the modules of python/functok/
//    itself, not its subpackages: the commands and integrations tripled the sources, and
//    ASCII code more of the same adds minutes to the Pyodide run and nothing it checks) and its
//    built-in sample text (python/functok/data/*.txt), which every checkout ships;
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

function filesEndingIn(dir, suffix) {
  return readdirSync(dir).filter((name) => name.endsWith(suffix) && statSync(join(dir, name)).isFile())
    .map((name) => join(dir, name));
}

function packageTexts(dir) {
  return [...filesEndingIn(dir, ".py"), ...filesEndingIn(join(dir, "data"), ".txt")];
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
