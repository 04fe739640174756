// The hostile streams of tests/codec/test_decoding_memory.py, for functok for JavaScript: the memory
// test (decode-memory.test.mjs) and the time benchmark (bench/node/decode-hostile.mjs) share them.
// Each stream is made for a size n (about n code units), with its decode options and expected
// output (null where strict decoding throws).
import { encode } from '../src/index.mjs';

/** [name, n => stream, options (or n => options), n => expected output, or null] */
export const HOSTILE = [
  // the careful path in Python: an escape, a surrogate, an error, a repeat past maxOutput
  ['escape-then-text', (n) => '\uefff\ue000' + 'lorem ipsum '.repeat(n / 6), {}, (n) => '\ue000' + 'lorem ipsum '.repeat(n / 6)],
  ['repeat-over-max-output', (n) => '\ue200\ue000\ue003' + 'a'.repeat(2 * n), (n) => ({ maxOutput: 2 * n }), null],
  ['lenient-over-max-output', (n) => '\ue200\ue000\ue003' + 'a'.repeat(2 * n), (n) => ({ maxOutput: 2 * n, errors: 'replace' }),
    (n) => 'a'.repeat(2 * n)],
  ['lenient-surrogates', (n) => 'a\ud800'.repeat(n / 2), { errors: 'replace' }, (n) => 'a\ufffd'.repeat(n / 2)],
  // an error object per bad code point
  ['lenient-stray-arguments', (n) => '\ue000'.repeat(n) + 'a', { errors: 'replace' }, () => 'a'],
  ['strict-stray-arguments', (n) => '\ue000'.repeat(n) + 'a', {}, null],
  ['lenient-unknown-opcodes', (n) => '\ue300'.repeat(n) + 'a', { errors: 'replace' }, () => 'a'],
  // a text holding an escape, split into one string per code point
  ['group-escape-cjk', (n) => '\ue100\ue000\uefff\ue000' + '\u4e2d'.repeat(2 * n), {}, (n) => '\ue000' + '\u4e2d'.repeat(2 * n)],
  // one long group: its instructions are applied as they are read
  ['long-group-of-capitalize', (n) => '\ue100\ue000'.repeat(n / 2) + 'a', {}, () => 'A'],
  ['long-group-of-repeats', (n) => '\ue200\ue000\ue001'.repeat(n / 3) + 'a', {}, () => 'a'],
  ['long-group-of-marks', (n) => '\ue102\ue000'.repeat(n / 2) + 'a', {}, (n) => 'a' + '\u0301'.repeat(n / 2)],
  // many short units
  ['fast-path-short-units', (n) => encode('A '.repeat(n / 2)), {}, (n) => 'A '.repeat(n / 2)],
];
// A stray argument at offset 0, then a million code points of well-formed units that hold an
// escape: strict decoding need not decode any of them.
export const STOPS = ['strict-stops-at-the-first-error', (n) => '\ue000a' + '\ue100\ue000b\uefff\ue000'.repeat(n / 5), {}, null];
