// The packed package in a page, as a user installs it: `npm pack` (whose prepack builds the
// C core into the package), an offline install into a temp project, and a static server for it
// on 127.0.0.1. One headless Chromium, three ways in, the same checks in each:
//   * a plain ESM import through an import map (no bundler);
//   * a module web worker, importing the package by its path;
//   * a bundle: esbuild (a pinned root devDependency: the bundler most others are built on or
//     measured against) bundles an entry that does `import * as functok from 'functok'`.
// The checks: ids (greedy and optimal) of a few texts under a tokenizer CPython functok trained
// equal CPython's, decode and DecodeStream give the text back, the codec's stream and a typed
// FormatError equal Node's, the engine that runs is the C core in WebAssembly, and the page's
// switch, setEngine('reference'), gives the same ids on the JS reference. Skips without Chromium
// (CHROMIUM_PATH, default /usr/bin/chromium); the e2e step of scripts/test.sh installs it. Without
// FUNCTOK_PYTHON the expected ids come from this checkout's JS reference instead of CPython.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { pack, installed, smallFile } from '../pack.mjs';
import { PYTHON, python } from '../python.mjs';
import * as local from '../../src/index.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.wasm': 'application/wasm' };

const TRAIN = ['The quick brown fox jumps over the lazy dog. THE QUICK BROWN FOX!', 'Héllo Wörld, ÉCOLE naïve café résumé',
  'Всеобщая декларация прав человека', '人人生而自由，在尊严和权利上一律平等。', 'كل الناس يولدون أحرارا متساوين في الكرامة والحقوق',
  'def encode(self, text):\n    return [ord(c) for c in text]\n'];
const TEXTS = ['Héllo World, ÉCOLE naïve 😀', 'THE LAZY DOG jumps over the quick fox.', 'Всеобщая ДЕКЛАРАЦИЯ — 人人生而自由 — كل الناس',
  'def decode(ids):\n\treturn "".join(map(chr, ids))  # ÀÀÀÀ\n', '🏳️‍🌈 e\u0301 A\u030a\u0323 \u1100\u1161\u11a8 ǅ'];
const NFC = TEXTS.map((t) => t.normalize('NFC')); // what decode gives back: the tokenizer normalizes first
const MODES = ['greedy', 'optimal'];

// What every page runs, given the package's module: the answers the test compares.
const CHECKS = `export async function checks(functok, file, texts) {
  const { decode, encode, Tokenizer, DecodeStream, FormatError, VERSION } = functok;
  const tok = Tokenizer.fromStr(file);
  const idsOf = () => Object.fromEntries(${JSON.stringify(MODES)}.map((m) => [m, texts.map((t) => tok.encode(t, { segmentation: m }).ids)]));
  const ids = idsOf();
  const engine = functok.engine();
  functok.setEngine('reference');
  const referenceIds = idsOf();
  functok.setEngine(engine);
  const decoded = ids.greedy.map((i) => tok.decode(i));
  const streamed = ids.optimal.map((i) => { const s = new DecodeStream(tok); return i.map((id) => s.step(id) ?? '').join('') + s.finish(); });
  let error = null;
  try { decode('ab\\uefff'); } catch (e) { error = e instanceof FormatError ? [e.kind, e.offset] : String(e); }
  return { ids, decoded, streamed, stream: encode(texts[0], { profile: 'compact' }), back: decode(encode(texts[0])), error, VERSION,
    referenceIds, engine };
}
`;

const run = (load) => `<!doctype html><meta charset="utf-8"><title>functok package</title>
<script type="importmap">{"imports": {"functok": "/node_modules/functok/src/index.mjs"}}</script>
<script type="module">
try {
  const [file, texts] = await Promise.all([fetch('/tokenizer.json').then((r) => r.text()), fetch('/texts.json').then((r) => r.json())]);
  window.result = await (${load})(file, texts);
} catch (e) { window.result = { failure: String(e && e.stack || e) }; }
document.body.dataset.ready = '1';
</script>`;

const PAGES = {
  'import map': run(`async (file, texts) => (await import('/checks.mjs')).checks(await import('functok'), file, texts)`),
  'web worker': run(`() => new Promise((resolve, reject) => {
    const w = new Worker('/worker.mjs', { type: 'module' });
    w.onmessage = (e) => resolve(e.data); w.onerror = (e) => reject(new Error(e.message));
  })`),
  'esbuild bundle': run(`async (file, texts) => (await import('/bundle.js')).run(file, texts)`),
};
const FILES = {
  'checks.mjs': CHECKS,
  // The worker fetches its own inputs: a message sent to it could arrive before its module (which
  // awaits the package's top-level await) has set onmessage, and be lost.
  'worker.mjs': `try {
  const functok = await import('/node_modules/functok/src/index.mjs');
  const { checks } = await import('/checks.mjs');
  const [file, texts] = await Promise.all([fetch('/tokenizer.json').then((r) => r.text()), fetch('/texts.json').then((r) => r.json())]);
  self.postMessage(await checks(functok, file, texts));
} catch (e) { self.postMessage({ failure: String(e && e.stack || e) }); }
`,
  'entry.mjs': `import * as functok from 'functok';
import { checks } from './checks.mjs';
export const run = (file, texts) => checks(functok, file, texts);
`,
};

function serve(root) {
  const server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (!path.startsWith(root) || !existsSync(path)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The tokenizer file and the ids the pages must give: CPython's where FUNCTOK_PYTHON is set. */
function expected() {
  if (!PYTHON) {
    const file = JSON.stringify(smallFile());
    const tok = local.Tokenizer.fromStr(file);
    const ids = Object.fromEntries(MODES.map((m) => [m, TEXTS.map((t) => tok.encode(t, { segmentation: m }).ids)]));
    return { file, ids, by: 'the JS reference (no FUNCTOK_PYTHON)' };
  }
  const [file] = python('train', { texts: TRAIN, vocab_size: 400, settings: [{}] });
  const answer = python('encode', { tokenizer: file, texts: TEXTS, modes: MODES });
  assert.deepEqual(answer.decoded, NFC, 'CPython round-trips the texts (to NFC: the tokenizer normalizes)');
  return { file, ids: answer.ids, by: 'CPython functok' };
}

test('the packed package in headless Chromium: import map, web worker, esbuild bundle', { skip: !existsSync(CHROMIUM) && `no Chromium at ${CHROMIUM}`, timeout: 180_000 }, async () => {
  const { chromium } = await import('playwright-core');
  const { build } = await import('esbuild');
  const app = installed(pack().tarball);
  const { file, ids, by } = expected();
  writeFileSync(join(app, 'tokenizer.json'), file);
  writeFileSync(join(app, 'texts.json'), JSON.stringify(TEXTS));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(app, name), text);
  for (const [name, page] of Object.entries(PAGES)) writeFileSync(join(app, `${name.replace(/ /g, '-')}.html`), page);
  // ESM out: the package may load its engine with a top-level await.
  await build({ entryPoints: [join(app, 'entry.mjs')], bundle: true, format: 'esm', platform: 'browser', outfile: join(app, 'bundle.js'), logLevel: 'error', absWorkingDir: app });
  const server = await serve(app);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const want = { ids, referenceIds: ids, decoded: NFC, streamed: NFC, stream: local.encode(TEXTS[0], { profile: 'compact' }), back: TEXTS[0],
      error: ['escape-at-end', 2], VERSION: local.VERSION };
    for (const name of Object.keys(PAGES)) {
      const page = await browser.newPage();
      await page.route((u) => !u.href.startsWith(`${origin}/`), (route) => route.abort());
      await page.goto(`${origin}/${name.replace(/ /g, '-')}.html`);
      const logged = [];
      page.on('console', (m) => logged.push(m.text()));
      page.on('pageerror', (e) => logged.push(String(e)));
      await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: 60_000 }).catch((e) => {
        throw new Error(`${name}: the page did not finish (${e.message}); its console: ${logged.join(' | ')}`);
      });
      const got = await page.evaluate(() => window.result);
      await page.close();
      assert.equal(got.failure, undefined, `${name}: ${got.failure}`);
      const { engine, ...answers } = got;
      assert.deepEqual(answers, want, `${name}: the answers equal ${by}'s`);
      assert.equal(engine, 'wasm', `${name}: the package runs on the C core in WebAssembly`);
    }
  } finally {
    await browser.close();
    server.close();
  }
});
