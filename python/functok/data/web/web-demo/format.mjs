// Pure helpers of the demo page: reading the opcode table, naming code points of a stream,
// and the \uXXXX escapes.  No DOM here, so Node can test them too.

export const ARGUMENT_FIRST = 0xe000;
export const ARGUMENT_LAST = 0xe0ff;
export const GROUP_LAST = 0xeffe;
export const ESCAPE = 0xefff;

const hex = (cp) => cp.toString(16).toUpperCase().padStart(4, "0");
const parseCodePoint = (text) => Number.parseInt(text.replace(/^U\+/, ""), 16);

/** Maps opcode code points to their opcodes.json entries. */
export function opcodeTable(opcodesJson) {
  return new Map(opcodesJson.opcodes.map((op) => [parseCodePoint(op.code_point), op]));
}

/**
 * What one code point of a stream is: {kind: "text" | "argument" | "opcode" | "escape" |
 * "unassigned", label}.  Labels are short, for chips and token spans.
 */
export function describeCodePoint(cp, table) {
  if (cp === ESCAPE) return { kind: "escape", label: "ESC" };
  if (cp >= ARGUMENT_FIRST && cp <= ARGUMENT_LAST) return { kind: "argument", label: String(cp - ARGUMENT_FIRST) };
  if (cp > ARGUMENT_LAST && cp <= GROUP_LAST) {
    const op = table.get(cp);
    return op ? { kind: "opcode", label: op.name } : { kind: "unassigned", label: `U+${hex(cp)}` };
  }
  return { kind: "text", label: String.fromCodePoint(cp) };
}

/** A chip's text: CAPITALIZE 0, ACUTE 1, UPPERCASE 0–5, REPEAT 0×4, MULTIREPEAT 0–3×3. */
export function chipLabel({ name, args }) {
  if (name === "UPPERCASE") return `UPPERCASE ${args[0]}–${args[1]}`;
  if (name === "REPEAT") return `REPEAT ${args[0]}×${args[1]}`;
  if (name === "MULTIREPEAT") return `MULTIREPEAT ${args[0]}–${args[1]}×${args[2]}`;
  return `${name} ${args.join(" ")}`;
}

/** Private-use and other invisible code points as \uXXXX (astral ones as \u{XXXXX}). */
export function escapeStream(text) {
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    const invisible =
      (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xd800 && cp <= 0xdfff) || cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
    if (cp === 0x5c) out += "\\\\";
    else if (cp === 0x0a) out += "\n";
    else if (invisible) out += cp > 0xffff ? `\\u{${hex(cp)}}` : `\\u${hex(cp)}`;
    else out += ch;
  }
  return out;
}

/** Reads \uXXXX, \u{X…} and \\ escapes; everything else is taken as it is (raw streams work too). */
export function unescapeStream(text) {
  return text.replace(/\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\\\/g, (match, braced, four) => {
    if (match === "\\\\") return "\\";
    const cp = Number.parseInt(braced ?? four, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : match;
  });
}

/** Token saving rate: (greedy − optimal) / greedy, 0 for no tokens. */
export function tokenSavingRate(greedy, optimal) {
  return greedy === 0 ? 0 : (greedy - optimal) / greedy;
}

/** One piece in a shape both implementations give: JavaScript's {slotStarts, Instruction} and
 *  the Python bridge's {slot_starts, {name, args, label}} become the same plain object. */
export function pieceSummary(piece) {
  return {
    text: piece.text,
    start: piece.start,
    end: piece.end,
    instructions: piece.instructions.map(({ name, args }) => `${name}(${args.join(",")})`),
    base: piece.base,
    encoded: piece.encoded,
    slotStarts: [...(piece.slotStarts ?? piece.slot_starts)],
  };
}

/** The index of the first element (or code unit) where two sequences differ, -1 if equal. */
export function firstDifference(left, right) {
  const length = Math.min(left.length, right.length);
  for (let i = 0; i < length; i += 1) {
    const a = left[i];
    const b = right[i];
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) return i;
  }
  return left.length === right.length ? -1 : length;
}

/**
 * Compares what two implementations answered for one text, part by part: {part, same, at}
 * per part, where `at` is the first differing index (code unit of a stream, index of a piece,
 * pre-token or id) and -1 when both agree.  Parts missing on either side are left out.
 */
export function compareAnswers(ours, theirs) {
  return Object.keys(ours)
    .filter((part) => ours[part] !== undefined && theirs[part] !== undefined)
    .map((part) => {
      const at = firstDifference(ours[part], theirs[part]);
      return { part, same: at === -1, at };
    });
}

/**
 * What a decoder answers for a stream in the page's mode: {text, error}, where error is the
 * strict decoder's {kind, offset} (null for a well-formed stream) and text is empty when a
 * strict decode fails.  `decode` is either implementation's decode(stream, {errors}).
 */
export function decodeAnswer(decode, stream, mode) {
  let error = null;
  try {
    decode(stream, { errors: "strict" });
  } catch (caught) {
    if (caught?.kind == null) throw caught;
    error = { kind: caught.kind, offset: caught.offset };
  }
  const text = error && mode === "strict" ? "" : decode(stream, { errors: mode });
  return { text, error };
}
