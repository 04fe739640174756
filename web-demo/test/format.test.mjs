// The demo page's pure helpers (web-demo/format.mjs), without a browser.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  chipLabel,
  compareAnswers,
  describeCodePoint,
  escapeStream,
  firstDifference,
  opcodeTable,
  pieceSummary,
  tokenSavingRate,
  unescapeStream,
} from "../format.mjs";

const table = opcodeTable(JSON.parse(readFileSync(new URL("../../spec/opcodes.json", import.meta.url), "utf8")));

test("chips read like the issue's examples", () => {
  assert.equal(chipLabel({ name: "CAPITALIZE", args: [0] }), "CAPITALIZE 0");
  assert.equal(chipLabel({ name: "ACUTE", args: [1] }), "ACUTE 1");
  assert.equal(chipLabel({ name: "REPEAT", args: [0, 4] }), "REPEAT 0×4");
  assert.equal(chipLabel({ name: "MULTIREPEAT", args: [0, 3, 3] }), "MULTIREPEAT 0–3×3");
  assert.equal(chipLabel({ name: "UPPERCASE", args: [0, 5] }), "UPPERCASE 0–5");
});

test("code points of a stream are named from spec/opcodes.json", () => {
  assert.deepEqual(describeCodePoint(0xe100, table), { kind: "opcode", label: "CAPITALIZE" });
  assert.deepEqual(describeCodePoint(0xe10d, table), { kind: "opcode", label: "OGONEK" });
  assert.deepEqual(describeCodePoint(0xe110, table), { kind: "opcode", label: "UPPERCASE" });
  assert.deepEqual(describeCodePoint(0xe005, table), { kind: "argument", label: "5" });
  assert.deepEqual(describeCodePoint(0xefff, table), { kind: "escape", label: "ESC" });
  assert.deepEqual(describeCodePoint(0xe150, table), { kind: "unassigned", label: "U+E150" });
  assert.deepEqual(describeCodePoint(0x61, table), { kind: "text", label: "a" });
});

test("escapes round-trip, raw streams pass through", () => {
  const stream = "\ue100\ue000hello \\ \u{F0000}\n\ud800x";
  assert.equal(escapeStream("\ue100\ue000hi"), "\\uE100\\uE000hi");
  assert.equal(unescapeStream(escapeStream(stream)), stream);
  assert.equal(unescapeStream("\ue100\ue000hello"), "\ue100\ue000hello");
  assert.equal(unescapeStream("\\uE200\\uE000\\uE004!"), "\ue200\ue000\ue004!");
});

test("TSR is the share of tokens saved", () => {
  assert.equal(tokenSavingRate(10, 8), 0.2);
  assert.equal(tokenSavingRate(0, 0), 0);
});

test("pieces from both implementations compare in one shape", () => {
  const fromJs = { text: "Hé", start: 0, end: 2, instructions: [{ name: "ACUTE", args: [1], toString: () => "x" }], base: "he", encoded: "\ue102\ue001he", slotStarts: [0, 1] };
  const fromPython = { text: "Hé", start: 0, end: 2, instructions: [{ name: "ACUTE", args: [1], label: "ACUTE(1)" }], base: "he", encoded: "\ue102\ue001he", slot_starts: [0, 1] };
  assert.deepEqual(pieceSummary(fromJs), pieceSummary(fromPython));
  assert.deepEqual(pieceSummary(fromPython).instructions, ["ACUTE(1)"]);
  assert.notDeepEqual(pieceSummary({ ...fromJs, base: "hé" }), pieceSummary(fromPython));
});

test("the first difference of two streams, lists or id arrays", () => {
  assert.equal(firstDifference("abc", "abc"), -1);
  assert.equal(firstDifference("abc", "abd"), 2);
  assert.equal(firstDifference("ab", "abc"), 2);
  assert.equal(firstDifference([1, 2, 3], [1, 2, 3]), -1);
  assert.equal(firstDifference([{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 3 }]), 1);
  assert.deepEqual(compareAnswers({ stream: "ab", ids: [1, 2], pieces: undefined }, { stream: "ab", ids: [1, 3], pieces: [] }), [
    { part: "stream", same: true, at: -1 },
    { part: "ids", same: false, at: 1 },
  ]);
});
