// The hand-written declarations are checked: tsc --noEmit (strict) over a small usage
// file for each package, js/index.d.ts and js/codec.d.ts through js/package.json's exports and
// wasm/functok.d.ts with the types it takes from js/index.d.ts; and the values each .d.ts
// declares are the module's exports, name for name. TypeScript is a root devDependency (npm ci).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const path = (p) => fileURLToPath(new URL(p, import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

for (const [what, project] of [['js/index.d.ts and js/codec.d.ts', './types/tsconfig.json'], ['wasm/functok.d.ts', '../../wasm/test/types/tsconfig.json']]) {
  test(`tsc --noEmit: ${what} and their usage file`, () => {
    const r = spawnSync(process.execPath, [TSC, '-p', path(project)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
}

/** The names of the values (not the types) a declaration file exports. */
function declaredValues(file) {
  const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)));
  const target = (s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  return exports.filter((s) => target(s).flags & ts.SymbolFlags.Value).map((s) => s.name).sort();
}

for (const [declarations, module] of [['../index.d.ts', '../src/index.mjs'], ['../codec.d.ts', '../src/codec.mjs']]) {
  test(`${declarations.slice(3)} declares exactly the exports of ${module.slice(3)}`, async () => {
    const runtime = Object.keys(await import(module)).sort();
    assert.deepEqual(declaredValues(path(declarations)), runtime);
  });
}
