// The browser half of bench/node/peers.mjs (--browser): functok for JavaScript with its own
// tokenizer (on the engine the package picks, and on the JS reference through the page's switch,
// setEngine('reference')) and tiktoken (npm, its WASM build) in headless Chromium, each case one cold pass in a
// fresh page of a fresh browser context, on the corpora and tokenizers peers.mjs made. A static
// server on 127.0.0.1 serves the checkout (js/src, node_modules, the cache); nothing else is
// reachable from the page. The ids are checked against Node's runs of the same cases.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_ARGS } from './first-sample.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.wasm': 'application/wasm' };

// One case in the page: `load` (import and load, timed apart) returns { encode, engine }.
const PAGE = `<!doctype html><meta charset="utf-8"><title>peers</title><script type="module">
const q = new URLSearchParams(location.search);
const get = async (path) => { const r = await fetch(path); if (!r.ok) throw new Error(path + ': ' + r.status); return r; };
const CASES = {
  'functok-js-own': async () => {
    const file = await (await get(q.get('cache') + '/' + q.get('corpus') + '.tokenizer.json')).text();
    const t0 = performance.now();
    const m = await import('/js/src/index.mjs');
    if (typeof m.ready === 'function') await m.ready(); // the engine's async step in pages, where it has one
    if (q.get('engine')) m.setEngine(q.get('engine')); // the page's switch: 'reference' runs the JS reference
    const t = m.Tokenizer.fromStr(file);
    return { t0, encode: (text) => t.encode(text).ids, engine: m.ENGINE ?? (typeof m.engine === 'function' ? m.engine() : m.engine) ?? 'js' };
  },
  'tiktoken-npm': async () => {
    const [wasm, gpt2] = await Promise.all([get('/node_modules/tiktoken/lite/tiktoken_bg.wasm').then((r) => r.arrayBuffer()),
      get('/node_modules/tiktoken/encoders/gpt2.json').then((r) => r.json())]);
    const t0 = performance.now();
    const { init, Tiktoken } = await import('/node_modules/tiktoken/lite/init.js');
    await init((imports) => WebAssembly.instantiate(wasm, imports));
    const e = new Tiktoken(gpt2.bpe_ranks, gpt2.special_tokens, gpt2.pat_str);
    return { t0, encode: (text) => e.encode_ordinary(text), engine: '' };
  },
};
try {
  const text = await (await get(q.get('cache') + '/' + q.get('corpus') + '.txt')).text();
  const { t0, encode, engine } = await CASES[q.get('case')]();
  const t1 = performance.now();
  const ids = encode(text);
  const seconds = (performance.now() - t1) / 1000;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(Array.from(ids))));
  window.result = { impl: q.get('case'), engine, seconds, mb_s: new TextEncoder().encode(text).length / 1e6 / seconds, tokens: ids.length,
    ids_sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join(''), load_ms: t1 - t0 };
} catch (e) {
  window.result = { error: String(e && e.stack || e) };
}
document.body.dataset.done = '1';
</script>`;

function serve() {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path === '/bench.html') { res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE); return; }
    let file = normalize(join(REPO, path));
    if (!existsSync(file) && existsSync(`${file}.js`)) file = `${file}.js`; // tiktoken's extensionless import
    if (!file.startsWith(REPO) || !existsSync(file) || statSync(file).isDirectory()) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

async function onePage(browser, origin, query) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.route((u) => !u.href.startsWith(`${origin}/`), (route) => route.abort());
    await page.goto(`${origin}/bench.html?${new URLSearchParams(query)}`);
    await page.waitForSelector('body[data-done]', { state: 'attached', timeout: 300_000 });
    const result = await page.evaluate(() => window.result);
    if (result.error) throw new Error(`${query.case} on ${query.corpus} in Chromium: ${result.error}`);
    return result;
  } finally {
    await context.close();
  }
}

/** The ids Node gives for a case (the same child peers.mjs runs). */
function nodeSha(peers, cache, name, corpus, path, env = {}) {
  const r = spawnSync(process.execPath, [peers, '--child', name, cache, corpus, path], { encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout).ids_sha256;
}

export async function browserRuns({ cache, corpora, repeat }) {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  const { chromium } = await import('playwright-core');
  const server = await serve();
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const version = browser.version();
  try {
    console.log(`\nheadless Chromium ${version}: one cold pass per case in a fresh page, best of ${repeat}; MB/s by the wall clock (a page has no CPU clock)`);
    console.log(`${'corpus'.padEnd(14)}${'case'.padEnd(26)}${'engine'.padEnd(11)}${'MB/s'.padStart(8)}${'x tiktoken-npm'.padStart(16)}${'load ms'.padStart(9)}`);
    for (const { name, path } of corpora) {
      const best = {};
      for (let r = 0; r < repeat; r++) {
        for (const [label, impl, engine] of [['functok-js-own', 'functok-js-own', ''], ['functok-js-own-reference', 'functok-js-own', 'reference'], ['tiktoken-npm', 'tiktoken-npm', '']]) {
          const row = await onePage(browser, origin, { case: impl, corpus: name, cache: `/${relative(REPO, cache)}`, ...(engine && { engine }) });
          if (!best[label] || row.mb_s > best[label].mb_s) best[label] = { ...row, impl: label };
        }
      }
      const peers = join(REPO, 'bench', 'node', 'peers.mjs');
      const own = nodeSha(peers, cache, 'functok-js-own', name, path);
      for (const label of ['functok-js-own', 'functok-js-own-reference']) {
        if (best[label].ids_sha256 !== own) throw new Error(`${name}: ${label}'s ids in Chromium differ from Node's`);
      }
      if (best['tiktoken-npm'].ids_sha256 !== nodeSha(peers, cache, 'tiktoken-npm', name, path)) throw new Error(`${name}: tiktoken's ids in Chromium differ from Node's`);
      for (const row of Object.values(best)) {
        console.log(`${name.padEnd(14)}${row.impl.padEnd(26)}${String(row.engine).padEnd(11)}${row.mb_s.toFixed(2).padStart(8)}`
          + `${(row.mb_s / best['tiktoken-npm'].mb_s).toFixed(2).padStart(16)}${row.load_ms.toFixed(0).padStart(9)}`);
      }
    }
    console.log('# ids in Chromium = Node\'s for both cases (SHA-256)');
  } finally {
    await browser.close();
    server.close();
  }
}
