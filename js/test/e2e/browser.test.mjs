// The packed package in a page (issue 14, item 7): `npm pack`, an offline install, and a static
// server for the installed folder; headless Chromium imports `functok` through an import map
// and encodes, decodes and tokenizes, and the answers must equal Node's. Skips without Chromium
// (CHROMIUM_PATH, default /usr/bin/chromium); the e2e step of scripts/test.sh installs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { pack, installed, smallFile } from '../pack.mjs';
import * as local from '../../src/index.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.json': 'application/json', '.html': 'text/html' };

const PAGE = `<!doctype html><meta charset="utf-8"><title>functok package</title>
<script type="importmap">{"imports": {"functok": "/node_modules/functok/src/index.mjs"}}</script>
<script type="module">
const t0 = performance.now();
const { encode, decode, Tokenizer, DecodeStream, FormatError, VERSION } = await import('functok');
const imported = performance.now() - t0;
const tok = Tokenizer.fromStr(await (await fetch('/tokenizer.json')).text());
const text = 'Héllo World, ÉCOLE naïve 😀';
const ids = tok.encode(text, { segmentation: 'optimal' }).ids;
const s = new DecodeStream(tok);
const streamed = ids.map((i) => s.step(i) ?? '').join('') + s.finish();
let error = null;
try { decode('ab\\uefff'); } catch (e) { error = e instanceof FormatError ? [e.kind, e.offset] : String(e); }
window.result = { stream: encode(text, { profile: 'compact' }), back: decode(encode(text)), ids, text: tok.decode(ids), streamed, error, VERSION, imported };
document.body.dataset.ready = '1';
</script>`;

function serve(root) {
  const server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (!path.startsWith(root) || !existsSync(path)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('the packed package in headless Chromium, from a static server', { skip: !existsSync(CHROMIUM) && `no Chromium at ${CHROMIUM}`, timeout: 180_000 }, async () => {
  const { chromium } = await import('playwright-core');
  const app = installed(pack().tarball);
  const file = JSON.stringify(smallFile());
  writeFileSync(join(app, 'tokenizer.json'), file);
  writeFileSync(join(app, 'index.html'), PAGE);
  const server = await serve(app);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage();
    const url = `http://127.0.0.1:${server.address().port}/index.html`;
    await page.route((u) => !u.href.startsWith(`http://127.0.0.1:${server.address().port}/`), (route) => route.abort());
    await page.goto(url);
    await page.waitForSelector('body[data-ready]', { state: 'attached', timeout: 60_000 });
    const got = await page.evaluate(() => window.result);
    const tok = local.Tokenizer.fromStr(file);
    const text = 'Héllo World, ÉCOLE naïve 😀';
    const ids = tok.encode(text, { segmentation: 'optimal' }).ids;
    assert.deepEqual({ ...got, imported: undefined }, { stream: local.encode(text, { profile: 'compact' }), back: text, ids, text, streamed: text,
      error: ['escape-at-end', 2], VERSION: local.VERSION, imported: undefined });
  } finally {
    await browser.close();
    server.close();
  }
});
