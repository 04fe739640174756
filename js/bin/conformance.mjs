#!/usr/bin/env node
// The conformance runner protocol (conformance/PROTOCOL.md, 1.2.0) over stdin/stdout: one JSON
// object per line. Run: functok conformance --command "node js/bin/conformance.mjs"
import { createInterface } from 'node:readline';
import * as functok from '../src/index.mjs';


const PROTOCOL_VERSION = '1.2.0';

// JSON.stringify writes lone surrogates as \udXXX escapes (well-formed JSON.stringify, ES2019)
// and every other character raw; escape the non-ASCII ones too, as the runner does.
const asciiJson = (value) => JSON.stringify(value).replace(/[\u007f-\uffff]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// The encoder options of protocol 1.1.0: profile (always sent), fold and case (only when the
// vector states them; absent, the profile's).
const encoderOptions = (o) => ({ normalize: o.normalize, splitter: o.splitter, profile: o.profile ?? 'paper',
  fold: o.fold, case: o.case });

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

/** A detokenize error as the protocol reports it: the kind and the id index. */
class IdIndexed extends Error {
  constructor(kind, idIndex) { super(kind); this.kind = kind; this.idIndex = idIndex; }
}

function run(v) {
  const o = v.options;
  switch (v.op) {
    case 'encode':
      return functok.encode(v.input, encoderOptions(o));
    case 'decode':
      return functok.decode(v.input, { errors: o.errors, maxOutput: o.max_output });
    case 'pretokens':
      return functok.pretokens(v.input, { ...encoderOptions(o), splitOperators: o.split_operators, fuse: o.fuse });
    case 'split':
      return functok.split(v.input, { splitter: o.splitter });
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
          throw new IdIndexed(e.kind, e.idIndex);
        }
        throw e;
      }
    default:
      return undefined;
  }
}

function answer(request) {
  if (request.cmd === 'start') {
    return {
      protocol_version: PROTOCOL_VERSION,
      implementation: { name: 'functok-js', version: functok.VERSION, language: 'javascript' },
      spec_versions: [functok.SPEC_VERSION],
    };
  }
  const seq = request.seq;
  if (request.cmd !== 'run') return { seq, errored: `unknown command ${request.cmd}` };
  const v = request.vector;
  try {
    const output = run(v);
    if (output === undefined) return { seq, skipped: `op ${v.op} is not implemented` };
    return { seq, result: { output } };
  } catch (e) {
    if (e instanceof IdIndexed) return { seq, result: { error: { kind: e.kind, offset: e.idIndex } } };
    if (e instanceof functok.FormatError) return { seq, result: { error: { kind: e.kind, offset: e.offset } } };
    return { seq, errored: String(e && e.stack || e) };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let request;
  try { request = JSON.parse(line); } catch (e) { process.stderr.write(`bad request: ${e}\n`); continue; }
  if (request.cmd === 'stop') break;
  process.stdout.write(asciiJson(answer(request)) + '\n');
}
process.exit(0);
