#!/usr/bin/env node
// Writes js/src/tables.mjs from the pinned character data of spec/unicode/*.txt and the code point
// table spec/opcodes.json (spec 2 and 3). Node built-ins only, no dependencies.
//
//   node js/tools/generate-tables.mjs           write js/src/tables.mjs
//   node js/tools/generate-tables.mjs --check   exit 1 if js/src/tables.mjs is stale
//
// Every table is a list of non-negative integers, written in base 36 and joined by ",". Ranges
// and keys are delta-encoded (each start counts from the end of the previous entry), and signed
// differences are zigzag-encoded, so the strings stay short and compress well. src/ucd.mjs
// decodes them once, at import.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const JS = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(JS, '..');
const UNICODE = join(ROOT, 'spec', 'unicode');
const OUT = join(JS, 'src', 'tables.mjs');

function lines(name) {
  return readFileSync(join(UNICODE, name), 'utf8').split('\n')
    .map((line) => line.replace(/#.*/, '').trim()).filter((line) => line !== '');
}
function header(name) {
  return readFileSync(join(UNICODE, name), 'utf8').split('\n')[0];
}
const hex = (s) => {
  if (!/^[0-9A-F]{4,6}$/.test(s)) throw new Error(`not a code point: ${JSON.stringify(s)}`);
  return parseInt(s, 16);
};
function range(field) { // "0041..005A" or "00AA"
  const [a, b] = field.trim().split('..');
  return [hex(a), b === undefined ? hex(a) : hex(b)];
}
const zigzag = (n) => (n >= 0 ? 2 * n : -2 * n - 1);
const pack = (numbers) => numbers.map((n) => {
  if (!Number.isInteger(n) || n < 0) throw new Error(`cannot pack ${n}`);
  return n.toString(36);
}).join(',');

// Sorted, disjoint ranges with a value: [gap from the previous end, length - 1, value].
function rangeTable(entries) {
  entries.sort((x, y) => x[0] - y[0]);
  const out = [];
  let next = 0;
  for (const [first, last, value] of entries) {
    if (first < next || last < first) throw new Error(`overlapping or empty range at ${first.toString(16)}`);
    out.push(first - next, last - first, value);
    next = last + 1;
  }
  return out;
}

// 3.2 splitter classes: 1 = L, 2 = N, 3 = White_Space.
const CLASS_CODES = { L: 1, N: 2, White_Space: 3 };
const classes = rangeTable(lines('classes.txt').map((line) => {
  const [r, cls] = line.split(';').map((s) => s.trim());
  if (!(cls in CLASS_CODES)) throw new Error(`unknown class ${cls}`);
  return [...range(r), CLASS_CODES[cls]];
}));

// 3.5 combining classes (non-zero).
const ccc = rangeTable(lines('combining_classes.txt').map((line) => {
  const [r, value] = line.split(';').map((s) => s.trim());
  return [...range(r), Number(value)];
}));

// 3.5 NFC_Quick_Check: 1 = No, 2 = Maybe.
const qc = rangeTable(lines('nfc_quick_check.txt').map((line) => {
  const [r, value] = line.split(';').map((s) => s.trim());
  if (value !== 'N' && value !== 'M') throw new Error(`bad quick check ${value}`);
  return [...range(r), value === 'N' ? 1 : 2];
}));

// 3.5 Full_Composition_Exclusion (value column unused: 0).
const exclusions = rangeTable(lines('composition_exclusions.txt').map((line) => [...range(line), 0]));

// 3.5 one-level canonical decompositions: [key gap, length, zigzag(first - key), rest...].
function mappingTable(name, parse) {
  const rows = lines(name).map(parse).sort((x, y) => x[0] - y[0]);
  const out = [];
  let previous = -1;
  for (const [key, values] of rows) {
    if (key <= previous) throw new Error(`${name}: unsorted or duplicate key ${key.toString(16)}`);
    out.push(key - previous - 1, values.length, zigzag(values[0] - key), ...values.slice(1));
    previous = key;
  }
  return out;
}
const nfcDecompositions = mappingTable('nfc_decompositions.txt', (line) => {
  const [key, mapping] = line.split(';').map((s) => s.trim());
  return [hex(key), mapping.split(/\s+/).map(hex)];
});

// 3.3 case pairs: [upper gap, zigzag(lower - upper)].
const casePairs = [];
{
  let previous = -1;
  const rows = lines('case_pairs.txt').map((line) => line.split(';').map((s) => hex(s.trim())))
    .sort((x, y) => x[0] - y[0]);
  for (const [upper, lower] of rows) {
    if (upper <= previous) throw new Error(`case pairs: unsorted ${upper.toString(16)}`);
    casePairs.push(upper - previous - 1, zigzag(lower - upper));
    previous = upper;
  }
}

// 2.3 the 13 marks, in opcode order, and the opcode table.
const opcodes = JSON.parse(readFileSync(join(ROOT, 'spec', 'opcodes.json'), 'utf8'));
const cp = (s) => hex(s.replace(/^U\+/, ''));
const markOpcodes = opcodes.opcodes.filter((o) => o.family === 'mark');
const MARKS = markOpcodes.map((o) => cp(o.mark));
const OPCODES = opcodes.opcodes.map((o) => [cp(o.code_point), o.name, o.family, o.args.length]);

// 3.4 decompositions over the 13 marks: [key gap, zigzag(base - key), count, mark indexes...].
const decompositions = [];
{
  let previous = -1;
  const rows = lines('decompositions.txt').map((line) => {
    const [key, base, marks] = line.split(';').map((s) => s.trim());
    return [hex(key), hex(base), marks.split(/\s+/).map(hex)];
  }).sort((x, y) => x[0] - y[0]);
  for (const [key, base, marks] of rows) {
    if (key <= previous) throw new Error(`decompositions: unsorted ${key.toString(16)}`);
    const indexes = marks.map((m) => {
      const k = MARKS.indexOf(m);
      if (k < 0) throw new Error(`decompositions: U+${m.toString(16)} is not one of the 13 marks`);
      return k;
    });
    decompositions.push(key - previous - 1, zigzag(base - key), indexes.length, ...indexes);
    previous = key;
  }
}

const SOURCES = ['classes.txt', 'case_pairs.txt', 'decompositions.txt', 'nfc_decompositions.txt',
  'combining_classes.txt', 'composition_exclusions.txt', 'nfc_quick_check.txt'];
const errors = opcodes.errors.map((e) => (typeof e === 'string' ? e : e.kind ?? e.name));

const text = `// Generated by js/tools/generate-tables.mjs from spec/unicode/*.txt and spec/opcodes.json. Do not edit.
// Spec ${opcodes.spec_version}, Unicode ${opcodes.unicode_version}. Sources (first line of each):
${SOURCES.map((s) => `//   ${s}: ${header(s).replace(/^#\s*/, '')}`).join('\n')}
// Integer lists in base 36 joined by ","; see js/tools/generate-tables.mjs for each layout.

export const SPEC_VERSION = ${JSON.stringify(opcodes.spec_version)};
export const UNICODE_VERSION = ${JSON.stringify(opcodes.unicode_version)};
/** [code point, name, family, argument count], in opcodes.json order. */
export const OPCODES = ${JSON.stringify(OPCODES)};
/** The 13 marks (spec 2.3), in opcode order U+E101..U+E10D. */
export const MARKS = ${JSON.stringify(MARKS)};
/** The error kinds of spec 8.1, in opcodes.json order. */
export const ERROR_KINDS = ${JSON.stringify(errors)};
/** At one offset a strict decoder reports the first of these (spec 8.2). */
export const ERROR_PRECEDENCE = ${JSON.stringify(opcodes.error_precedence.order)};
/** ESCAPE (spec 2.1). */
export const ESCAPE = ${cp(opcodes.escape.code_point)};
/** Splitter classes: [gap, length - 1, class (1 L, 2 N, 3 White_Space)]... */
export const CLASSES = "${pack(classes)}";
/** Non-zero Canonical_Combining_Class: [gap, length - 1, class]... */
export const CCC = "${pack(ccc)}";
/** NFC_Quick_Check No (1) and Maybe (2): [gap, length - 1, value]... */
export const QUICK_CHECK = "${pack(qc)}";
/** Full_Composition_Exclusion: [gap, length - 1, 0]... */
export const EXCLUSIONS = "${pack(exclusions)}";
/** One-level canonical decompositions: [key gap, length, zigzag(first - key), rest...]... */
export const NFC_DECOMPOSITIONS = "${pack(nfcDecompositions)}";
/** Bijective simple case pairs: [upper gap, zigzag(lower - upper)]... */
export const CASE_PAIRS = "${pack(casePairs)}";
/** Decompositions over the 13 marks: [key gap, zigzag(base - key), count, mark index...]... */
export const DECOMPOSITIONS = "${pack(decompositions)}";
`;

if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(OUT, 'utf8'); } catch { /* missing counts as stale */ }
  if (current !== text) {
    console.error('js/src/tables.mjs is stale: run node js/tools/generate-tables.mjs');
    process.exit(1);
  }
  console.log('js/src/tables.mjs is fresh');
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${OUT} (${text.length} bytes)`);
}

