// The page's view of functok for JavaScript (js/src: plain ES modules, loaded as they are):
// what the page shows about a text, and the JavaScript tokenizer.
//
// The first render needs only the codec, so this imports the codec's own modules; the package
// entry (js/src/index.mjs, with the tokenizer) is imported after the first sample is shown.

import { decode as decodeStream } from "../js/src/decoding.mjs";
import { encode, pieces, pretokens } from "../js/src/encoding.mjs";
import { nfc } from "../js/src/normalize.mjs";
import { decodeAnswer } from "./format.mjs";

export { DEFAULT_PROFILE, PROFILES } from "../js/src/encoding.mjs";
export { SPEC_VERSION } from "../js/src/tables.mjs";

/** Stream, pieces, pre-tokens and the round trip of one text, with the page's options. */
export function inspect(text, { splitter, normalize, profile, splitOperators }) {
  const options = { splitter, normalize, profile };
  const stream = encode(text, options);
  const decoded = decodeStream(stream);
  return {
    stream,
    pieces: pieces(text, options),
    pretokens: pretokens(text, { ...options, splitOperators }),
    roundtrip: decoded === (normalize === null ? text : nfc(text)),
  };
}

export const decode = (stream, mode) => decodeAnswer(decodeStream, stream, mode);

/** The whole package (js/src/index.mjs): its version, and its tokenizer when it has one. */
export const loadPackage = () => import("../js/src/index.mjs");

/**
 * The JavaScript tokenizer loaded from a functok tokenizer file's text, as
 * {source, vocabSize, encode(text, segmentation) -> {ids, tokens}}; null when the package has no
 * Tokenizer (Python: Tokenizer.from_str; JavaScript: Tokenizer.fromStr).
 */
export async function tokenizerFromJson(json) {
  const { Tokenizer } = await loadPackage();
  if (typeof Tokenizer?.fromStr !== "function") return null;
  const tokenizer = Tokenizer.fromStr(json, { source: "demo-tokenizer.json" });
  return {
    source: "JavaScript",
    vocabSize: tokenizer.vocabSize,
    encode(text, segmentation) {
      const encoding = tokenizer.encode(text, { segmentation });
      return { ids: Array.from(encoding.ids), tokens: Array.from(encoding.tokens) };
    },
  };
}
