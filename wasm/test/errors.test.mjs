// Errors cross the boundary intact: a FormatError raised in Pyodide reaches JavaScript as an
// Error with the spec's kind and its code point offset, and CPython says the same.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { cpython, ENGINES, loadOn } from "./helpers.mjs";

// One malformed stream per error kind, with kind, offset and lenient output worked out by hand
// from the spec's rules (spec/opcodes.json "errors" and the team's decoding decisions).
const CASES = [
  { kind: "stray-argument", stream: "a\ue005b", offset: 1, lenient: "ab" },
  { kind: "unknown-opcode", stream: "a\ue150b", offset: 1, lenient: "ab" },
  { kind: "truncated-instruction", stream: "\ue100b", offset: 0, lenient: "b" },
  { kind: "escape-at-end", stream: "ab\uefff", offset: 2, lenient: "ab" },
  { kind: "dangling-group", stream: "ab\ue100\ue000", offset: 2, lenient: "ab" },
  { kind: "position-out-of-range", stream: "\ue100\ue005ab", offset: 0, lenient: "ab" },
  { kind: "bad-count", stream: "\ue200\ue000\ue000a", offset: 0, lenient: "a" },
  { kind: "bad-range", stream: "\ue201\ue001\ue001\ue002ab", offset: 0, lenient: "ab" },
  { kind: "output-too-large", stream: "xy\ue200\ue000\ue0ffa", offset: 2, lenient: "xya", max_output: 10 },
  { kind: "lone-surrogate", stream: "a\ud800b", offset: 1, lenient: "a\ufffdb" },
  // An astral character before the error: the offset counts code points, not UTF-16 units.
  { kind: "stray-argument", stream: "\u{1F600}x\ue005", offset: 2, lenient: "\u{1F600}x" },
];

function decodeArgs({ stream, max_output: maxOutput }) {
  return maxOutput === undefined ? { stream } : { stream, max_output: maxOutput };
}

for (const engine of ENGINES) describe(`errors carry kind and offset across the boundary (${engine} engine)`, () => {
  let functok;
  let module;

  before(async () => {
    ({ functok, module } = await loadOn(engine));
  });

  for (const c of CASES) {
    test(`${c.kind} at ${c.offset}: strict raises, lenient repairs`, () => {
      const options = c.max_output === undefined ? {} : { max_output: c.max_output };
      assert.throws(
        () => functok.decode(c.stream, options),
        (error) => {
          assert.ok(error instanceof Error);
          assert.ok(error instanceof module.FunctokError);
          assert.equal(error.name, "FormatError");
          assert.equal(error.kind, c.kind);
          assert.equal(error.offset, c.offset);
          return true;
        },
      );
      assert.equal(functok.decode(c.stream, { ...options, errors: "replace" }), c.lenient);
    });
  }

  test("CPython reports the same kinds, offsets and lenient output", () => {
    const reference = cpython({ task: "errors", cases: CASES.map(decodeArgs) });
    CASES.forEach((c, i) => {
      assert.equal(reference[i].error?.kind, c.kind, `case ${i}`);
      assert.equal(reference[i].error?.offset, c.offset, `case ${i}`);
      assert.equal(reference[i].lenient, c.lenient, `case ${i}`);
    });
  });

  test("encode refuses a lone surrogate with its offset", () => {
    assert.throws(() => functok.encode("ab\ud800"), { name: "FormatError", kind: "lone-surrogate", offset: 2 });
  });

  test("codePointToUtf16 turns an offset into a JavaScript string index", () => {
    const stream = "\u{1F600}x\ue005";
    const error = (() => {
      try {
        functok.decode(stream);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    assert.equal(stream[module.codePointToUtf16(stream, error.offset)], "\ue005");
  });

  test("other Python errors arrive as Errors without a kind", () => {
    assert.throws(() => functok.encode("abc", { splitter: "no-such-splitter" }), (error) => {
      assert.ok(error instanceof module.FunctokError);
      assert.equal(error.kind, null);
      assert.notEqual(error.pythonType, "FormatError");
      return true;
    });
  });
});
