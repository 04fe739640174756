"""pieces(): each piece's normalized text, original offsets, instructions and base."""

AREA = "pieces"
TITLE = "Pieces: text, offsets, instructions and base"

SPEC = ["encode-pieces", "encode"]


def declare(v):
    p = v.pieces
    p("pieces-01", "two pieces, one with a group", "Hello world",
      [("Hello", 0, 5, "CAPITALIZE(0)", '"hello"'), (" world", 5, 11, "", '" world"')], spec=SPEC)
    p("pieces-02", "instructions in canonical order", "H\u00e9llo",
      [("H\u00e9llo", 0, 5, "ACUTE(1) CAPITALIZE(0)", '"hello"')], spec=SPEC + ["encode-serialize"])
    p("pieces-03", "empty input has no pieces", "", [], spec=SPEC)
    p("pieces-04", "offsets are in the original text before NFC", "Cafe\u0301 ok",
      [("Caf\u00e9", 0, 5, "ACUTE(3) CAPITALIZE(0)", '"cafe"'), (" ok", 5, 8, "", '" ok"')],
      spec=SPEC + ["normalize-nfc"])
    p("pieces-05", "without NFC the mark is its own piece", "Cafe\u0301 ok",
      [("Cafe", 0, 4, "CAPITALIZE(0)", '"cafe"'), ("\u0301", 4, 5, "", '"\u0301"'),
       (" ok", 5, 8, "", '" ok"')], options={"normalize": None}, spec=SPEC + ["normalize-nfc"])
    p("pieces-06", "offsets count code points outside the BMP", "\U00010400x y",
      [("\U00010400x", 0, 2, "CAPITALIZE(0)", '"\U00010428x"'), (" y", 2, 4, "", '" y"')], spec=SPEC)
    p("pieces-07", "base keeps its escapes", "\ue000A",
      [("\ue000A", 0, 2, "CAPITALIZE(1)", 'ESCAPE "\ue000" "a"')], spec=SPEC + ["encode-escape"])
    p("pieces-08", "REPEAT pieces", "aaaa!!!",
      [("aaaa", 0, 4, "REPEAT(0,4)", '"a"'), ("!!!", 4, 7, "REPEAT(0,3)", '"!"')], spec=SPEC + ["encode-fold"])
    p("pieces-09", "MULTIREPEAT piece", "abcabcabc",
      [("abcabcabc", 0, 9, "MULTIREPEAT(0,3,3)", '"abc"')], spec=SPEC + ["encode-fold"])
    p("pieces-10", "paper splitter: one piece per digit", "a12",
      [("a", 0, 1, "", '"a"'), ("1", 1, 2, "", '"1"'), ("2", 2, 3, "", '"2"')],
      options={"splitter": "paper"}, spec=SPEC + ["split-patterns"])
    p("pieces-11", "llama3 splitter: digits in threes", "a1234",
      [("a", 0, 1, "", '"a"'), ("123", 1, 4, "", '"123"'), ("4", 4, 5, "", '"4"')],
      spec=SPEC + ["split-patterns"])
    p("pieces-12", "NFC composition shifts later offsets", "A\u030a x\u0301",
      [("\u00c5", 0, 2, "RING_ABOVE(0) CAPITALIZE(0)", '"a"'), (" x", 2, 4, "", '" x"'),
       ("\u0301", 4, 5, "", '"\u0301"')], spec=SPEC + ["normalize-nfc"])
    p("pieces-13", "Kelvin sign: NFC text is K", "\u212a2",
      [("K", 0, 1, "CAPITALIZE(0)", '"k"'), ("2", 1, 2, "", '"2"')], spec=SPEC + ["normalize-nfc"])
    p("pieces-14", "contraction pieces", "DON'T",
      [("DON", 0, 3, "CAPITALIZE(0) CAPITALIZE(1) CAPITALIZE(2)", '"don"'),
       ("'T", 3, 5, "CAPITALIZE(1)", "\"'t\"")], spec=SPEC + ["split-semantics"])
    p("pieces-15", "fold, marks and case together", "\u00c9\u00c9\u00c9h",
      [("\u00c9\u00c9\u00c9h", 0, 4, "REPEAT(0,3) ACUTE(0) CAPITALIZE(0)", '"eh"')],
      spec=SPEC + ["encode-fold", "encode-serialize"])
    p("pieces-16", "newline run piece", "a\n\n\nb",
      [("a", 0, 1, "", '"a"'), ("\n\n\n", 1, 4, "REPEAT(0,3)", '"\\n"'), ("b", 4, 5, "", '"b"')],
      spec=SPEC + ["encode-fold"])
    p("pieces-17", "U+0130: two instructions on slot 0", "\u0130",
      [("\u0130", 0, 1, "DOT_ABOVE(0) CAPITALIZE(0)", '"i"')], spec=SPEC + ["encode-marks-case"])
    p("pieces-18", "Hangul jamo compose to one piece text", "\u1100\u1161!",
      [("\uac00", 0, 2, "", '"\uac00"'), ("!", 2, 3, "", '"!"')], spec=SPEC + ["normalize-nfc"])
    p("pieces-19", "stacked marks listed in decomposition order", "\u01d7",
      [("\u01d7", 0, 1, "DIAERESIS(0) ACUTE(0) CAPITALIZE(0)", '"u"')], spec=SPEC + ["encode-serialize"])
    p("pieces-20", "non-escaped private use in a base", "\uf8ffZ",
      [("\uf8ffZ", 0, 2, "CAPITALIZE(1)", '"\uf8ffz"')], spec=SPEC + ["encode-escape"])
    # Offsets under NFC (spec 4.4): a code point from a span that NFC changes reports the span.
    p("pieces-21", "changed span split in two pieces: both report it", "ba\u0301\u0327x",
      [("b\u00e1", 0, 4, "ACUTE(1)", '"ba"'), ("\u0327x", 1, 5, "", '"\u0327x"')],
      spec=SPEC + ["normalize-offsets"])
    p("pieces-22", "Hangul jamo span of three", "\u1100\u1161\u11a8 x",
      [("\uac01", 0, 3, "", '"\uac01"'), (" x", 3, 5, "", '" x"')], spec=SPEC + ["normalize-offsets"])
    p("pieces-23", "the stable code point before a changed span", "1\u212a",
      [("1", 0, 2, "", '"1"'), ("K", 0, 2, "CAPITALIZE(0)", '"k"')], spec=SPEC + ["normalize-offsets"])
    p("pieces-24", "an unchanged span keeps exact offsets", "x\u0301 y",
      [("x", 0, 1, "", '"x"'), ("\u0301", 1, 2, "", '"\u0301"'), (" y", 2, 4, "", '" y"')],
      spec=SPEC + ["normalize-offsets"])
    p("pieces-25", "NFC off: a singleton keeps its own offsets", "1\u212a",
      [("1", 0, 1, "", '"1"'), ("\u212a", 1, 2, "", '"\u212a"')], options={"normalize": None},
      spec=SPEC + ["normalize-offsets"])

    # slot_starts: for slot j, the offset in the piece's text where it begins (spec 6.5).
    p("pieces-26", "slot_starts of a plain word", "Hello",
      [("Hello", 0, 5, "CAPITALIZE(0)", '"hello"', [0, 1, 2, 3, 4])], spec=SPEC)
    p("pieces-27", "slot_starts skip the copies a REPEAT folds", "baaad",
      [("baaad", 0, 5, "REPEAT(1,3)", '"bad"', [0, 1, 4])], spec=SPEC + ["encode-fold"])
    p("pieces-28", "slot_starts of a MULTIREPEAT unit and what follows", "xababab!",
      [("xababab", 0, 7, "MULTIREPEAT(1,3,3)", '"xab"', [0, 1, 2]), ("!", 7, 8, "", '"!"', [0])],
      spec=SPEC + ["encode-fold"])
    p("pieces-29", "slot_starts count code points of the NFC text", "\U00010400e\u0301e",
      [("\U00010400\u00e9e", 0, 4, "ACUTE(1) CAPITALIZE(0)", '"\U00010428ee"', [0, 1, 2])],
      spec=SPEC + ["normalize-offsets"])
    p("pieces-30", "slot_starts of a run of 300", "a" * 300,
      [("a" * 300, 0, 300, "REPEAT(0,255) REPEAT(1,45)", '"aa"', [0, 255])], spec=SPEC + ["encode-fold"])
    p("pieces-31", "an escaped slot counts one code point of text", "\ue000\ue001!",
      [("\ue000\ue001!", 0, 3, "", 'ESCAPE "\ue000" ESCAPE "\ue001" "!"', [0, 1, 2])],
      spec=SPEC + ["encode-escape"])
    # A stable supplementary code point ends a span like any other stable one (spec 4.4).
    p("pieces-32", "a stable supplementary code point after a changed span is not in it",
      "e\u0308\U0001F600",
      [("\u00eb", 0, 2, "DIAERESIS(0)", '"e"'), ("\U0001F600", 2, 3, "", '"\U0001F600"')],
      spec=SPEC + ["normalize-offsets"])
    p("pieces-33", "a stable supplementary code point starts the span after it", "a\U0001F600\u212a",
      [("a", 0, 1, "", '"a"'), ("\U0001F600K", 1, 3, "CAPITALIZE(1)", '"\U0001F600k"')],
      spec=SPEC + ["normalize-offsets"])

