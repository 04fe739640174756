// The demo page: loads functok (Python in Pyodide) through wasm/dist/functok.mjs and keeps the
// four parts of the page up to date.  Served by `functok demo` from the repository root, or by
// any static server there, at /web-demo/.

import { loadFunctok } from "../wasm/dist/functok.mjs";
import {
  chipLabel,
  describeCodePoint,
  escapeStream,
  opcodeTable,
  tokenSavingRate,
  unescapeStream,
} from "./format.mjs";

const OPCODES_URL = new URL("../spec/opcodes.json", import.meta.url);
const TOKENIZER_URL = new URL("../wasm/dist/demo-tokenizer.json", import.meta.url);

const EXAMPLES = [
  ["Hello", "Hello"],
  ["Héllo", "Héllo"],
  ["######", "######"],
  ["4 spaces", "    "],
  ["abcabcabc", "abcabcabc"],
  ["Vietnamese", "Mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền lợi."],
  ["Turkish", "İstanbul ılık, İzmir sıcak."],
  ["Python", "def greet(name):\n    if name:\n        return f\"Héllo, {name}!!!\"\n    return None\n"],
  ["Private use", "Literal \ue100 and \uefff in the input are escaped."],
];

const $ = (id) => document.getElementById(id);
const LOAD_STEPS = { runtime: [1, "Starting the Python runtime (Pyodide)…"], package: [2, "Installing functok…"], ready: [3, "Ready."] };

let functok;
let tokenizer = null;
let table = new Map();

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A run of stream text as nodes: private-use code points become labelled boxes. */
function streamNodes(text, badOffset = -1) {
  const nodes = [];
  let index = 0;
  for (const ch of text) {
    const { kind, label } = describeCodePoint(ch.codePointAt(0), table);
    const node = element("span", `cp cp-${kind}`, kind === "text" ? ch : label);
    if (kind !== "text") node.title = `U+${ch.codePointAt(0).toString(16).toUpperCase()}`;
    if (index === badOffset) {
      node.classList.add("bad");
      node.setAttribute("aria-label", `error here: ${node.title || ch}`);
    }
    nodes.push(node);
    index += 1;
  }
  return nodes;
}

function encodeOptions() {
  return {
    splitter: $("splitter").value,
    normalize: $("nfc").checked ? "nfc" : null,
    split_operators: $("split-operators").checked,
  };
}

// Whitespace made visible, so a piece of spaces is not an empty box.
const visible = (text) => text.replace(/ /g, "␣").replace(/\n/g, "⏎").replace(/\t/g, "⇥");

function renderPieces(pieces) {
  const list = $("pieces");
  list.replaceChildren(
    ...pieces.map((piece) => {
      const item = element("li", piece.instructions.length ? "piece" : "piece plain");
      item.append(element("span", "piece-text", visible(piece.text)));
      const chips = element("span", "chips");
      chips.append(...piece.instructions.map((ins) => element("span", "chip", chipLabel(ins))));
      const base = element("span", "base");
      base.append(...streamNodes(visible(piece.base)));
      item.append(chips, base);
      return item;
    }),
  );
}

function renderTokens(containerId, countId, encoding) {
  const container = $(containerId);
  container.replaceChildren(
    ...encoding.tokens.map((token, i) => {
      const span = element("span", `token hue-${i % 6}`);
      span.append(...streamNodes(token));
      span.title = `id ${encoding.ids[i]}`;
      return span;
    }),
  );
  $(countId).textContent = `${encoding.ids.length} tokens`;
}

// The tokenizer carries its own splitter and normalization; the encode options do not apply.
function updateTokens(text) {
  if (!tokenizer) return;
  const greedy = tokenizer.encode(text, { segmentation: "greedy" });
  const optimal = tokenizer.encode(text, { segmentation: "optimal" });
  renderTokens("greedy", "greedy-count", greedy);
  renderTokens("optimal", "optimal-count", optimal);
  const tsr = tokenSavingRate(greedy.ids.length, optimal.ids.length);
  $("tsr").textContent = `TSR ${(tsr * 100).toFixed(1)}%: optimal segmentation saves ${greedy.ids.length - optimal.ids.length} of ${greedy.ids.length} tokens.`;
}

function updateEncode() {
  const started = performance.now();
  const text = $("input").value;
  const options = encodeOptions();
  const inspection = functok.inspect(text, options);
  renderPieces(inspection.pieces);
  $("stream").textContent = escapeStream(inspection.stream);
  $("pretokens").replaceChildren(...inspection.pretokens.map((p) => element("li", "pretoken", escapeStream(p))));
  const marker = $("roundtrip");
  marker.textContent = inspection.roundtrip ? "✓ Round trip exact: decode(encode(text)) gives the text back." : "✗ Round trip differs!";
  marker.className = inspection.roundtrip ? "marker ok" : "marker bad";
  updateTokens(text);
  const elapsed = performance.now() - started;
  $("timing").textContent = `Updated in ${elapsed.toFixed(1)} ms.`;
  document.body.dataset.updateMs = elapsed.toFixed(1);
}

function updateDecode() {
  const stream = unescapeStream($("stream-input").value);
  const mode = document.querySelector("input[name=mode]:checked").value;
  let strictError = null;
  try {
    functok.decode(stream);
  } catch (error) {
    if (error.kind === undefined) throw error;
    strictError = error;
  }
  const output = $("decoded");
  const message = $("decode-error");
  if (strictError && mode === "strict") {
    output.textContent = "";
    message.textContent = `${strictError.kind} at code point ${strictError.offset}`;
  } else {
    output.textContent = functok.decode(stream, { errors: mode });
    message.textContent = strictError ? `Lenient decoding repaired: ${strictError.kind} at code point ${strictError.offset}` : "";
  }
  message.dataset.kind = strictError?.kind ?? "";
  message.className = mode === "strict" ? "error" : "repaired";
  $("stream-view").replaceChildren(...streamNodes(stream, strictError ? strictError.offset : -1));
}

function renderReference(opcodes) {
  $("spec-version").textContent = `spec ${opcodes.spec_version}`;
  const rows = [
    [opcodes.argument.first + "–" + opcodes.argument.last.slice(2), "argument", "", opcodes.argument.meaning],
    ...opcodes.opcodes.map((op) => [op.code_point, op.name, op.args.map((a) => a.name).join(", "), op.meaning]),
    [opcodes.escape.code_point, opcodes.escape.name, "", opcodes.escape.meaning],
  ];
  $("opcodes").tBodies[0].replaceChildren(
    ...rows.map((cells) => {
      const row = element("tr");
      row.append(...cells.map((cell) => element("td", "", cell)));
      return row;
    }),
  );
  $("examples").replaceChildren(
    ...EXAMPLES.map(([name, text]) => {
      const item = element("li");
      const button = element("button", "example", name);
      button.type = "button";
      button.addEventListener("click", () => {
        $("input").value = text;
        scheduleEncode();
        $("input").focus();
      });
      item.append(button);
      return item;
    }),
  );
}

let pending = false;
function scheduleEncode() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    updateEncode();
  });
}

function showProgress(step) {
  const [value, text] = LOAD_STEPS[step];
  $("load-progress").value = value;
  $("load-text").textContent = text;
}

async function loadTokenizer() {
  try {
    tokenizer = await functok.loadTokenizer(TOKENIZER_URL);
  } catch (error) {
    $("tokenizer-note").textContent = `No demo tokenizer in this build (${error.message}).`;
  }
}

async function main() {
  const started = performance.now();
  const opcodes = await (await fetch(OPCODES_URL)).json();
  table = opcodeTable(opcodes);
  renderReference(opcodes);
  functok = await loadFunctok({ onProgress: showProgress });
  if (functok.hasTokenizer) await loadTokenizer();
  else $("tokenizer-note").textContent = "This build of functok has no Tokenizer yet.";
  for (const node of document.querySelectorAll("[disabled]")) node.disabled = false;
  $("input").addEventListener("input", scheduleEncode);
  for (const id of ["splitter", "nfc", "split-operators"]) $(id).addEventListener("change", scheduleEncode);
  $("stream-input").addEventListener("input", updateDecode);
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.addEventListener("change", updateDecode);
  updateEncode();
  updateDecode();
  const loadSeconds = (performance.now() - started) / 1000;
  $("load-text").textContent = `Ready in ${loadSeconds.toFixed(1)} s.`;
  document.body.dataset.loadSeconds = loadSeconds.toFixed(2);
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  $("load-text").textContent = `Could not load functok: ${error.message}`;
  document.body.dataset.ready = "error";
  throw error;
});
