// The decoder (spec 7) and strict decoding on top of it (spec 8.2).
import { OPCODES } from './tables.mjs';
import { TO_UPPER, MARKS, COMPOSE13, composeKey } from './ucd.mjs';
import { FormatError, firstError } from './errors.mjs';

const CAPITALIZE = 0xe100, UPPERCASE = 0xe110, REPEAT = 0xe200, MULTIREPEAT = 0xe201, ESCAPE = 0xefff;
export const DEFAULT_MAX_OUTPUT = 2 ** 26;
const ARG_COUNT = new Map(OPCODES.map(([cp, , , n]) => [cp, n]));

const chr = (c) => (c < 0x10000 ? String.fromCharCode(c)
  : String.fromCharCode(0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff)));

class Decoder {
  constructor(s, maxOutput, strict) {
    this.s = s;
    this.n = s.length;
    this.maxOutput = maxOutput;
    this.strict = strict;
    this.errors = [];
    this.i = 0; // UTF-16 index
    this.ci = 0; // code point index of this.i
  }

  error(kind, offset, message) { this.errors.push(new FormatError(kind, offset, message)); }

  /** 7.1: the slots from here to the next group or the end, as code points. */
  readText() {
    const { s, n } = this;
    const slots = [];
    let i = this.i, ci = this.ci;
    while (i < n) {
      let c = s.charCodeAt(i);
      let at;
      if (c >= 0xe000 && c <= 0xeffe) break;
      if (c === ESCAPE) {
        if (i + 1 === n) { this.error('escape-at-end', ci, 'ESCAPE is the last code point'); i++; ci++; break; }
        at = ci + 1;
        i++; ci++;
        c = s.charCodeAt(i);
      } else at = ci;
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = c <= 0xdbff && i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
          i++;
        } else {
          this.error('lone-surrogate', at, 'a surrogate code point');
          c = 0xfffd;
        }
      }
      i++; ci++;
      slots.push(c);
    }
    this.i = i; this.ci = ci;
    return slots;
  }

  /** 7.2: the well-formed instructions of the group s[g:end] (UTF-16 = code points here). */
  parseGroup(g, end, cg) {
    const s = this.s;
    const out = [];
    let j = g;
    while (j < end) {
      const c = s.charCodeAt(j);
      const at = cg + (j - g);
      if (c <= 0xe0ff) { this.error('stray-argument', at, 'an argument where an opcode is expected'); j++; continue; }
      const a = ARG_COUNT.get(c);
      if (a === undefined) { this.error('unknown-opcode', at, `U+${c.toString(16).toUpperCase()} is not assigned`); j++; continue; }
      let k = 0;
      while (k < a && j + 1 + k < end && s.charCodeAt(j + 1 + k) <= 0xe0ff) k++;
      if (k < a) {
        this.error('truncated-instruction', at, 'an opcode without its arguments');
        j += 1 + k;
        continue;
      }
      const args = [];
      for (let m = 0; m < a; m++) args.push(s.charCodeAt(j + 1 + m) - 0xe000);
      out.push({ op: c, args, offset: at });
      j += 1 + a;
    }
    return out;
  }

  run() {
    const out = [];
    let written = 0; // code points output so far
    const text0 = this.readText();
    for (const c of text0) out.push(chr(c));
    written += text0.length;
    if (this.strict && this.errors.length) return out;
    const { s, n } = this;
    while (this.i < n) {
      const g = this.i, cg = this.ci;
      let e = g;
      while (e < n) {
        const c = s.charCodeAt(e);
        if (c < 0xe000 || c > 0xeffe) break;
        e++;
      }
      this.i = e; this.ci = cg + (e - g);
      const instructions = this.parseGroup(g, e, cg);
      const slots = this.readText();
      if (slots.length === 0) {
        if (instructions.length) this.error('dangling-group', instructions[0].offset, 'a group with no text after it');
      } else {
        written += this.applyGroup(instructions, slots, written, out);
      }
      if (this.strict && this.errors.length) return out;
    }
    return out;
  }

  /** 7.4 to 7.8; appends the group's text to out and returns its length in code points. */
  applyGroup(instructions, slots, before, out) {
    const n = slots.length;
    const caps = [], repeats = [];
    let marks = null, named = null;
    for (const ins of instructions) {
      const op = ins.op;
      if (op === REPEAT || op === MULTIREPEAT) { repeats.push(ins); continue; }
      const pos = ins.args[0];
      if (op === UPPERCASE) { // 7.4: the range is checked as a whole, bad-range first
        const end = ins.args[1];
        if (end <= pos) { this.error('bad-range', ins.offset, `end ${end} <= start ${pos}`); continue; }
        if (end > n) { this.error('position-out-of-range', ins.offset, `slots [${pos}, ${end}) of ${n}`); continue; }
        if (named === null) named = new Uint8Array(n);
        named.fill(1, pos, end);
        continue;
      }
      if (pos >= n) { this.error('position-out-of-range', ins.offset, `slot ${pos} of ${n}`); continue; }
      if (op === CAPITALIZE) caps.push(pos);
      else {
        if (marks === null) marks = new Map();
        let list = marks.get(pos);
        if (list === undefined) { list = []; marks.set(pos, list); }
        list.push(op - 0xe101);
      }
    }
    // 7.5: each named slot that is a lower member takes its upper member, once (no code point is
    // both an upper and a lower member, so a CAPITALIZE repeated on a slot changes nothing more)
    if (named !== null) for (const p of caps) named[p] = 1;
    else for (const p of caps) {
      const u = TO_UPPER.get(slots[p]);
      if (u !== undefined) slots[p] = u;
    }
    if (named !== null) {
      for (let p = 0; p < n; p++) {
        if (named[p] === 0) continue;
        const u = TO_UPPER.get(slots[p]);
        if (u !== undefined) slots[p] = u;
      }
    }
    if (repeats.length === 0 && marks === null) {
      for (const c of slots) out.push(chr(c));
      return n;
    }
    const units = slots.map(chr); // 7.6
    const sizes = new Array(n).fill(1);
    let size = n;
    if (marks !== null) {
      for (const [p, list] of marks) {
        const composed = COMPOSE13.get(composeKey(slots[p], list, list.length));
        if (composed !== undefined) units[p] = chr(composed);
        else {
          units[p] += String.fromCharCode(...list.map((k) => MARKS[k]));
          sizes[p] += list.length;
          size += list.length;
        }
      }
    }
    // 7.7: descending start, ties in stream order (a stable sort)
    const order = repeats.map((r, k) => [r.args[0], k]).sort((x, y) => y[0] - x[0] || x[1] - y[1]);
    // The list is units[0:frontier] (unchanged slots) followed by tail segments, each one copy
    // of some slots repeated `count` times. Repeats come by descending start, so canonical ones
    // only ever touch the unchanged part; a range reaching into the tail materializes it.
    let list = units, lens = sizes;
    let frontier = n, tail = [], tailLength = 0;
    let prefix = null; // prefix[k] = code points of list[0:k]
    const prefixSums = () => {
      prefix = new Float64Array(frontier + 1);
      for (let k = 0; k < frontier; k++) prefix[k + 1] = prefix[k] + lens[k];
    };
    for (const [, k] of order) {
      const r = repeats[k];
      let start, end, count;
      if (r.op === REPEAT) { start = r.args[0]; end = start + 1; count = r.args[1]; }
      else { [start, end, count] = r.args; }
      if (count === 0) { this.error('bad-count', r.offset, 'count 0'); continue; }
      if (r.op === MULTIREPEAT && end <= start) { this.error('bad-range', r.offset, `end ${end} <= start ${start}`); continue; }
      const length = frontier + tailLength;
      if (end - 1 >= length) { this.error('position-out-of-range', r.offset, `slot ${end - 1} of ${length}`); continue; }
      if (end > frontier) { // materialize the tail into single slots (non-canonical streams only)
        list = list.slice(0, frontier); lens = lens.slice(0, frontier);
        for (const seg of tail) {
          for (let c = 0; c < seg.count; c++) { for (const u of seg.units) list.push(u); for (const l of seg.lens) lens.push(l); }
        }
        frontier = list.length; tail = []; tailLength = 0; prefix = null;
      }
      if (prefix === null) prefixSums();
      const grow = (count - 1) * (prefix[end] - prefix[start]);
      if (before + size + grow > this.maxOutput) { this.error('output-too-large', r.offset, `more than ${this.maxOutput} code points`); continue; }
      const segs = [{ units: list.slice(start, end), lens: lens.slice(start, end), count }];
      if (end < frontier) segs.push({ units: list.slice(end, frontier), lens: lens.slice(end, frontier), count: 1 });
      tail = segs.concat(tail);
      tailLength += count * (end - start) + (frontier - end) ;
      frontier = start;
      size += grow;
    }
    out.push(frontier === list.length ? list.join('') : list.slice(0, frontier).join(''));
    for (const seg of tail) out.push(seg.count === 1 ? seg.units.join('') : seg.units.join('').repeat(seg.count));
    return size;
  }
}

/** Decode a stream (spec 7). errors: 'strict' (default) raises a FormatError; 'replace' never fails. */
export function decode(stream, { errors = 'strict', maxOutput = DEFAULT_MAX_OUTPUT } = {}) {
  if (typeof stream !== 'string') throw new TypeError(`expected a string, not ${typeof stream}`);
  if (errors !== 'strict' && errors !== 'replace') throw new TypeError(`errors must be 'strict' or 'replace', not ${JSON.stringify(errors)}`);
  if (!Number.isSafeInteger(maxOutput) || maxOutput < 0) throw new TypeError('maxOutput must be a non-negative integer');
  const d = new Decoder(stream, maxOutput, errors === 'strict');
  const out = d.run();
  if (errors === 'strict' && d.errors.length) throw firstError(d.errors);
  return out.join('');
}
