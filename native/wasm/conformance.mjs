#!/usr/bin/env node
// The conformance runner protocol (conformance/PROTOCOL.md) for the C core built to WebAssembly
// (core.mjs), through the same loop as functok for JavaScript's (js/bin/protocol.mjs). The
// handshake names only the ops the core has, so that the runner reports the others as skipped.
// Build first (node native/wasm/build.mjs), then:
//   functok conformance --command "node native/wasm/conformance.mjs"
import { SPEC_VERSION, VERSION } from '../../js/src/codec.mjs';
import { serve, runCodec } from '../../js/bin/protocol.mjs';
import { loadCore } from './core.mjs';

export const OPS = ['encode', 'decode', 'pretokens', 'split'];

const core = await loadCore();
await serve({
  implementation: { name: 'functok-wasm', version: VERSION, language: 'c (wasm32, zig cc)' },
  spec_versions: [SPEC_VERSION],
  ops: OPS,
}, (v) => (OPS.includes(v.op) ? runCodec(core, v) : undefined));
