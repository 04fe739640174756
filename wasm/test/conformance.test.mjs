// The whole conformance suite, run inside Pyodide by the suite's own in-process runner
// (functok.conformance), over the vector files that the build copied into dist/.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { DIST, ENGINES, loadOn, ROOT } from "./helpers.mjs";

const VECTORS = join(ROOT, "conformance", "vectors");
const sha256 = (path) => createHash("sha256").update(readFileSync(path)).digest("hex");

for (const engine of ENGINES) describe(`conformance suite inside Pyodide (${engine} engine)`, () => {
  let functok;
  let bundle;

  before(async () => {
    let module;
    ({ functok, module } = await loadOn(engine));
    bundle = await module.readBundleInfo();
  });

  test("dist/ carries the checkout's vector files, unchanged", () => {
    const names = readdirSync(VECTORS).filter((name) => name.endsWith(".json")).sort();
    assert.ok(names.length > 0, "no vector files in conformance/vectors");
    assert.deepEqual(bundle.conformance_vectors, names.map((name) => `conformance/vectors/${name}`));
    for (const name of names) {
      assert.equal(sha256(join(DIST, "conformance", "vectors", name)), sha256(join(VECTORS, name)), name);
    }
  });

  test("every vector passes", (t) => {
    let total = 0;
    for (const path of bundle.conformance_vectors) {
      const bytes = readFileSync(join(DIST, path));
      total += JSON.parse(bytes.toString("utf8")).tests.length;
      functok.writeFile(`/functok/${path}`, bytes);
    }
    const report = functok.runConformance("/functok/conformance/vectors");
    assert.deepEqual(report.not_passed, []);
    assert.equal(report.counts.passed, total);
    assert.ok(total >= 400, `only ${total} vectors`);
    assert.equal(report.implementation.core, engine);
    t.diagnostic(report.summary_line);
  });
});
