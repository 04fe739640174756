// The Python reference in the page: the functok Python package itself, run by Pyodide from the
// bundle in wasm/dist/ (`npm run build`).  Nothing here loads until the reader turns the check
// on, so the 13 MiB runtime is never on the page's critical path.

import { decodeAnswer } from "./format.mjs";

const BUNDLE = new URL("../wasm/dist/", import.meta.url);

/** Whether the server has a built bundle (wasm/dist/bundle.json answers). */
export async function bundleAvailable() {
  try {
    const response = await fetch(new URL("bundle.json", BUNDLE), { cache: "no-store" });
    return response.ok;
  } catch {
    return false;
  }
}

/** Loads Pyodide and the functok wheel; the answers have the shapes of codec.mjs's. */
export async function loadReference(onProgress) {
  const { loadFunctok } = await import(new URL("functok.mjs", BUNDLE).href);
  // pure: the reference runs the spec's executable form, not the C core in WebAssembly, which
  // functok for JavaScript (what the page checks) may itself run on
  const python = await loadFunctok({ onProgress, pure: true });
  return {
    version: python.version,
    inspect(text, { splitter, normalize, profile, splitOperators }) {
      const answer = python.inspect(text, { splitter, normalize, profile, split_operators: splitOperators });
      return { stream: answer.stream, pieces: answer.pieces, pretokens: answer.pretokens, roundtrip: answer.roundtrip };
    },
    decode: (stream, mode) => decodeAnswer(python.decode, stream, mode),
    async tokenizer(json) {
      if (!python.hasTokenizer) return null;
      const tokenizer = await python.loadTokenizer(json);
      return {
        source: "Python",
        vocabSize: tokenizer.vocabSize,
        encode: (text, segmentation) => tokenizer.encode(text, { segmentation }),
      };
    },
  };
}
