// The web demo's first-sample figure: milliseconds from navigation start to the first encoded
// sample on the page, over cold loads in headless Chromium, beside a blank page in the same
// browser as the same-run baseline. A benchmark, not a test (on a loaded machine the time says
// more about the machine than the page): the goal, 300 ms, is printed beside the figure, never
// asserted. web-demo/test/e2e.test.mjs reports the
// same figure as a diagnostic, with these helpers; bench/browser/peers.mjs launches Chromium with them.
//
//   node bench/browser/first-sample.mjs [--loads N]      (npm run bench runs it)

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
export const FIRST_SAMPLE_GOAL_MS = 300;

export function python() {
  const venv = join(ROOT, ".venv", "bin", "python");
  return process.env.FUNCTOK_PYTHON ?? (existsSync(venv) ? venv : "python3");
}

/** Starts `python -m functok.commands.demo --port 0 --root ROOT`: { server, url } (a promise of the URL it prints). */
export function startServer(root) {
  const server = spawn(python(), ["-m", "functok.commands.demo", "--port", "0", "--root", root], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: join(ROOT, "python") },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = new Promise((resolveUrl, reject) => {
    let seen = "";
    server.stdout.on("data", (chunk) => {
      seen += chunk;
      const match = seen.match(/http:\/\/\S+/);
      if (match) resolveUrl(match[0]);
    });
    server.on("exit", (code) => reject(new Error(`functok demo exited with ${code}`)));
  });
  return { server, url };
}

export const isLocal = (url) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Opens `address` in a new context (an empty HTTP cache) and waits for body[data-ready].
 * Anything not on this machine is refused outright; `onRequest` sees every request's URL;
 * `fulfill`, if given, answers the address itself.
 */
export async function openPage(browser, address, { viewport = { width: 1100, height: 900 }, fulfill = null, onRequest = () => {} } = {}) {
  const context = await browser.newContext({ viewport });
  const opened = await context.newPage();
  if (fulfill) await opened.route(address, (route) => route.fulfill(fulfill));
  opened.on("request", (request) => onRequest(request.url()));
  await opened.route((target) => !target.protocol.startsWith("data") && !isLocal(target.href), (route) => route.abort());
  await opened.goto(address);
  await opened.waitForSelector("body[data-ready]", { state: "attached" });
  return opened;
}

// A blank page whose one inline module marks itself ready the way the demo does, answered by the
// browser itself (no server, no modules to fetch): the floor under any page's figure.
const BLANK = {
  contentType: "text/html",
  body: "<!doctype html><body><script type=module>requestAnimationFrame(() => setTimeout(() => { document.body.dataset.firstSampleMs = performance.now().toFixed(1); document.body.dataset.ready = 'true'; }));</script>",
};

/**
 * `loads` cold loads of the demo at `url`, each after one of the blank page: { figures, floor }
 * (ms from navigation start, of the demo and of the blank page). `check(page)` runs on each
 * loaded demo page before it closes.
 */
export async function measureFirstSample(browser, url, { loads = 5, onRequest, check = async () => {} } = {}) {
  const figures = [], floor = [];
  for (let i = 0; i < loads; i += 1) {
    const empty = await openPage(browser, `${url}blank`, { fulfill: BLANK, onRequest });
    floor.push(Number(await empty.getAttribute("body", "data-first-sample-ms")));
    await empty.context().close();
    const cold = await openPage(browser, url, { onRequest });
    await check(cold);
    // performance.now() in the page counts from the navigation's start (its time origin)
    figures.push(Number(await cold.getAttribute("body", "data-first-sample-ms")));
    await cold.context().close();
  }
  return { figures, floor };
}

/** The figure in two lines: the page's loads and the blank page's, with their ratio and the machine's load. */
export function describeFirstSample({ figures, floor }) {
  const best = Math.min(...figures), bestFloor = Math.min(...floor);
  const load = loadavg().map((x) => x.toFixed(1)).join(" ");
  return [
    `first encoded sample after navigation start, ${figures.length} cold loads: ${figures.join(", ")} ms (best ${best}, median ${median(figures)}; goal < ${FIRST_SAMPLE_GOAL_MS} ms; load average ${load})`,
    `baseline, a blank page in the same browser: ${floor.join(", ")} ms (best ${bestFloor}); the page's best is ${(best / bestFloor).toFixed(1)}x the blank page's`,
  ];
}

async function main() {
  if (!existsSync(CHROMIUM)) {
    console.log(`first encoded sample: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
    return;
  }
  const { chromium } = await import("playwright-core");
  const at = process.argv.indexOf("--loads");
  const loads = at > 0 ? Number(process.argv[at + 1]) : 5;
  const started = startServer(ROOT);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const result = await measureFirstSample(browser, await started.url, { loads });
    for (const line of describeFirstSample(result)) console.log(line);
  } finally {
    await browser.close();
    started.server.kill();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
