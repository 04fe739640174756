// The JavaScript API of dist/functok.mjs: loading offline, the codec calls and their shapes.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { before, describe, test } from "node:test";
import { edgeCaseDocuments } from "./corpus.mjs";
import { cpython, DIST, loadBuilt, ROOT } from "./helpers.mjs";

const codePoints = (text) => Array.from(text).length;

describe("functok.mjs", () => {
  let functok;
  let module;
  const fetched = [];

  before(async () => {
    // Loading must not touch the network: every fetch is recorded and refused.
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (url) => {
      fetched.push(String(url));
      throw new Error(`network access during load: ${url}`);
    };
    try {
      ({ functok, module } = await loadBuilt());
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  test("loads from dist/ without any fetch", () => {
    assert.deepEqual(fetched, []);
  });

  test("reports the wheel's version and the spec version", async () => {
    const bundle = await module.readBundleInfo();
    assert.match(bundle.wheel, new RegExp(`^functok-${functok.version.replaceAll(".", "\\.")}-py3-none-any\\.whl$`));
    const opcodes = JSON.parse(readFileSync(join(ROOT, "spec", "opcodes.json"), "utf8"));
    assert.equal(functok.specVersion, opcodes.spec_version);
    assert.equal(bundle.pyodide_version, JSON.parse(readFileSync(join(DIST, "pyodide", "package.json"), "utf8")).version);
  });

  test("Héllo: instructions, base and the round trip", () => {
    const [piece] = functok.pieces("Héllo");
    assert.deepEqual(piece.instructions.map((ins) => ins.label).sort(), ["ACUTE(1)", "CAPITALIZE(0)"]);
    assert.equal(piece.text, "Héllo");
    assert.equal(piece.base, "hello");
    assert.equal(functok.decode(functok.encode("Héllo")), "Héllo");
  });

  for (const { name, text } of edgeCaseDocuments()) {
    test(`${name}: pieces, pre-tokens and stream agree`, () => {
      const stream = functok.encode(text);
      const pieces = functok.pieces(text);
      assert.equal(pieces.map((p) => p.encoded).join(""), stream);
      assert.equal(functok.pretokens(text).join(""), stream);
      assert.equal(pieces[0].start, 0);
      assert.equal(pieces.at(-1).end, codePoints(text));
      const inspection = functok.inspect(text);
      assert.equal(inspection.stream, stream);
      assert.equal(inspection.roundtrip, true);
      // Without NFC the round trip is exact, code point for code point.
      assert.equal(functok.decode(functok.encode(text, { normalize: null })), text);
    });
  }

  test("options reach Python: the same answers as CPython for each option", () => {
    const text = "x+=1; y = 'U\u0308nïcode' ... 12345 İİ\n\n\tÉcole";
    const calls = [];
    for (const splitter of ["llama3", "paper"]) {
      for (const normalize of ["nfc", null]) {
        calls.push({ op: "encode", args: { text, splitter, normalize } });
        for (const splitOperators of [true, false]) {
          calls.push({ op: "pretokens", args: { text, splitter, normalize, split_operators: splitOperators } });
        }
      }
      calls.push({ op: "split", args: { text, splitter } });
    }
    const reference = cpython({ task: "calls", calls });
    const ours = calls.map(({ op, args: { text: input, ...options } }) => functok[op](input, options));
    assert.deepEqual(ours, reference.map((answer) => answer.ok));
    // The options must matter, or this test would prove nothing.
    const answer = (op, args) => ours[calls.findIndex((c) => c.op === op && JSON.stringify(c.args) === JSON.stringify({ text, ...args }))];
    assert.notEqual(answer("encode", { splitter: "llama3", normalize: "nfc" }), answer("encode", { splitter: "llama3", normalize: null }));
    assert.notDeepEqual(answer("split", { splitter: "llama3" }), answer("split", { splitter: "paper" }));
  });

  test("a saved tokenizer loads from a URL and from its JSON text", async () => {
    const url = pathToFileURL(join(DIST, "demo-tokenizer.json"));
    const fromUrl = await functok.loadTokenizer(url.href);
    const fromText = await functok.loadTokenizer(readFileSync(url, "utf8"));
    const text = "Ünïcode tokens for İstanbul, 東京 and 🙂!!!!";
    for (const segmentation of ["greedy", "optimal"]) {
      for (const tieBreak of ["leftmost-longest", "prefer-greedy"]) {
        const options = { segmentation, tie_break: tieBreak };
        const encoding = fromUrl.encode(text, options);
        assert.deepEqual(fromText.encode(text, options), encoding);
        assert.equal(encoding.ids.length, encoding.tokens.length);
        // Lossless, also for characters the stdlib-trained vocabulary never saw.
        assert.equal(fromUrl.decode(encoding.ids), text.normalize("NFC"));
      }
    }
    assert.ok(fromUrl.encode(text, { segmentation: "optimal" }).ids.length <= fromUrl.encode(text).ids.length);
  });

  test("a tokenizer file of an unknown format version is refused", async () => {
    const saved = JSON.parse(readFileSync(join(DIST, "demo-tokenizer.json"), "utf8"));
    saved.functok.format_version = 999;
    await assert.rejects(functok.loadTokenizer(JSON.stringify(saved)), (error) => {
      assert.ok(error instanceof module.FunctokError);
      assert.match(error.message, /version/);
      return true;
    });
  });
});
