// End-to-end test of the web demo: `functok demo` serves the page, headless Chromium (Debian's
// package, driven by playwright-core) loads it, types, and checks what a person would see.
// Fails if the page requests anything outside localhost.  Screenshots go to
// test-output/web-demo/.
//
//   apt-get install -y chromium && npm run build && npm run test:e2e

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const OUTPUT = join(ROOT, "test-output", "web-demo");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const LOAD_TIMEOUT_MS = 180_000;

function python() {
  const venv = join(ROOT, ".venv", "bin", "python");
  return process.env.FUNCTOK_PYTHON ?? (existsSync(venv) ? venv : "python3");
}

// Starts `python -m functok.commands.demo --port 0` and resolves with the URL it prints.
function startServer() {
  const server = spawn(python(), ["-m", "functok.commands.demo", "--port", "0", "--root", ROOT], {
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

const isLocal = (url) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname);

describe("web demo in headless Chromium", { timeout: LOAD_TIMEOUT_MS * 2 }, () => {
  let server;
  let browser;
  let page;
  const requests = [];

  before(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    const started = startServer();
    server = started.server;
    const url = await started.url;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on("request", (request) => requests.push(request.url()));
    // Anything not on this machine is refused outright, so a stray request cannot succeed.
    await page.route((url) => !url.protocol.startsWith("data") && !isLocal(url.href), (route) => route.abort());
    await page.goto(url);
    await page.waitForSelector("body[data-ready]", { timeout: LOAD_TIMEOUT_MS });
  });

  after(async () => {
    await browser?.close();
    server?.kill();
  });

  test("loads, with a progress indicator that ends in Ready", async (t) => {
    assert.equal(await page.getAttribute("body", "data-ready"), "true");
    assert.match(await page.textContent("#load-text"), /^Ready in/);
    t.diagnostic(`first load (page's own measure): ${await page.getAttribute("body", "data-load-seconds")} s`);
  });

  test("typing shows pieces with chips and an exact round trip", async (t) => {
    await page.fill("#input", "");
    await page.type("#input", "Héllo WORLD!!!! naïve");
    await page.waitForFunction(() => document.querySelector("#pieces").textContent.includes("naïve"));
    const chips = await page.$$eval(".chip", (nodes) => nodes.map((n) => n.textContent));
    for (const chip of ["ACUTE 1", "CAPITALIZE 0", "REPEAT 0×4", "DIAERESIS 3"]) assert.ok(chips.includes(chip), `${chip} in ${chips}`);
    const bases = await page.$$eval(".piece .base", (nodes) => nodes.map((n) => n.textContent));
    assert.ok(bases.includes("hello"), bases.join("|"));
    assert.match(await page.getAttribute("#roundtrip", "class"), /\bok\b/);
    t.diagnostic(`update after the last keystroke: ${await page.getAttribute("body", "data-update-ms")} ms`);
    // A longer ordinary text (about 1,700 characters): the update time is reported, not asserted.
    const paragraph = "All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood. ";
    await page.fill("#input", paragraph.repeat(9));
    await page.type("#input", " Fin.");
    await page.waitForFunction(() => document.querySelector("#pieces").textContent.includes("Fin"));
    t.diagnostic(`update on ${paragraph.length * 9 + 5} characters: ${await page.getAttribute("body", "data-update-ms")} ms`);
  });

  test("options switch the splitter and NFC", async () => {
    const pieceTexts = () => page.$$eval(".piece-text", (nodes) => nodes.map((n) => n.textContent));
    await page.fill("#input", "e\u0301t\u00e9 12345");
    await page.waitForFunction(() => [...document.querySelectorAll(".piece-text")].some((n) => n.textContent === "123"));
    const withNfc = await page.textContent("#stream");
    await page.uncheck("#nfc");
    await page.waitForFunction((before) => document.querySelector("#stream").textContent !== before, withNfc);
    await page.check("#nfc");
    // The paper's splitter takes digits one at a time, llama3's up to three.
    await page.selectOption("#splitter", "paper");
    await page.waitForFunction(() => ![...document.querySelectorAll(".piece-text")].some((n) => n.textContent === "123"));
    assert.ok((await pieceTexts()).includes("5"));
    await page.selectOption("#splitter", "llama3");
  });

  test("tokens: greedy and optimal side by side, with counts and TSR", async () => {
    const note = await page.textContent("#tokenizer-note");
    if (note.includes("no Tokenizer") || note.includes("No demo tokenizer")) {
      assert.fail(`the demo tokenizer did not load: ${note}`);
    }
    await page.fill("#input", "Internationalization isn't tokenization!!!");
    // Pieces and tokens are drawn in one update: once the pieces show the text, so do the tokens.
    await page.waitForFunction(() => document.querySelector("#pieces").textContent.includes("internationalization"));
    const count = async (id) => Number((await page.textContent(id)).match(/\d+/)[0]);
    const greedy = await count("#greedy-count");
    const optimal = await count("#optimal-count");
    assert.ok(greedy > 0 && optimal > 0 && optimal <= greedy, `greedy ${greedy}, optimal ${optimal}`);
    assert.equal(await page.locator("#greedy .token").count(), greedy);
    assert.equal(await page.locator("#optimal .token").count(), optimal);
    assert.match(await page.textContent("#tsr"), /^TSR \d+\.\d%/);
  });

  test("a malformed stream names the error and highlights its code point", async () => {
    await page.fill("#stream-input", "ab\\uE005cd");
    await page.check("input[name=mode][value=strict]");
    await page.waitForFunction(() => document.querySelector("#decode-error").textContent.includes("stray-argument"));
    assert.equal(await page.textContent("#decode-error"), "stray-argument at code point 2");
    assert.equal(await page.textContent(".stream-view .cp.bad"), "5");
    await page.check("input[name=mode][value=replace]");
    await page.waitForFunction(() => document.querySelector("#decoded").textContent === "abcd");
    await page.screenshot({ path: join(OUTPUT, "demo.png"), fullPage: true });
  });

  test("works with the keyboard: an example button fills the input", async () => {
    await page.focus("#examples button");
    await page.keyboard.press("Enter");
    assert.equal(await page.inputValue("#input"), "Hello");
    await page.waitForFunction(() => [...document.querySelectorAll(".chip")].some((n) => n.textContent === "CAPITALIZE 0"));
  });

  test("the opcode table is rendered from spec/opcodes.json", async () => {
    const names = await page.$$eval("#opcodes tbody tr td:nth-child(2)", (cells) => cells.map((c) => c.textContent));
    for (const name of ["argument", "CAPITALIZE", "ACUTE", "OGONEK", "REPEAT", "MULTIREPEAT", "ESCAPE"]) assert.ok(names.includes(name), name);
  });

  test("usable at 375 px: no horizontal scrolling", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await page.screenshot({ path: join(OUTPUT, "demo-375.png"), fullPage: true });
    assert.ok(overflow <= 0, `page is ${overflow} px wider than the viewport`);
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  test("every request stayed on this machine", () => {
    assert.ok(requests.length > 0);
    assert.deepEqual(requests.filter((url) => !isLocal(url) && !url.startsWith("data:")), []);
  });
});
