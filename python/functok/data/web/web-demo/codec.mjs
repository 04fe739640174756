// The page's view of functok for JavaScript (js/src: plain ES modules, loaded as they are):
// what the page shows about a text, and the hook for the JavaScript tokenizer.

import * as functok from "../js/src/index.mjs";
import { decodeAnswer } from "./format.mjs";

export const { PROFILES, DEFAULT_PROFILE, SPEC_VERSION, VERSION } = functok;

/** Stream, pieces, pre-tokens and the round trip of one text, with the page's options. */
export function inspect(text, { splitter, normalize, profile, splitOperators }) {
  const options = { splitter, normalize, profile };
  const stream = functok.encode(text, options);
  const decoded = functok.decode(stream);
  return {
    stream,
    pieces: functok.pieces(text, options),
    pretokens: functok.pretokens(text, { ...options, splitOperators }),
    roundtrip: decoded === (normalize === null ? text : functok.nfc(text)),
  };
}

export const decode = (stream, mode) => decodeAnswer(functok.decode, stream, mode);

/**
 * The JavaScript tokenizer loaded from a functok tokenizer file's text, as
 * {source, vocabSize, encode(text, segmentation) -> {ids, tokens}}; null while js/src has no
 * tokenizer.  It is written beside this page; the names tried follow the Python API
 * (Tokenizer.from_str) in the spellings a JavaScript port may give it.
 */
export function tokenizerFromJson(json) {
  const { Tokenizer } = functok;
  const load = Tokenizer?.fromStr ?? Tokenizer?.fromString ?? Tokenizer?.fromJSON ?? functok.loadTokenizer;
  if (typeof load !== "function") return null;
  const tokenizer = load.call(Tokenizer, json);
  return {
    source: "JavaScript",
    vocabSize: tokenizer.vocabSize,
    encode(text, segmentation) {
      const encoding = tokenizer.encode(text, { segmentation });
      return { ids: Array.from(encoding.ids), tokens: Array.from(encoding.tokens) };
    },
  };
}
