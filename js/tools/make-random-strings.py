"""Writes js/test/fixtures/random-strings.json: 2,000 seeded random strings that both CPython
functok and functok for JavaScript read (js/test/determinism.test.mjs compares their digests).

    python js/tools/make-random-strings.py [OUT]      # default: js/test/fixtures/random-strings.json
    python js/tools/make-random-strings.py --check    # exit 1 if the committed file is stale

The strings cover every plane (0 to 16, private use planes 15 and 16 included), the Private Use
Area and the format's own range U+E000..U+EFFF (ESCAPE included), stacked combining marks (the
13 of spec 6.2 and others, up to 6 on one base), case pairs, runs that fold, long pieces about
slot 255, whitespace and CR/LF. No surrogates: a JS string cannot hold two adjacent surrogate
code points apart from the pair (SPEC-GAPS G8), and a lone one is the same error on both sides.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

SEED = 20261201
COUNT = 2000
OUT = Path(__file__).resolve().parents[1] / "test" / "fixtures" / "random-strings.json"

MARKS = [0x300, 0x301, 0x302, 0x303, 0x304, 0x306, 0x307, 0x308, 0x309, 0x30A, 0x30B, 0x30C, 0x31B,
         0x323, 0x326, 0x327, 0x328, 0x345, 0x5B0, 0x93C, 0x3099, 0x1D165, 0x20D7]
WORDS = ["Hello", "WORLD", "Tiếng Việt", "İstanbul", "ŁÓDŹ", "Άλφα", "ǅ", "ẞ", "don't", "WE'LL", "x = 1;\n",
         "    ", "\r\n", "\t\t", "aaab", "abcabcabc", "HaHaHa", "12345", "가각", "\u1100\u1161\u11a8", "Å", "Ω",
         "ﬁ", "HTTPServer", "MAX_SIZE", "getHTTPResponse", "XıY", "МИР", "𐐀𐐁", "\u3000\u3000\u3000"]


def code_point(r: random.Random) -> int:
    k = r.random()
    if k < 0.25:
        return r.randrange(0x20, 0x7F)
    if k < 0.33:
        return r.randrange(0xC0, 0x250)
    if k < 0.38:
        return r.choice(MARKS)
    if k < 0.45:
        return r.randrange(0xE000, 0xF000)  # the format's range, ESCAPE included
    if k < 0.48:
        return r.randrange(0xF000, 0xF900)  # the rest of the BMP's Private Use Area
    if k < 0.52:
        return r.choice([9, 10, 13, 0x1C, 0x85, 0xA0, 0x2028, 0x3000])
    if k < 0.60:
        return r.randrange(0x370, 0x2000)
    if k < 0.64:
        return r.randrange(0xAC00, 0xD7A4)
    while True:  # any plane, the private use planes 15 and 16 included; no surrogates
        c = r.randrange(17) * 0x10000 + r.randrange(0x10000)
        if not 0xD800 <= c <= 0xDFFF:
            return c


def stacked(r: random.Random) -> str:
    base = r.choice("aeiouAEIOUnNcCsSzZ" + "αωИя")
    return base + "".join(chr(r.choice(MARKS)) for _ in range(r.randint(2, 6)))


def random_string(r: random.Random) -> str:
    parts = []
    for _ in range(r.randrange(0, 24)):
        t = r.random()
        if t < 0.12:
            parts.append(r.choice(WORDS))
        elif t < 0.20:
            parts.append(stacked(r))
        elif t < 0.26:
            parts.append(chr(code_point(r)) * r.randint(1, 7))
        elif t < 0.30:
            unit = "".join(chr(code_point(r)) for _ in range(r.randint(2, 8)))
            parts.append(unit * r.randint(1, 4))
        elif t < 0.305:
            parts.append(("abcdefghi" * 30)[: r.randint(250, 262)] + "ABCDEFGH"[: r.randint(1, 8)])
        else:
            parts.append(chr(code_point(r)))
    return "".join(parts)


def strings() -> list[str]:
    r = random.Random(SEED)
    return [random_string(r) for _ in range(COUNT)]


def text() -> str:
    doc = {"generated_by": "js/tools/make-random-strings.py (do not edit)", "seed": SEED, "strings": strings()}
    return json.dumps(doc, ensure_ascii=False, indent=0) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        sys.exit(0 if OUT.read_text(encoding="utf-8") == text() else "random-strings.json is stale: rerun the generator")
    out = Path(sys.argv[1]) if sys.argv[1:] else OUT
    out.write_text(text(), encoding="utf-8")
    print(f"wrote {out} ({COUNT} strings)")
