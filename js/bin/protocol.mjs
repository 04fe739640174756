// The conformance runner protocol (conformance/PROTOCOL.md, 1.2.0) over stdin/stdout, one JSON
// object per line, for any implementation of functok's API: js/bin/conformance.mjs serves
// functok for JavaScript, native/wasm/conformance.mjs the C core built to WebAssembly.
import { createInterface } from 'node:readline';
import { FormatError } from '../src/errors.mjs';

export const PROTOCOL_VERSION = '1.2.0';

// JSON.stringify writes lone surrogates as \udXXX escapes (well-formed JSON.stringify, ES2019)
// and every other character raw; escape the non-ASCII ones too, as the runner does.
const asciiJson = (value) => JSON.stringify(value).replace(/[\u007f-\uffff]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// The encoder options of protocol 1.1.0: profile (always sent), fold and case (only when the
// vector states them; absent, the profile's).
export const encoderOptions = (o) => ({ normalize: o.normalize, splitter: o.splitter, profile: o.profile ?? 'paper',
  fold: o.fold, case: o.case });

/** An error the protocol reports as a result: `kind` at `offset` (a code point, or an id index for detokenize). */
export class ReportedError extends Error {
  constructor(kind, offset) { super(kind); this.kind = kind; this.offset = offset; }
}

/**
 * The output of a codec op (encode, decode, pretokens, split) of vector `v`, from `api` (an
 * object with functok's functions of those names), or undefined for another op.
 */
export function runCodec(api, v) {
  const o = v.options;
  switch (v.op) {
    case 'encode':
      return api.encode(v.input, encoderOptions(o));
    case 'decode':
      return api.decode(v.input, { errors: o.errors, maxOutput: o.max_output });
    case 'pretokens':
      return api.pretokens(v.input, { ...encoderOptions(o), splitOperators: o.split_operators, fuse: o.fuse });
    case 'split':
      return api.split(v.input, { splitter: o.splitter });
    default:
      return undefined;
  }
}

function answer(request, hello, run) {
  if (request.cmd === 'start') return hello;
  const seq = request.seq;
  if (request.cmd !== 'run') return { seq, errored: `unknown command ${request.cmd}` };
  const v = request.vector;
  try {
    const output = run(v);
    if (output === undefined) return { seq, skipped: `op ${v.op} is not implemented` };
    return { seq, result: { output } };
  } catch (e) {
    if (e instanceof ReportedError || e instanceof FormatError) return { seq, result: { error: { kind: e.kind, offset: e.offset } } };
    return { seq, errored: String(e && e.stack || e) };
  }
}

/**
 * Answer the runner on stdin/stdout until it says stop, then exit. `hello` is the answer to
 * `start` (protocol_version is added); `run(vector)` gives an op's output, undefined for an op
 * not implemented, or throws a FormatError or ReportedError for an error result.
 */
export async function serve(hello, run) {
  const start = { protocol_version: PROTOCOL_VERSION, ...hello };
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let request;
    try { request = JSON.parse(line); } catch (e) { process.stderr.write(`bad request: ${e}\n`); continue; }
    if (request.cmd === 'stop') break;
    process.stdout.write(asciiJson(answer(request, start, run)) + '\n');
  }
  process.exit(0);
}
