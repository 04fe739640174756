#!/usr/bin/env node
// The conformance runner protocol (conformance/PROTOCOL.md, 1.2.0) over stdin/stdout: one JSON
// object per line (the loop is protocol.mjs). Run: functok conformance --command "node js/bin/conformance.mjs"
import * as functok from '../src/index.mjs';
import { serve, runCodec, encoderOptions, ReportedError } from './protocol.mjs';

// The tokenizer files of the vectors, parsed once each.
const tokenizers = new Map();
function tokenizerOf(data) {
  const key = JSON.stringify(data);
  let t = tokenizers.get(key);
  if (t === undefined) { t = functok.Tokenizer.fromJSON(data, 'vector tokenizer'); tokenizers.set(key, t); }
  return t;
}

// The character vocabularies of the segment vectors, built once each.
const vocabularies = new Map();
function vocabularyOf(o) {
  const key = JSON.stringify([o.tokens, o.merges, o.special_tokens, o.byte_fallback]);
  let v = vocabularies.get(key);
  if (v === undefined) {
    v = new functok.Vocabulary({ tokens: o.tokens ?? [], merges: o.merges ?? [], specialTokens: o.special_tokens ?? [], byteFallback: o.byte_fallback ?? false });
    vocabularies.set(key, v);
  }
  return v;
}

function run(v) {
  const o = v.options;
  switch (v.op) {
    case 'encode': case 'decode': case 'pretokens': case 'split':
      return runCodec(functok, v);
    case 'pieces':
      return functok.pieces(v.input, encoderOptions(o)).map((p) => ({
        text: p.text, start: p.start, end: p.end, instructions: p.instructions.map(String),
        base: p.base, encoded: p.encoded, slot_starts: p.slotStarts,
      }));
    case 'segment': // through the vocabulary a Tokenizer runs (loadHF -> TokenVocabulary), as Python's ops.segment
      return functok.segment(v.input, vocabularyOf(o), {
        tieBreak: o.tie_break ?? 'leftmost-longest', reachableOnly: o.reachable_only ?? false,
      });
    case 'tokenize':
      return tokenizerOf(o.tokenizer).encode(v.input, {
        segmentation: o.segmentation ?? 'greedy', tieBreak: o.tie_break ?? 'leftmost-longest', reachableOnly: o.reachable_only ?? false,
        allowedSpecial: o.allowed_special ?? [], disallowedSpecial: o.disallowed_special ?? 'all',
      }).ids;
    case 'detokenize':
      try {
        return tokenizerOf(o.tokenizer).decode(v.input, { errors: o.errors, maxOutput: o.max_output, skipSpecialTokens: o.skip_special_tokens ?? false });
      } catch (e) { // spec 14.6: the error's kind and its id index (protocol 1.2.0: `offset` is the id index)
        if (e instanceof functok.TokenFormatError || e instanceof functok.UnknownTokenIdError || e instanceof functok.ByteFallbackError) {
          throw new ReportedError(e.kind, e.idIndex);
        }
        throw e;
      }
    default:
      return undefined;
  }
}

// The engine (src/engine.mjs): the C core in WebAssembly, or the JavaScript reference with FUNCTOK_PURE=1.
const ENGINE_LANGUAGE = { wasm: 'c (wasm32, zig cc) behind javascript', reference: 'javascript' };
if (process.argv.includes('--version')) {
  console.log(`functok-js ${functok.VERSION} (spec ${functok.SPEC_VERSION}, engine: ${functok.engine()})`);
  process.exit(0);
}

await serve({
  implementation: { name: `functok-js (${functok.engine()})`, version: functok.VERSION, language: ENGINE_LANGUAGE[functok.engine()] },
  spec_versions: [functok.SPEC_VERSION],
}, run);
