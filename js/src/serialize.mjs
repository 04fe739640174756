// A piece as written (spec 6.3 to 6.5): the base with its escapes, the group as code points,
// the instructions one by one, and `pieces`, each piece with its offsets, instructions and base.
import { OPCODES } from './tables.mjs';
import { codePoints, fromCodePoints } from './text.mjs';
import { nfcList } from './normalize.mjs';
import { splitEnds, digitsOf } from './splitting.mjs';
import { configOf, checkNormalize, checkText, DEFAULT_PROFILE } from './options.mjs';
import { analysePiece } from './piece.mjs';
import { ARGUMENT_FIRST as ARG, ESCAPE, GROUP_FIRST } from './opcodes.mjs';

const NAMES = new Map(OPCODES.map(([cp, name]) => [cp, name]));
const CODES = new Map(OPCODES.map(([cp, name]) => [name, cp]));
const ARG_COUNT = new Map(OPCODES.map(([cp, , , n]) => [cp, n]));

/** One instruction of a group: an opcode name and its arguments. */
export class Instruction {
  constructor(name, args) {
    this.name = name;
    this.args = args;
  }
  /** `ACUTE(1)`, `REPEAT(0,4)`. */
  toString() { return `${this.name}(${this.args.join(',')})`; }
  /** As written in the stream: the opcode, then one argument code point per argument. */
  get code() { return String.fromCharCode(CODES.get(this.name), ...this.args.map((a) => ARG + a)); }
}

/** The base as written in the stream: an escape before each of U+E000..U+EFFF (6.3). */
export function escapedBase(slots) {
  let escaped = null;
  for (let s = 0; s < slots.length; s++) {
    const c = slots[s];
    if (c >= GROUP_FIRST && c <= ESCAPE) {
      if (escaped === null) escaped = slots.slice(0, s);
      escaped.push(ESCAPE, c);
    } else if (escaped !== null) escaped.push(c);
  }
  return fromCodePoints(escaped === null ? slots : escaped);
}

/** The group (a flat list of code points, all in the BMP) as a string. */
export function groupString(group) {
  return group.length === 0 ? '' : String.fromCharCode.apply(null, group);
}

/** Each instruction of a group as the string of its code points (for pre-tokens, 9.1). */
export function instructionCodes(group) {
  const out = [];
  for (let k = 0; k < group.length;) {
    const argCount = ARG_COUNT.get(group[k]);
    out.push(String.fromCharCode.apply(null, group.slice(k, k + 1 + argCount)));
    k += 1 + argCount;
  }
  return out;
}

/** Each instruction of a group as an Instruction. */
export function instructions(group) {
  const out = [];
  for (let k = 0; k < group.length;) {
    const argCount = ARG_COUNT.get(group[k]);
    out.push(new Instruction(NAMES.get(group[k]), group.slice(k + 1, k + 1 + argCount).map((x) => x - ARG)));
    k += 1 + argCount;
  }
  return out;
}

/**
 * One piece (a string) encoded under `cfg`, as the encoders cache it: `encoded` (group + base),
 * `group` (its code points), `units` (`encoded` as UTF-16 code units) and `changed` (whether
 * `encoded` differs from the piece).
 */
export function encodePiece(piece, cfg) {
  const { group, slots } = analysePiece(codePoints(piece), cfg, false);
  const encoded = groupString(group) + escapedBase(slots);
  const units = new Uint16Array(encoded.length);
  for (let k = 0; k < encoded.length; k++) units[k] = encoded.charCodeAt(k);
  return { encoded, group, units, changed: encoded !== piece };
}

/** Each piece with its offsets in the original text, instructions and base (spec 6.5). */
export function pieces(text, { normalize = 'nfc', splitter = 'llama3', profile = DEFAULT_PROFILE, fold, case: caseOption, features } = {}) {
  checkNormalize(normalize);
  const cfg = configOf(features, profile, fold, caseOption);
  const digits = digitsOf(splitter);
  checkText(text);
  let cps = codePoints(text);
  let starts = null, ends = null;
  if (normalize === 'nfc') {
    const r = nfcList(cps, true);
    cps = r.cps; starts = r.starts; ends = r.ends;
  }
  const t = starts === null ? text : fromCodePoints(cps);
  const cut = splitEnds(t, digits);
  const out = [];
  let unit = 0, position = 0;
  for (let k = 0; k < cut.length; k++) {
    const piece = t.slice(unit, cut[k]);
    unit = cut[k];
    const p = codePoints(piece);
    const end = position + p.length;
    const { group, slots, slotStarts } = analysePiece(p, cfg, true);
    const base = escapedBase(slots);
    out.push({
      text: piece,
      start: starts === null ? position : starts[position],
      end: starts === null ? end : ends[end - 1],
      instructions: instructions(group),
      base,
      encoded: groupString(group) + base,
      slotStarts,
    });
    position = end;
  }
  return out;
}
