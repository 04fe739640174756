// The demo page.  It runs on functok for JavaScript (../js/src, plain ES modules, through
// codec.mjs), so it is interactive as soon as its modules load.  The switch "Check against the
// Python reference" loads the Python package in Pyodide on demand (reference.mjs) and compares
// every answer with it, live.  Served by `functok demo`, or by any static server at the
// repository root, at /web-demo/.

import * as js from "./codec.mjs";
import {
  chipLabel,
  compareAnswers,
  describeCodePoint,
  escapeStream,
  opcodeTable,
  pieceSummary,
  tokenSavingRate,
  unescapeStream,
} from "./format.mjs";

const OPCODES_URL = new URL("../spec/opcodes.json", import.meta.url);
// `functok demo` serves the demo tokenizer at the root (trained on first use when the bundle has
// none); a plain static server at the repository root has only the bundle's copy.
const TOKENIZER_URLS = [new URL("../demo-tokenizer.json", import.meta.url), new URL("../wasm/dist/demo-tokenizer.json", import.meta.url)];
const SEGMENTATIONS = ["greedy", "optimal"];

const EXAMPLES = [
  ["Hello", "Hello"],
  ["Héllo", "Héllo"],
  ["######", "######"],
  ["4 spaces", "    "],
  ["abcabcabc", "abcabcabc"],
  ["Capitals", "MAX_SIZE = HTTPServer(UNICEF)"],
  ["Vietnamese", "Mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền lợi."],
  ["Turkish", "İstanbul ılık, İzmir sıcak."],
  ["Python", "def greet(name):\n    if name:\n        return f\"Héllo, {name}!!!\"\n    return None\n"],
  ["Private use", "Literal \ue100 and \uefff in the input are escaped."],
];

const ENABLE_REFERENCE =
  "This server has no Python bundle (wasm/dist/). To enable the check, in a clone of the repository run " +
  "`.venv/bin/pip install '.[wasm]' && npm ci && npm run build`, then `functok demo` from there " +
  "(or `functok demo --wasm PATH/TO/wasm/dist`).";
const LOAD_STEPS = { runtime: [1, "Starting the Python runtime (Pyodide)…"], package: [2, "Installing functok…"], ready: [3, "Ready."] };

const $ = (id) => document.getElementById(id);

const state = {
  table: new Map(),
  tokenizerJson: null,
  tokenizers: { JavaScript: null, Python: null },
  reference: null, // the Python reference once loaded
  referenceLoading: null,
};
const checking = () => $("check-python").checked && state.reference !== null;

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
    const { kind, label } = describeCodePoint(ch.codePointAt(0), state.table);
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
    profile: $("profile").value,
    splitter: $("splitter").value,
    normalize: $("nfc").checked ? "nfc" : null,
    splitOperators: $("split-operators").checked,
  };
}

// Whitespace made visible, so a piece of spaces is not an empty box.
const visible = (text) => text.replace(/ /g, "␣").replace(/\n/g, "⏎").replace(/\t/g, "⇥");

function renderPieces(pieces) {
  $("pieces").replaceChildren(
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

function renderTokens(segmentation, encoding) {
  $(segmentation).replaceChildren(
    ...encoding.tokens.map((token, i) => {
      const span = element("span", `token hue-${i % 6}`);
      span.append(...streamNodes(token));
      span.title = `id ${encoding.ids[i]}`;
      return span;
    }),
  );
  $(`${segmentation}-count`).textContent = `${encoding.ids.length} tokens`;
}

// The tokenizer carries its own splitter, normalization and profile; the encode options do not
// apply.  JavaScript's tokenizer draws the tokens when there is one, Python's otherwise.
function updateTokens(text) {
  const { JavaScript: ours, Python: theirs } = state.tokenizers;
  const shown = ours ?? (checking() ? theirs : null);
  if (!shown) {
    for (const id of [...SEGMENTATIONS, ...SEGMENTATIONS.map((s) => `${s}-count`), "tsr"]) $(id).replaceChildren();
    return {};
  }
  const encodings = Object.fromEntries(SEGMENTATIONS.map((s) => [s, shown.encode(text, s)]));
  for (const s of SEGMENTATIONS) renderTokens(s, encodings[s]);
  const [greedy, optimal] = SEGMENTATIONS.map((s) => encodings[s].ids.length);
  $("tsr").textContent = `TSR ${(tokenSavingRate(greedy, optimal) * 100).toFixed(1)}%: optimal segmentation saves ${greedy - optimal} of ${greedy} tokens.`;
  if (!(ours && theirs && checking())) return {};
  // Both tokenizers loaded the same file: their ids must agree under both segmentations.
  const pairs = SEGMENTATIONS.map((s) => [`ids (${s})`, encodings[s].ids, theirs.encode(text, s).ids]);
  return { ours: Object.fromEntries(pairs.map(([p, a]) => [p, a])), theirs: Object.fromEntries(pairs.map(([p, , b]) => [p, b])) };
}

function showRoundTrip(answer, error) {
  const marker = $("roundtrip");
  if (error) marker.textContent = `✗ ${error.kind ?? error.name}: ${error.message}`;
  else marker.textContent = answer.roundtrip ? "✓ Round trip exact: decode(encode(text)) gives the text back." : "✗ Round trip differs!";
  marker.className = !error && answer.roundtrip ? "marker ok" : "marker bad";
}

/** The parts of an inspection both implementations must agree on, in one shape. */
const comparable = (answer) => ({ stream: answer.stream, pieces: answer.pieces.map(pieceSummary), pretokens: answer.pretokens });

function updateEncode() {
  const started = performance.now();
  const text = $("input").value;
  const options = encodeOptions();
  let answer;
  try {
    answer = js.inspect(text, options);
  } catch (error) {
    if (error.kind === undefined) throw error;
    showRoundTrip(null, error);
    return;
  }
  renderPieces(answer.pieces);
  $("stream").textContent = escapeStream(answer.stream);
  $("pretokens").replaceChildren(...answer.pretokens.map((p) => element("li", "pretoken", escapeStream(p))));
  showRoundTrip(answer, null);
  const ids = updateTokens(text);
  const elapsed = performance.now() - started;
  $("timing").textContent = `Updated in ${elapsed.toFixed(1)} ms.`;
  document.body.dataset.updateMs = elapsed.toFixed(1);
  if (checking()) {
    const theirs = state.reference.inspect(text, options);
    state.results.encode = compareAnswers({ ...comparable(answer), ...ids.ours }, { ...comparable(theirs), ...ids.theirs });
    showCheck();
  }
}

function updateDecode() {
  const stream = unescapeStream($("stream-input").value);
  const mode = document.querySelector("input[name=mode]:checked").value;
  const { text, error } = js.decode(stream, mode);
  $("decoded").textContent = text;
  const message = $("decode-error");
  if (error && mode === "strict") message.textContent = `${error.kind} at code point ${error.offset}`;
  else message.textContent = error ? `Lenient decoding repaired: ${error.kind} at code point ${error.offset}` : "";
  message.dataset.kind = error?.kind ?? "";
  message.className = mode === "strict" ? "error" : "repaired";
  $("stream-view").replaceChildren(...streamNodes(stream, error ? error.offset : -1));
  if (checking()) {
    const theirs = state.reference.decode(stream, mode);
    state.results.decode = compareAnswers({ "decode (text, error)": [text, error] }, { "decode (text, error)": [theirs.text, theirs.error] });
    showCheck();
  }
}

// --- the check against the Python reference --------------------------------------------------

state.results = { encode: [], decode: [] };

function showCheck() {
  const results = [...state.results.encode, ...state.results.decode];
  const differing = results.filter((r) => !r.same);
  $("check-results").hidden = false;
  $("check-results").replaceChildren(
    ...results.map(({ part, same, at }) =>
      element("li", same ? "same" : "differs", same ? `✓ ${part}: same` : `✗ ${part}: differ from index ${at}`),
    ),
  );
  const tokensNote = state.tokenizers.JavaScript ? "" : " Ids are not compared: functok for JavaScript has no tokenizer yet.";
  $("check-note").textContent = differing.length
    ? `✗ The Python reference (functok ${state.reference.version}) differs: ${differing.map((r) => r.part).join(", ")}.`
    : `✓ The Python reference (functok ${state.reference.version}, in Pyodide) gives the same answers.${tokensNote}`;
  $("check-note").className = differing.length ? "note bad" : "note ok";
  document.body.dataset.check = differing.length ? "differs" : "same";
}

async function startReference() {
  const note = $("check-note");
  // Imported here, not above: nothing of the Python reference is on the page's critical path.
  const { bundleAvailable, loadReference } = await import("./reference.mjs");
  if (!(await bundleAvailable())) {
    note.textContent = ENABLE_REFERENCE;
    note.className = "note bad";
    document.body.dataset.check = "unavailable";
    return;
  }
  const progress = $("check-progress");
  progress.hidden = false;
  document.body.dataset.check = "loading";
  const started = performance.now();
  state.reference = await loadReference((step) => {
    const [value, text] = LOAD_STEPS[step];
    progress.value = value;
    note.textContent = text;
  });
  document.body.dataset.referenceLoadSeconds = ((performance.now() - started) / 1000).toFixed(2);
  progress.hidden = true;
  if (state.tokenizerJson) await loadTokenizer("Python", (json) => state.reference.tokenizer(json));
}

async function toggleCheck() {
  if (!$("check-python").checked) {
    $("check-results").hidden = true;
    $("check-note").className = "note";
    document.body.dataset.check = "off";
    return;
  }
  try {
    state.referenceLoading ??= startReference();
    await state.referenceLoading;
  } catch (error) {
    state.referenceLoading = null;
    $("check-note").textContent = `Could not load the Python reference: ${error.message}`;
    document.body.dataset.check = "error";
    return;
  }
  if (state.reference && $("check-python").checked) {
    updateEncode();
    updateDecode();
  }
}

// --- tokenizers: one file, loaded by each implementation that has a tokenizer -----------------

async function fetchTokenizerJson() {
  for (const url of TOKENIZER_URLS) {
    const response = await fetch(url).catch(() => null);
    if (response?.ok) return response.text();
  }
  return null;
}

async function loadTokenizer(source, load) {
  try {
    state.tokenizers[source] = await load(state.tokenizerJson);
  } catch (error) {
    $("tokenizer-note").textContent = `The ${source} tokenizer could not load the demo tokenizer: ${error.message}`;
    return;
  }
  showTokenizerNote();
  scheduleEncode();
}

function showTokenizerNote() {
  const shown = state.tokenizers.JavaScript ?? state.tokenizers.Python;
  const note = $("tokenizer-note");
  if (!state.tokenizerJson) note.textContent = "This server has no demo tokenizer (functok demo trains one when the `train` extra is installed).";
  else if (shown) note.textContent = `A small demo tokenizer (${shown.vocabSize} tokens), trained on Python's standard library source; encoded here by functok for ${shown.source}.`;
  else note.textContent = "functok for JavaScript has no tokenizer yet: turn on the check against the Python reference to see the tokens from Python.";
}

async function startTokens() {
  state.tokenizerJson = await fetchTokenizerJson();
  if (state.tokenizerJson) await loadTokenizer("JavaScript", js.tokenizerFromJson);
  showTokenizerNote();
}

// --- the page --------------------------------------------------------------------------------

function renderReference(opcodes) {
  $("spec-version").textContent = `spec ${opcodes.spec_version}`;
  const rows = [
    [opcodes.argument.first + "–" + opcodes.argument.last.slice(2), "argument", "", opcodes.argument.meaning, opcodes.argument.since],
    ...opcodes.opcodes.map((op) => [op.code_point, op.name, op.args.map((a) => a.name).join(", "), op.meaning, op.since]),
    [opcodes.escape.code_point, opcodes.escape.name, "", opcodes.escape.meaning, opcodes.escape.since],
  ];
  $("opcodes").tBodies[0].replaceChildren(
    ...rows.map((cells) => {
      const row = element("tr");
      row.append(...cells.map((cell) => element("td", "", cell ?? "")));
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

function renderProfiles() {
  $("profile").replaceChildren(
    ...Object.keys(js.PROFILES).map((name) => {
      const option = element("option", "", name);
      option.value = name;
      option.selected = name === js.DEFAULT_PROFILE;
      return option;
    }),
  );
  const describe = () => {
    const { fold, case: caseOption } = js.PROFILES[$("profile").value];
    $("profile-note").textContent = `fold ${fold}, case ${caseOption}`;
  };
  $("profile").addEventListener("change", describe);
  describe();
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

// Preloaded by index.html; the first sample does not wait for it (the chips' names come from
// the codec: only opcode boxes inside bases and tokens, rare, need the table).
const opcodesReady = fetch(OPCODES_URL).then((response) => response.json());

async function showReference() {
  const opcodes = await opcodesReady;
  state.table = opcodeTable(opcodes);
  renderReference(opcodes);
  updateEncode();
  updateDecode();
}

async function main() {
  renderProfiles();
  $("input").addEventListener("input", scheduleEncode);
  for (const id of ["profile", "splitter", "nfc", "split-operators"]) $(id).addEventListener("change", scheduleEncode);
  $("stream-input").addEventListener("input", updateDecode);
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.addEventListener("change", updateDecode);
  $("check-python").addEventListener("change", toggleCheck);
  updateEncode();
  updateDecode();
  // performance.now() counts from the start of the navigation. The sample is on screen once the
  // frame holding it is painted: a task queued from that frame's animation callback runs after.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  document.body.dataset.firstSampleMs = performance.now().toFixed(1);
  document.body.dataset.ready = "true";
  document.body.dataset.check = "off";
  await showReference();
  js.loadPackage().then((functok) => {
    // The engine the package picked: the C core in WebAssembly, or the JS reference where the
    // checkout's core is not built (npm run build) or WebAssembly is missing.
    const engine = typeof functok.engine === "function" ? functok.engine() : "reference";
    const named = engine === "wasm" ? "the C core in WebAssembly" : "the JavaScript reference";
    $("js-version").textContent = `${functok.VERSION}, spec ${js.SPEC_VERSION}, on ${named}`;
    document.body.dataset.engine = engine;
  });
  await startTokens();
  // A reload keeps the checkbox's state: honour it.
  if ($("check-python").checked) await toggleCheck();
}

main().catch((error) => {
  $("roundtrip").textContent = `Could not start the demo: ${error.message}`;
  document.body.dataset.ready = "error";
  throw error;
});
