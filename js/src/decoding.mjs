// The decoder (spec 7) and strict decoding on top of it (spec 8.2).
//
// The stream is read one unit at a time: the text before the first group, then each group (a
// maximal run of U+E000..U+EFFE) with the text after it (7.1). Errors go through one method,
// Decoder.error, which does what the mode needs: lenient decoding ('replace') keeps none, and
// strict decoding keeps only the error that spec 8.2 puts first and stops after the unit that
// holds it (every later unit's errors have larger offsets). Memory stays proportional to the
// input plus the output: a group's instructions are applied as they are read, a run of code
// points that start no instruction costs one error at most, and a text is split into slots only
// for its first 256 (the only ones an instruction can name); the rest is copied in slices.
import { OPCODES } from './tables.mjs';
import {
  ARGUMENT_FIRST, ARGUMENT_LAST, CAPITALIZE, ESCAPE, FIRST_MARK, GROUP_FIRST, GROUP_LAST, MULTIREPEAT, REPEAT,
  UPPERCASE,
} from './opcodes.mjs';
import { TO_UPPER, MARKS, COMPOSE13, composeKey } from './ucd.mjs';
import { FormatError, precedes } from './errors.mjs';

export const DEFAULT_MAX_OUTPUT = 2 ** 26;
const HEAD_SLOTS = 256; // slots 0..255: the only ones an instruction can name
const JOIN_EVERY = 4096; // strings joined into one at a time (in an array, a short string costs several times its text)
const REPLACEMENT = '\ufffd';

/** Arguments of each code point of a group, U+E000..U+EFFE (NOT_AN_OPCODE: it starts no instruction). */
const NOT_AN_OPCODE = 0xff;
const ARITY = new Uint8Array(0x1000).fill(NOT_AN_OPCODE);
for (const [cp, , , n] of OPCODES) ARITY[cp - GROUP_FIRST] = n;

const isGroupCode = (c) => c >= GROUP_FIRST && c <= GROUP_LAST;
const chr = (c) => (c < 0x10000 ? String.fromCharCode(c)
  : String.fromCharCode(0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff)));
const describe = (detail) => (typeof detail === 'function' ? detail() : detail);
const hex = (c) => c.toString(16).toUpperCase();

/** Strings appended one at a time and joined JOIN_EVERY at a time. */
class Joiner {
  constructor() { this.blocks = []; this.parts = []; }
  push(text) {
    if (text === '') return;
    this.parts.push(text);
    if (this.parts.length >= JOIN_EVERY) this.flush();
  }
  /** What was pushed, as a few blocks in order. */
  flush() {
    if (this.parts.length) { this.blocks.push(this.parts.join('')); this.parts = []; }
    return this.blocks;
  }
  join() { return this.flush().join(''); }
}

/** The UTF-16 string of a few code points (up to HEAD_SLOTS). */
function fromCodePoints(cps) {
  for (const c of cps) if (c > 0xffff) return cps.map(chr).join('');
  return String.fromCharCode.apply(null, cps);
}

const MARK_TEXT = MARKS.map((m) => String.fromCharCode(m)); // each mark opcode's mark, by opcode - 0xE101
const MARK_INDEX = new Map(MARK_TEXT.map((m, k) => [m, k]));

/** The mark indexes (0 for TILDE...) of a string of marks: a slot keeps its marks as a string, 2 bytes a mark. */
function markIndexes(text) { return Array.from(text, (m) => MARK_INDEX.get(m)); }

class Decoder {
  /** `record`: a list that receives every error the lenient decoder acts on, or null. */
  constructor(s, maxOutput, strict, record = null) {
    this.s = s;
    this.n = s.length;
    this.maxOutput = maxOutput;
    this.strict = strict;
    this.record = record;
    this.first = null; // strict: the error to raise
    this.i = 0; // UTF-16 index
    this.ci = 0; // code point index of this.i
    this.slot = 0; this.verbatim = true; // what readSlot read
    this.j = 0; this.groupEnd = 0; this.delta = 0; // the group nextInstruction reads
    this.op = 0; this.a0 = 0; this.a1 = 0; this.a2 = 0; this.at = 0; this.atIndex = 0; // what it read
  }

  /**
   * The decoder meets an error. Strict mode keeps it if spec 8.2 puts it before the one it has;
   * `detail` (a string, or a function that makes one) is evaluated only for an error kept, so
   * lenient decoding of private-use soup does no work per bad code point beyond finding it.
   */
  error(kind, offset, detail) {
    if (this.record !== null) this.record.push(new FormatError(kind, offset, describe(detail)));
    else if (this.strict && (this.first === null || precedes(kind, offset, this.first))) {
      this.first = new FormatError(kind, offset, describe(detail));
    }
  }

  // -- 7.1 texts and slots

  /**
   * Reads the slot at this.i into this.slot (a code point, or the one an ESCAPE makes literal)
   * and moves past it; false at a group or the end. this.verbatim: the slot is its code units as
   * they stand (no ESCAPE before it, no U+FFFD for a lone surrogate).
   */
  readSlot() {
    const { s, n } = this;
    let i = this.i;
    if (i >= n) return false;
    let c = s.charCodeAt(i);
    if (c < 0xd800 || (c > 0xdfff && c < GROUP_FIRST) || c > ESCAPE) { // the common case
      this.slot = c; this.verbatim = true; this.i = i + 1; this.ci++;
      return true;
    }
    if (isGroupCode(c)) return false;
    let at = this.ci, verbatim = true;
    if (c === ESCAPE) {
      if (i + 1 === n) {
        this.error('escape-at-end', at, 'ESCAPE is the last code point');
        this.i = n; this.ci++;
        return false;
      }
      i++; at++; verbatim = false;
      c = s.charCodeAt(i);
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = c <= 0xdbff && i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
      } else {
        this.error('lone-surrogate', at, 'a surrogate code point');
        c = 0xfffd; verbatim = false;
      }
    }
    this.slot = c; this.verbatim = verbatim; this.i = i + 1; this.ci = at + 1;
    return true;
  }

  /**
   * The text from here to the next group or the end: its first `headSize` slots as code points
   * (`head`), the rest unescaped as a few strings (`tail`), and `slots`, how many it has.
   */
  readText(headSize) {
    const head = [];
    while (head.length < headSize && this.readSlot()) head.push(this.slot);
    let from = this.i, start = from;
    if (!this.readSlot()) return { head, tail: [], slots: head.length };
    const tail = new Joiner();
    let slots = head.length;
    do {
      slots++;
      if (!this.verbatim) { // copy up to it, then the slot itself
        tail.push(this.s.slice(from, start));
        tail.push(this.slot === 0xfffd ? REPLACEMENT : chr(this.slot));
        from = this.i;
      }
      start = this.i;
    } while (this.readSlot());
    tail.push(this.s.slice(from, start)); // start: where the group, the end or the last ESCAPE is
    return { head, tail: tail.flush(), slots };
  }

  // -- 7.2 instructions

  /** Starts reading the group s[g:end], whose first code point is code point cg of the stream. */
  startGroup(g, end, cg) { this.j = g; this.groupEnd = end; this.delta = cg - g; }

  /**
   * Reads the group's next well-formed instruction into op, a0..a2, at (its offset) and atIndex
   * (its UTF-16 index); false at the group's end. Parse errors met on the way go to error().
   */
  nextInstruction() {
    const { s, groupEnd: end } = this;
    let j = this.j;
    while (j < end) {
      const c = s.charCodeAt(j);
      const a = c <= ARGUMENT_LAST ? NOT_AN_OPCODE : ARITY[c - GROUP_FIRST];
      if (a === NOT_AN_OPCODE) { j = this.junk(j, end); continue; }
      let k = 0;
      while (k < a && j + 1 + k < end && s.charCodeAt(j + 1 + k) <= ARGUMENT_LAST) k++;
      if (k < a) {
        this.error('truncated-instruction', j + this.delta, 'an opcode without its arguments');
        j += 1 + k;
        continue;
      }
      this.op = c; this.at = j + this.delta; this.atIndex = j;
      this.a0 = s.charCodeAt(j + 1) - ARGUMENT_FIRST;
      if (a > 1) this.a1 = s.charCodeAt(j + 2) - ARGUMENT_FIRST;
      if (a > 2) this.a2 = s.charCodeAt(j + 3) - ARGUMENT_FIRST;
      this.j = j + 1 + a;
      return true;
    }
    this.j = j;
    return false;
  }

  /**
   * The run of code points at j that start no instruction (stray arguments, unknown opcodes).
   * Each is an error, but only the run's first can be a strict decoder's first: the others are
   * met only when every error is recorded. Returns the run's end.
   */
  junk(j, end) {
    const s = this.s;
    let k = j;
    do {
      if (k === j || this.record !== null) {
        const c = s.charCodeAt(k);
        if (c <= ARGUMENT_LAST) this.error('stray-argument', k + this.delta, 'an argument where an opcode is expected');
        else this.error('unknown-opcode', k + this.delta, () => `U+${hex(c)} is not assigned`);
      }
      k++;
    } while (k < end && (s.charCodeAt(k) <= ARGUMENT_LAST || ARITY[s.charCodeAt(k) - GROUP_FIRST] === NOT_AN_OPCODE));
    return k;
  }

  /** A group with no text after it: dangling-group at its first well-formed instruction. */
  dangling(g, end, cg) {
    this.startGroup(g, end, cg);
    if (!this.nextInstruction()) return; // its parse errors are met on the way
    this.error('dangling-group', this.at, 'a group with no text after it');
    if (this.record !== null) while (this.nextInstruction()); // the parse errors after it
  }

  run() {
    const { s, n } = this;
    const out = new Joiner();
    const text0 = this.readText(0);
    for (const part of text0.tail) out.push(part);
    let written = text0.slots; // code points output so far
    while (this.i < n && this.first === null) {
      const g = this.i, cg = this.ci;
      let e = g, repeatCodes = 0; // how many REPEAT and MULTIREPEAT code points the group has
      for (let c; e < n && isGroupCode(c = s.charCodeAt(e)); e++) if (c === REPEAT || c === MULTIREPEAT) repeatCodes++;
      this.i = e; this.ci = cg + (e - g);
      const text = this.readText(HEAD_SLOTS);
      if (text.slots === 0) this.dangling(g, e, cg);
      else written += this.applyGroup(g, e, cg, repeatCodes, text, written, out);
    }
    return out.join();
  }

  // -- 7.3 to 7.8 applying a group to its slots

  /** Applies the group s[g:end] to its text; pushes the result to `out`, returns its code points. */
  applyGroup(g, end, cg, repeatCodes, { head, tail, slots: n }, before, out) {
    let marks = null, named = null, repeats = null, repeatCount = 0;
    this.startGroup(g, end, cg);
    while (this.nextInstruction()) {
      const { op, a0: pos, at } = this;
      if (op === REPEAT || op === MULTIREPEAT) { // 7.7, once case and marks are done
        if (repeats === null) repeats = new Int32Array(repeatCodes); // 4 bytes each, however many a group holds
        repeats[repeatCount++] = this.atIndex;
      } else if (op === UPPERCASE) { // 7.4: the range is checked as a whole, bad-range first
        const stop = this.a1;
        if (stop <= pos) this.error('bad-range', at, () => `end ${stop} <= start ${pos}`);
        else if (stop > n) this.error('position-out-of-range', at, () => `slots [${pos}, ${stop}) of ${n}`);
        else (named ??= new Uint8Array(head.length)).fill(1, pos, stop);
      } else if (pos >= n) this.error('position-out-of-range', at, () => `slot ${pos} of ${n}`);
      else if (op === CAPITALIZE) { // 7.5: no code point is both an upper and a lower member,
        const u = TO_UPPER.get(head[pos]); // so taking the upper member twice changes nothing more
        if (u !== undefined) head[pos] = u;
      } else {
        if (marks === null) marks = new Map();
        let list = marks.get(pos);
        if (list === undefined) marks.set(pos, list = new Joiner());
        list.push(MARK_TEXT[op - FIRST_MARK]);
      }
    }
    if (named !== null) {
      for (let p = 0; p < head.length; p++) {
        if (named[p] === 0) continue;
        const u = TO_UPPER.get(head[p]);
        if (u !== undefined) head[p] = u;
      }
    }
    let size = n;
    if (repeats === null && marks === null) out.push(fromCodePoints(head));
    else {
      const units = head.map(chr); // 7.6
      const lens = new Array(head.length).fill(1); // code points of each unit
      if (marks !== null) {
        for (const [p, list] of marks) {
          const text = list.join(); // compositions have up to 3 marks
          const composed = text.length <= 3 ? COMPOSE13.get(composeKey(head[p], markIndexes(text), text.length)) : undefined;
          if (composed !== undefined) units[p] = chr(composed);
          else { units[p] += text; lens[p] += text.length; size += text.length; }
        }
      }
      const spilled = []; // what repeats pushed past slot 255, newest first
      if (repeats !== null) size = this.repeat(units, lens, repeats.subarray(0, repeatCount), before, size, spilled);
      out.push(units.join(''));
      for (let k = spilled.length - 1; k >= 0; k--) out.push(spilled[k]);
    }
    for (const part of tail) out.push(part);
    return size;
  }

  /**
   * 7.7: applies the repeats to `units` (and `lens`, their code points) in place, by descending
   * start, ties in stream order; returns the unit's new size in code points. `repeats`: the
   * UTF-16 indexes of the group's repeats, in stream order. Repeats name slots below 256 only, so
   * whatever an expansion pushes past slot 255 is joined at once into a string on `spilled`,
   * which no later repeat touches: the work and memory follow the output, which maxOutput bounds.
   */
  repeat(units, lens, repeats, before, size, spilled) {
    const s = this.s;
    for (const index of byStartDescending(s, repeats)) {
      const start = s.charCodeAt(index + 1) - ARGUMENT_FIRST;
      const offset = index + this.delta;
      const multi = s.charCodeAt(index) === MULTIREPEAT;
      const end = multi ? s.charCodeAt(index + 2) - ARGUMENT_FIRST : start + 1;
      const count = s.charCodeAt(index + (multi ? 3 : 2)) - ARGUMENT_FIRST;
      if (count === 0) { this.error('bad-count', offset, 'count 0'); continue; }
      if (end <= start) { this.error('bad-range', offset, () => `end ${end} <= start ${start}`); continue; }
      // the list holds every slot while it has fewer than 256, and no range reaches past 255
      if (end > units.length) { this.error('position-out-of-range', offset, () => `slot ${end - 1} of ${units.length}`); continue; }
      let copied = 0;
      for (let k = start; k < end; k++) copied += lens[k];
      const grow = (count - 1) * copied;
      if (before + size + grow > this.maxOutput) {
        this.error('output-too-large', offset, () => `more than ${this.maxOutput} code points`);
        continue;
      }
      if (count === 1) continue; // its errors are all it can add
      size += grow;
      expand(units, start, end, count);
      expand(lens, start, end, count);
      if (units.length > HEAD_SLOTS) {
        spilled.push(units.slice(HEAD_SLOTS).join(''));
        units.length = HEAD_SLOTS; lens.length = HEAD_SLOTS;
      }
    }
    return size;
  }
}

/** The UTF-16 indexes of repeats by descending start slot, ties in stream order (a counting sort). */
function byStartDescending(s, indexes) {
  if (indexes.length < 2) return indexes;
  const key = (index) => HEAD_SLOTS - 1 - (s.charCodeAt(index + 1) - ARGUMENT_FIRST);
  const at = new Uint32Array(HEAD_SLOTS + 1); // at[k + 1]: how many have key k; then where key k goes
  for (const index of indexes) at[key(index) + 1]++;
  for (let k = 1; k <= HEAD_SLOTS; k++) at[k] += at[k - 1];
  const sorted = new Int32Array(indexes.length);
  for (const index of indexes) sorted[at[key(index)]++] = index;
  return sorted;
}

/** list[start:end] in place becomes `count` copies of itself. */
function expand(list, start, end, count) {
  const block = list.slice(start, end), after = list.slice(end);
  list.length = start;
  for (let c = 0; c < count; c++) for (const x of block) list.push(x);
  for (const x of after) list.push(x);
}

/** A TypeError unless decode's stream and options are of the right kinds (native/wasm/core.mjs checks with it too). */
export function checkOptions(stream, errors, maxOutput) {
  if (typeof stream !== 'string') throw new TypeError(`expected a string, not ${typeof stream}`);
  if (errors !== 'strict' && errors !== 'replace') throw new TypeError(`errors must be 'strict' or 'replace', not ${JSON.stringify(errors)}`);
  if (!Number.isSafeInteger(maxOutput) || maxOutput < 0) throw new TypeError('maxOutput must be a non-negative integer');
}

/** Decode a stream (spec 7). errors: 'strict' (default) raises a FormatError; 'replace' never fails. */
export function decode(stream, { errors = 'strict', maxOutput = DEFAULT_MAX_OUTPUT } = {}) {
  checkOptions(stream, errors, maxOutput);
  const d = new Decoder(stream, maxOutput, errors === 'strict');
  const out = d.run();
  if (d.first !== null) throw d.first;
  return out;
}

/**
 * Lenient decoding that also returns every error it acted on, in the order met (a unit's text
 * is read before its group is applied, so not always by offset): spec 8.2
 * defines strict decoding as the first of these, and the tests compare the two. The list grows
 * with the stream's errors (one per bad code point): for tests and diagnostics, not hostile input.
 */
export function decodeWithErrors(stream, { maxOutput = DEFAULT_MAX_OUTPUT } = {}) {
  checkOptions(stream, 'replace', maxOutput);
  const errors = [];
  const text = new Decoder(stream, maxOutput, false, errors).run();
  return { text, errors };
}
