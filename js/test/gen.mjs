// Seeded random strings for property tests: every plane, the format's PUA range, stacked marks.

/** mulberry32: a small seeded PRNG, returns floats in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MARKS = [0x300, 0x301, 0x302, 0x303, 0x304, 0x307, 0x308, 0x30a, 0x30b, 0x30c, 0x326, 0x327, 0x328,
  0x323, 0x31b, 0x306, 0x309, 0x345, 0x5b0, 0x93c, 0x3099, 0x1d165];
const WORDS = ['Hello', 'WORLD', 'Tiếng', 'İstanbul', 'Łódź', 'Άλφα', 'ǅ', 'ẞ', 'don\'t', "WE'LL", 'x = 1;\n',
  '    ', '\n\n', '\t', 'aaab', 'abcabcabc', 'HaHaHa', '12345', '가각', '\u1100\u1161\u11a8', 'Å', 'Ω', 'ﬁ',
  // range case (spec 6.2): runs of capitals with caseless edges and gaps, marks, the 255 limit
  'HTTPServer', 'MAX_SIZE', ' UNICEF', 'McDONALD', 'İSTANBUL', 'STRAßE', 'ǅAB', 'ÉCOLE', 'ŁÓDŹ', 'A1B2', '__INIT__',
  'HTTP2_SERVER', 'AAAB', 'ÉÉÉ', 'getHTTPResponse', 'XıY', '(FOO)', '𐐀𐐁', 'МИР', '\n \n \n \n', ' \t \t \t', '\u3000\u3000\u3000'];

function randomCodePoint(r) {
  const k = r();
  if (k < 0.30) return 0x20 + Math.floor(r() * 0x5f); // ASCII
  if (k < 0.40) return 0xc0 + Math.floor(r() * 0x250); // Latin
  if (k < 0.48) return MARKS[Math.floor(r() * MARKS.length)];
  if (k < 0.55) return 0xe000 + Math.floor(r() * 0x1000); // the format's own range, ESCAPE included
  if (k < 0.58) return [0xe000, 0xe100, 0xe200, 0xe201, 0xefff, 0xf000, 0xf8ff][Math.floor(r() * 7)];
  if (k < 0.62) return [9, 10, 13, 0x1c, 0x85, 0xa0, 0x2028, 0x3000][Math.floor(r() * 8)];
  if (k < 0.70) return 0x370 + Math.floor(r() * 0x1c90); // Greek .. Georgian .. Latin Extended
  if (k < 0.75) return 0xac00 + Math.floor(r() * 11172); // Hangul
  if (k < 0.80) return 0x1e00 + Math.floor(r() * 0x300);
  // any plane, surrogates excluded
  for (;;) {
    const plane = Math.floor(r() * 17);
    const c = plane * 0x10000 + Math.floor(r() * 0x10000);
    if (c < 0xd800 || c > 0xdfff) return c;
  }
}

/** A random text: code points, words, runs and repeated units. */
export function randomText(r, maxLength = 40) {
  const parts = [];
  const n = Math.floor(r() * maxLength);
  for (let k = 0; k < n; k++) {
    const t = r();
    if (t < 0.12) parts.push(WORDS[Math.floor(r() * WORDS.length)]);
    else if (t < 0.18) parts.push(String.fromCodePoint(randomCodePoint(r)).repeat(1 + Math.floor(r() * 6)));
    else if (t < 0.22) {
      const unit = Array.from({ length: 2 + Math.floor(r() * 7) }, () => String.fromCodePoint(randomCodePoint(r))).join('');
      parts.push(unit.repeat(1 + Math.floor(r() * 4)));
    } else if (t < 0.23) parts.push('a'.repeat(250 + Math.floor(r() * 20)));
    else if (t < 0.235) { // a long piece with capitals around slot 255 (spec 6.2: runs stop at 254)
      const head = 'abcdefghi'.repeat(30).slice(0, 250 + Math.floor(r() * 8));
      parts.push(head + 'ABCDEFGH'.slice(0, 1 + Math.floor(r() * 8)) + (r() < 0.5 ? 'x' : ''));
    } else if (t < 0.24) parts.push('ABCDEFGHI'.repeat(30).slice(0, 250 + Math.floor(r() * 12)));
    else parts.push(String.fromCodePoint(randomCodePoint(r)));
  }
  return parts.join('');
}

/** Arbitrary stream soup: instructions, arguments, ESCAPE, text and lone surrogates. */
export function randomSoup(r, maxLength = 30) {
  const out = [];
  const n = Math.floor(r() * maxLength);
  for (let k = 0; k < n; k++) {
    const t = r();
    if (t < 0.3) out.push(0xe000 + Math.floor(r() * 8));
    else if (t < 0.5) out.push([0xe100, 0xe101, 0xe107, 0xe10d, 0xe10e, 0xe110, 0xe110, 0xe111, 0xe200, 0xe201, 0xe300][Math.floor(r() * 11)]);
    else if (t < 0.55) out.push(0xefff);
    else if (t < 0.6) out.push(0xd800 + Math.floor(r() * 0x800));
    else out.push(randomCodePoint(r));
  }
  // String.fromCharCode keeps lone surrogates; fromCodePoint of astral values makes pairs
  return out.map((c) => (c >= 0xd800 && c <= 0xdfff ? String.fromCharCode(c) : String.fromCodePoint(c))).join('');
}
