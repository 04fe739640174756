#!/usr/bin/env node
// The codec of this checkout against the one of a git revision, in one process, on the same text:
//
//   node bench/node/against.mjs [--rev REV] [--repeat N] [FILE...]
//
// REV (default HEAD) is checked out with `git archive` into a temporary folder, and both
// js/src trees are imported side by side (two module graphs). Each repeat runs, interleaved,
// encode and pretokens of every file under both, each with its caches cleared first (JIT warm
// after the first repeat, caches cold), the two sides taking turns to go first. Prints MB/s of
// UTF-8 input, best of N, and this checkout / REV as the ratio of the bests and as the median of
// the N paired ratios (the steadier on a loaded machine); outputs must be identical. Without
// FILEs: spec/SPEC.md, the Python sources and tests, the docs and js/src, concatenated.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => { const k = args.indexOf(name); return k < 0 ? fallback : args.splice(k, 2)[1]; };
const rev = option('--rev', 'HEAD');
const repeat = Number(option('--repeat', '5'));

function filesUnder(dir, ext) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === 'data' ? [] : filesUnder(p, ext);
    return p.endsWith(ext) ? [p] : [];
  });
}

const corpus = args.length ? args.map((f) => [f, readFileSync(f, 'utf8')])
  : [['repo text', [join(REPO, 'spec/SPEC.md'), ...filesUnder(join(REPO, 'python/functok'), '.py'), ...filesUnder(join(REPO, 'tests'), '.py'), ...filesUnder(join(REPO, 'docs'), '.md'), ...filesUnder(join(REPO, 'js/src'), '.mjs')]
    .map((f) => readFileSync(f, 'utf8')).join('\n')]];

const dir = mkdtempSync(join(tmpdir(), 'functok-against-'));
try {
  execFileSync('sh', ['-c', `git -C "${REPO}" archive "${rev}" js/src | tar -x -C "${dir}"`]);
  // The encoder's module; a revision before the modules took the spec's section names has encode.mjs.
  const encoderOf = (root) => ['encoding.mjs', 'encode.mjs'].map((name) => join(root, 'js/src', name)).find(existsSync);
  const load = async (root) => import(pathToFileURL(encoderOf(root)).href);
  const sides = { [rev]: await load(dir), here: await load(REPO) };
  const ops = { encode: (m, t) => m.encode(t), pretokens: (m, t) => m.pretokens(t).join('\u0000') };
  for (const [name, text] of corpus) {
    const mb = Buffer.byteLength(text) / 1e6;
    for (const [op, run] of Object.entries(ops)) {
      const best = {}, outputs = {}, speed = {}, ratios = [];
      for (let r = 0; r < repeat; r++) {
        const order = Object.entries(sides);
        if (r % 2) order.reverse(); // neither side always runs first
        for (const [side, m] of order) {
          m.clearCaches();
          const t0 = performance.now();
          outputs[side] = run(m, text);
          const s = (performance.now() - t0) / 1000;
          best[side] = Math.max(best[side] ?? 0, mb / s);
          speed[side] = mb / s;
        }
        ratios.push(speed.here / speed[rev]);
        if (outputs[rev] !== outputs.here) throw new Error(`${op} of ${name}: the outputs differ`);
      }
      console.log(JSON.stringify({ file: name, mb: +mb.toFixed(2), op, [`${rev}_mb_s`]: +best[rev].toFixed(2),
        here_mb_s: +best.here.toFixed(2), ratio_of_best: +(best.here / best[rev]).toFixed(3),
        median_paired_ratio: +ratios.sort((a, b) => a - b)[ratios.length >> 1].toFixed(3) }));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
