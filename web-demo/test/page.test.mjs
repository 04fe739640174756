// The page's wiring without a browser: its module graph is preloaded whole (the first sample's
// time depends on it), and codec.mjs answers with functok for JavaScript under every profile.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import * as codec from "../codec.mjs";

const PAGE = new URL("../", import.meta.url);

// Static imports and re-exports only: dynamic import() stays off the critical path on purpose.
const STATIC_IMPORT = /^\s*(?:import|export)\s[^;]*?\bfrom\s*(['"])([^'"]+)\1|^\s*import\s*(['"])([^'"]+)\3/gm;

function moduleGraph(entry) {
  const seen = new Set();
  const visit = (url) => {
    if (seen.has(url.href)) return;
    seen.add(url.href);
    for (const match of readFileSync(fileURLToPath(url), "utf8").matchAll(STATIC_IMPORT)) {
      visit(new URL(match[2] ?? match[4], url));
    }
  };
  visit(entry);
  return seen;
}

test("index.html preloads exactly the static module graph of demo.mjs", () => {
  const html = readFileSync(new URL("index.html", PAGE), "utf8");
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => new URL(m[1], PAGE).href));
  const graph = moduleGraph(new URL("demo.mjs", PAGE));
  const relative = (set) => [...set].map((href) => href.slice(new URL("..", PAGE).href.length)).sort();
  assert.deepEqual(relative(preloaded), relative(graph), "update the modulepreload links in web-demo/index.html");
  assert.ok(!graph.has(new URL("reference.mjs", PAGE).href), "the Python reference is loaded on demand only");
});

test("the page's inspection under each profile: HELLO as CAPITALIZEs or one UPPERCASE", () => {
  const options = { splitter: "llama3", normalize: "nfc", splitOperators: true };
  const paper = codec.inspect("HELLO", { ...options, profile: "paper" });
  const compact = codec.inspect("HELLO", { ...options, profile: "compact" });
  assert.deepEqual(paper.pieces[0].instructions.map(String), ["CAPITALIZE(0)", "CAPITALIZE(1)", "CAPITALIZE(2)", "CAPITALIZE(3)", "CAPITALIZE(4)"]);
  assert.deepEqual(compact.pieces[0].instructions.map(String), ["UPPERCASE(0,5)"]);
  assert.equal(compact.stream, "\ue110\ue000\ue005hello");
  assert.deepEqual(compact.pretokens, ["\ue110\ue000\ue005", "hello"]);
  assert.ok(paper.roundtrip && compact.roundtrip);
  assert.deepEqual(Object.keys(codec.PROFILES), ["paper", "compact"]);
});

test("decode answers name the strict error and repair it in lenient mode", () => {
  assert.deepEqual(codec.decode("ab\ue005cd", "strict"), { text: "", error: { kind: "stray-argument", offset: 2 } });
  assert.deepEqual(codec.decode("ab\ue005cd", "replace"), { text: "abcd", error: { kind: "stray-argument", offset: 2 } });
  assert.deepEqual(codec.decode("\ue110\ue000\ue002ab", "strict"), { text: "AB", error: null });
});
