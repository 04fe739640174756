"""The 13 mark instructions: decomposition on encode, composition on decode."""

from vectorlib import check_decomposes

AREA = "marks"
TITLE = "Mark instructions and the decomposition table"

ENC = ["encode", "encode-marks-case", "chardata-decomp"]
DEC = ["decode-procedure", "decode-marks", "chardata-decomp"]

# name, mark, base, lowercase precomposed, uppercase precomposed (written by hand, checked
# against unicodedata2's NFD below).
TABLE = [
    ("TILDE", "\u0303", "n", "\u00f1", "\u00d1"),
    ("ACUTE", "\u0301", "e", "\u00e9", "\u00c9"),
    ("GRAVE", "\u0300", "a", "\u00e0", "\u00c0"),
    ("CIRCUMFLEX", "\u0302", "o", "\u00f4", "\u00d4"),
    ("DIAERESIS", "\u0308", "u", "\u00fc", "\u00dc"),
    ("MACRON", "\u0304", "a", "\u0101", "\u0100"),
    ("DOT_ABOVE", "\u0307", "z", "\u017c", "\u017b"),
    ("RING_ABOVE", "\u030a", "a", "\u00e5", "\u00c5"),
    ("DOUBLE_ACUTE", "\u030b", "o", "\u0151", "\u0150"),
    ("CARON", "\u030c", "c", "\u010d", "\u010c"),
    ("COMMA_BELOW", "\u0326", "s", "\u0219", "\u0218"),
    ("CEDILLA", "\u0327", "c", "\u00e7", "\u00c7"),
    ("OGONEK", "\u0328", "a", "\u0105", "\u0104"),
]

# Characters whose full decomposition stacks two of the 13 marks on one base.
STACKED = [
    ("\u01d6", "u", ["DIAERESIS", "MACRON"]),
    ("\u01d8", "u", ["DIAERESIS", "ACUTE"]),
    ("\u01da", "u", ["DIAERESIS", "CARON"]),
    ("\u01dc", "u", ["DIAERESIS", "GRAVE"]),
    ("\u1ea5", "a", ["CIRCUMFLEX", "ACUTE"]),
    ("\u1ea7", "a", ["CIRCUMFLEX", "GRAVE"]),
    ("\u1eab", "a", ["CIRCUMFLEX", "TILDE"]),
    ("\u1e53", "o", ["MACRON", "ACUTE"]),
    ("\u1e09", "c", ["CEDILLA", "ACUTE"]),
    ("\u01fb", "a", ["RING_ABOVE", "ACUTE"]),
    ("\u1e4d", "o", ["TILDE", "ACUTE"]),
    ("\u1e4f", "o", ["TILDE", "DIAERESIS"]),
    ("\u022b", "o", ["DIAERESIS", "MACRON"]),
    ("\u022d", "o", ["TILDE", "MACRON"]),
    ("\u0231", "o", ["DOT_ABOVE", "MACRON"]),
    ("\u01ed", "o", ["OGONEK", "MACRON"]),
    ("\u01e1", "a", ["DOT_ABOVE", "MACRON"]),
    ("\u1e17", "e", ["MACRON", "ACUTE"]),
    ("\u1e2f", "i", ["DIAERESIS", "ACUTE"]),
    ("\u1e79", "u", ["TILDE", "ACUTE"]),
    ("\u1e7b", "u", ["MACRON", "DIAERESIS"]),
    ("\u1e65", "s", ["ACUTE", "DOT_ABOVE"]),
    ("\u1e67", "s", ["CARON", "DOT_ABOVE"]),
    ("\u0390", "\u03b9", ["DIAERESIS", "ACUTE"]),
    ("\u03b0", "\u03c5", ["DIAERESIS", "ACUTE"]),
]
STACKED_UPPER = [
    ("\u01d7", "u", ["DIAERESIS", "ACUTE"]),
    ("\u1ea4", "a", ["CIRCUMFLEX", "ACUTE"]),
    ("\u1e08", "c", ["CEDILLA", "ACUTE"]),
    ("\u01d5", "u", ["DIAERESIS", "MACRON"]),
]

# Precomposed characters carrying a mark outside the 13 (breve, dot below, hook above,
# horn), alone or beside one of the 13: not in the decomposition table, so literal.
OUTSIDE = [
    ("\u0103", "a with breve"),
    ("\u1ea1", "a with dot below"),
    ("\u1ea3", "a with hook above"),
    ("\u01a1", "o with horn"),
    ("\u1ec7", "e with circumflex and dot below"),
    ("\u1edf", "o with horn and hook above"),
    ("\u1e1d", "e with cedilla and breve"),
    ("\u014f", "o with breve"),
    ("\u1ee5", "u with dot below"),
    ("\u0439", "Cyrillic short i (breve)"),
]
OUTSIDE_UPPER = [
    ("\u0102", "\u0103", "capital A with breve"),
    ("\u1ea0", "\u1ea1", "capital A with dot below"),
    ("\u1ea2", "\u1ea3", "capital A with hook above"),
    ("\u01a0", "\u01a1", "capital O with horn"),
    ("\u1e1c", "\u1e1d", "capital E with cedilla and breve"),
]
MARK_OF = {name: mark for name, mark, *_ in TABLE}


def declare(v):
    # The rows of the tables (vectorlib's Collector.encodes and decodes):
    #   encode: id, description, input, expected stream, further clauses
    #   decode: id, description, stream, text, roundtrip, further clauses
    for name, mark, base, lower, upper in TABLE:
        check_decomposes(lower, base, mark)
        check_decomposes(upper, base.upper(), mark)
        key = name.lower().replace("_", "")
        v.encode(f"mark-{key}-01", f"{name} on a lowercase letter", lower, f'{name}(0) "{base}"', spec=ENC)
        v.encode(f"mark-{key}-02", f"{name} on an uppercase letter", upper,
                 f'{name}(0) CAPITALIZE(0) "{base}"', spec=ENC + ["encode-serialize"])
        v.encode(f"mark-{key}-03", f"{name} on slot 2 of a word", "ab" + lower + "x",
                 f'{name}(2) "ab{base}x"', spec=ENC)
        v.encode(f"mark-{key}-04", f"decomposed {name} with NFC composes", base + mark,
                 f'{name}(0) "{base}"', decoded=lower, spec=ENC + ["normalize-nfc"])
        v.encode(f"mark-{key}-05", f"decomposed {name} without NFC stays literal", base + mark,
                 f'"{base}{mark}"', options={"normalize": None}, spec=ENC + ["normalize-nfc", "split-semantics"])
        v.decode(f"mark-{key}-06", f"{name} on q has no composition: literal mark",
                 f'{name}(0) "q"', "q" + mark, spec=DEC, roundtrip=False)

    for char, base, names in STACKED:
        check_decomposes(char, base, "".join(MARK_OF[n] for n in names))
    for i, (char, base, names) in enumerate(STACKED, 1):
        instrs = " ".join(f"{n}(0)" for n in names)
        v.encode(f"mark-stack-{i:02}", f"two marks on one base: U+{ord(char):04X}", char,
                 f'{instrs} "{base}"', spec=ENC + ["encode-serialize"])
    for i, (char, base, names) in enumerate(STACKED_UPPER, 1):
        check_decomposes(char, base.upper(), "".join(MARK_OF[n] for n in names))
        instrs = " ".join(f"{n}(0)" for n in names)
        v.encode(f"mark-stackup-{i:02}", f"two marks on a capital: U+{ord(char):04X}", char,
                 f'{instrs} CAPITALIZE(0) "{base}"', spec=ENC + ["encode-serialize"])
    v.encode("mark-stackword-01", "Vietnamese word with two stacked marks", "Ti\u1ebfng",
             'CIRCUMFLEX(2) ACUTE(2) CAPITALIZE(0) "tieng"', spec=ENC + ["encode-serialize"])
    v.encode("mark-stackword-02", "Pinyin word with stacked marks", "l\u01dc",
             'DIAERESIS(1) GRAVE(1) "lu"', spec=ENC + ["encode-serialize"])

    for i, (char, what) in enumerate(OUTSIDE, 1):
        v.encode(f"mark-outside-{i:02}", f"{what} stays literal", char, f'"{char}"', spec=ENC)
    for i, (char, lower, what) in enumerate(OUTSIDE_UPPER, 1):
        v.encode(f"mark-outsideup-{i:02}", f"{what}: only CAPITALIZE", char,
                 f'CAPITALIZE(0) "{lower}"', spec=ENC + ["chardata-case"])
    v.encodes(ENC, [
        ("mark-outside-word-01", "Viet Nam: dot below stays in the base",
         "Vi\u1ec7t Nam", 'CAPITALIZE(0) "vi\u1ec7t" CAPITALIZE(1) " nam"', ""),
        ("mark-outside-nfc-01", "a plus breve composes to a literal",
         "a\u0306", '"\u0103"', "normalize-nfc", {"decoded": "\u0103"}),
        ("mark-outside-nfc-02", "a plus dot below composes to a literal",
         "a\u0323", '"\u1ea1"', "normalize-nfc", {"decoded": "\u1ea1"}),
        ("mark-outside-nfc-03", "a plus hook above composes to a literal",
         "a\u0309", '"\u1ea3"', "normalize-nfc", {"decoded": "\u1ea3"}),
        ("mark-outside-nfc-04", "o plus horn composes to a literal",
         "o\u031b", '"\u01a1"', "normalize-nfc", {"decoded": "\u01a1"}),
        ("mark-outside-raw-01", "breve without NFC: its own literal piece",
         "a\u0306", '"a\u0306"', "split-semantics", {"options": {"normalize": None}}),
        ("mark-outside-raw-02", "horn without NFC: its own literal piece",
         "O\u031b", 'CAPITALIZE(0) "o\u031b"', "split-semantics", {"options": {"normalize": None}}),
        ("mark-outside-nfc-05", "acute over dot below: reordered, partly composed",
         "e\u0301\u0323", '"\u1eb9\u0301"', "normalize-nfc split-semantics", {"decoded": "\u1eb9\u0301"}),
        ("mark-outside-nfc-06", "two marks with no precomposed form",
         "a\u0302\u0308", 'CIRCUMFLEX(0) "a\u0308"', "normalize-nfc split-semantics", {"decoded": "\u00e2\u0308"}),
    ])

    # Other scripts and bases.
    check_decomposes("\u0401", "\u0415", "\u0308")
    check_decomposes("\u1e9b", "\u017f", "\u0307")
    check_decomposes("\u03ac", "\u03b1", "\u0301")
    check_decomposes("\u0386", "\u0391", "\u0301")
    check_decomposes("\u00ea", "e", "\u0302")
    v.encodes(ENC, [
        ("mark-script-01", "Cyrillic capital Io",
         "\u0401\u043b\u043a\u0430", 'DIAERESIS(0) CAPITALIZE(0) "\u0435\u043b\u043a\u0430"', ""),
        ("mark-script-02", "long s with dot above: mark only",
         "\u1e9b", 'DOT_ABOVE(0) "\u017f"', "chardata-case"),
        ("mark-script-03", "Greek alpha with tonos",
         "\u03ac", 'ACUTE(0) "\u03b1"', ""),
        ("mark-script-04", "Romanian word with comma below",
         "\u021b\u0103r\u0103", 'COMMA_BELOW(0) "t\u0103r\u0103"', ""),
        ("mark-script-05", "Czech word with caron and acute",
         "\u010ce\u0161tina", 'CARON(0) CARON(2) CAPITALIZE(0) "cestina"', "encode-serialize"),
        ("mark-script-06", "Hungarian word with double acute",
         "\u0151r\u00fcl\u0151", 'DOUBLE_ACUTE(0) DIAERESIS(2) DOUBLE_ACUTE(4) "orulo"', "encode-serialize"),
        ("mark-script-07", "Polish word with ogonek and acute",
         "\u017c\u00f3\u0142\u0107", 'DOT_ABOVE(0) ACUTE(1) ACUTE(3) "zo\u0142c"', "encode-serialize"),
        ("mark-script-08", "naive with diaeresis",
         "na\u00efve", 'DIAERESIS(2) "naive"', ""),
        ("mark-script-09", "French word: marks then CAPITALIZE",
         "\u00c9l\u00e8ve", 'ACUTE(0) GRAVE(2) CAPITALIZE(0) "eleve"', "encode-serialize"),
        ("mark-script-10", "every vowel marked",
         "\u00e1\u00e9\u00ed\u00f3\u00fa", 'ACUTE(0) ACUTE(1) ACUTE(2) ACUTE(3) ACUTE(4) "aeiou"', "encode-serialize"),
    ])

    check_decomposes("\u0385", "\u00a8", "\u0301")
    check_decomposes("\u1fed", "\u00a8", "\u0300")
    v.encodes(ENC, [
        ("mark-script-11", "dialytika tonos: a mark on a symbol base",
         "\u0385", 'ACUTE(0) "\u00a8"', ""),
        ("mark-script-12", "dialytika varia: grave on a symbol base",
         "\u1fed", 'GRAVE(0) "\u00a8"', ""),
        ("mark-script-13", "Greek oxia letter is NFC-mapped to tonos",
         "\u1f71", 'ACUTE(0) "\u03b1"', "normalize-nfc", {"decoded": "\u03ac"}),
        ("mark-script-14", "Greek oxia letter without NFC stays literal",
         "\u1f71", '"\u1f71"', "normalize-modes", {"options": {"normalize": None}}),
    ])

    # Decoding: composition is an exact lookup of (slot, mark sequence).
    v.decodes(DEC, [
        ("mark-dec-01", "marks in non-canonical order stay separate",
         'ACUTE(0) DIAERESIS(0) "u"', "u\u0301\u0308", False, ""),
        ("mark-dec-02", "canonical order composes two marks",
         'DIAERESIS(0) ACUTE(0) "u"', "\u01d8", True, ""),
        ("mark-dec-03", "no partial composition of an absent pair",
         'CIRCUMFLEX(0) DIAERESIS(0) "a"', "a\u0302\u0308", False, ""),
        ("mark-dec-04", "a mark on a precomposed slot stays separate",
         'ACUTE(0) "\u00ea"', "\u00ea\u0301", False, ""),
        ("mark-dec-05", "the same mark twice stays separate",
         'ACUTE(0) ACUTE(0) "e"', "e\u0301\u0301", False, ""),
        ("mark-dec-06", "a mark on a space",
         'ACUTE(0) " "', " \u0301", False, ""),
        ("mark-dec-07", "a mark on an escaped slot stays separate",
         'ACUTE(0) ESCAPE "\ue000"', "\ue000\u0301", False, "encode-escape"),
        ("mark-dec-08", "marks on two slots in reverse order",
         'ACUTE(1) ACUTE(0) "ee"', "\u00e9\u00e9", False, ""),
        ("mark-dec-09", "a mark on an uppercase slot composes",
         'ACUTE(0) "E"', "\u00c9", False, ""),
        ("mark-dec-10", "dot above on capital I gives U+0130",
         'DOT_ABOVE(0) "I"', "\u0130", False, ""),
        ("mark-dec-11", "dot above on small i has no composition",
         'DOT_ABOVE(0) "i"', "i\u0307", False, ""),
        ("mark-dec-12", "the decoder does not normalize literal text",
         '"e\u0301"', "e\u0301", True, ""),
        ("mark-dec-13", "a composed slot before a literal mark",
         'ACUTE(0) "e\u0301"', "\u00e9\u0301", True, ""),
        ("mark-dec-14", "a mark outside the BMP base stays separate",
         'ACUTE(0) "\U00010428"', "\U00010428\u0301", False, ""),
        ("mark-dec-15", "CAPITALIZE then mark on the same slot",
         'CIRCUMFLEX(0) ACUTE(0) CAPITALIZE(0) "a"', "\u1ea4", True, "decode-case"),
        ("mark-dec-16", "stacked marks on a capitalized Greek slot",
         'ACUTE(0) CAPITALIZE(0) "\u03b1"', "\u0386", True, "decode-case"),
        ("mark-dec-17", "marks attach to their own slot in a group",
         'GRAVE(0) ACUTE(1) "ae"', "\u00e0\u00e9", True, ""),
        ("mark-dec-18", "a mark on a slot of a later token",
         'ACUTE(3) "ab" "ce"', "abc\u00e9", True, "decode-groups"),
    ])
