"""normalize="nfc" (the default) against normalize=None."""

AREA = "normalize"
TITLE = "NFC on and off"

ENC = ["encode", "normalize-modes", "normalize-nfc"]
DEFAULT = {}  # normalize unstated: "nfc"
ON = {"normalize": "nfc"}
OFF = {"normalize": None}

# id, description,
#  options, input, expected stream, the text the stream decodes to (NFC of the input, or with
#  NFC off the input itself), further clauses
VECTORS = [
    ("nfc-on-01", "decomposed e acute composes, then ACUTE",
     DEFAULT, "e\u0301", 'ACUTE(0) "e"', "\u00e9", "encode-marks-case"),
    ("nfc-off-01", "decomposed e acute stays two literal pieces",
     OFF, "e\u0301", '"e\u0301"', "e\u0301", "split-semantics"),
    ("nfc-on-02", "decomposed capital E acute",
     DEFAULT, "E\u0301", 'ACUTE(0) CAPITALIZE(0) "e"', "\u00c9", "encode-marks-case"),
    ("nfc-off-02", "decomposed capital E acute without NFC",
     OFF, "E\u0301", 'CAPITALIZE(0) "e\u0301"', "E\u0301", "split-semantics"),
    ("nfc-on-03", "Kelvin sign becomes K, then CAPITALIZE",
     DEFAULT, "\u212a", 'CAPITALIZE(0) "k"', "K", "chardata-case"),
    ("nfc-on-04", "ohm sign becomes omega",
     DEFAULT, "\u2126", 'CAPITALIZE(0) "\u03c9"', "\u03a9", "chardata-case"),
    ("nfc-on-05", "angstrom sign becomes A with ring",
     DEFAULT, "\u212b", 'RING_ABOVE(0) CAPITALIZE(0) "a"', "\u00c5", "chardata-decomp"),
    ("nfc-off-05", "angstrom sign stays literal without NFC",
     OFF, "\u212b", '"\u212b"', "\u212b", "chardata-decomp"),
    ("nfc-on-06", "combining grave tone mark becomes grave",
     DEFAULT, "a\u0340", 'GRAVE(0) "a"', "\u00e0", "chardata-decomp"),
    ("nfc-off-06", "grave tone mark without NFC is literal",
     OFF, "a\u0340", '"a\u0340"', "a\u0340", "split-semantics"),
    ("nfc-on-07", "two stacked marks compose to one letter",
     DEFAULT, "u\u0308\u0304", 'DIAERESIS(0) MACRON(0) "u"', "\u01d6", "chardata-decomp"),
    ("nfc-off-07", "two stacked marks without NFC",
     OFF, "u\u0308\u0304", '"u\u0308\u0304"', "u\u0308\u0304", "split-semantics"),
    ("nfc-on-08", "marks reordered by combining class",
     DEFAULT, "c\u0301\u0327", 'CEDILLA(0) ACUTE(0) "c"', "\u1e09", "chardata-decomp"),
    ("nfc-on-09", "conjoining jamo compose to a syllable",
     DEFAULT, "\u1100\u1161", '"\uac00"', "\uac00", ""),
    ("nfc-off-09", "conjoining jamo without NFC",
     OFF, "\u1100\u1161", '"\u1100\u1161"', "\u1100\u1161", ""),
    ("nfc-on-10", "CJK compatibility ideograph maps to unified",
     DEFAULT, "\uf900", '"\u8c48"', "\u8c48", ""),
    ("nfc-off-10", "CJK compatibility ideograph without NFC",
     OFF, "\uf900", '"\uf900"', "\uf900", ""),
    ("nfc-on-11", "ligature fi is not changed by NFC",
     DEFAULT, "\ufb01", '"\ufb01"', "\ufb01", ""),
    ("nfc-on-12", "precomposed input is unchanged by NFC",
     ON, "\u00e9", 'ACUTE(0) "e"', "\u00e9", ""),
    ("nfc-off-12", "precomposed input decomposes without NFC too",
     OFF, "\u00e9", 'ACUTE(0) "e"', "\u00e9", ""),
    ("nfc-on-13", "decomposed word composes inside one piece",
     DEFAULT, "Cafe\u0301 ok", 'ACUTE(3) CAPITALIZE(0) "cafe" " ok"', "Caf\u00e9 ok", "split-semantics"),
    ("nfc-off-13", "decomposed word without NFC splits at the mark",
     OFF, "Cafe\u0301 ok", 'CAPITALIZE(0) "cafe\u0301 ok"', "Cafe\u0301 ok", "split-semantics"),
    ("nfc-on-14", "ogonek then acute: partial composition",
     DEFAULT, "a\u0328\u0301", 'OGONEK(0) "a\u0301"', "\u0105\u0301", "split-semantics"),
    ("nfc-on-15", "acute then ogonek reorders first",
     DEFAULT, "a\u0301\u0328", 'OGONEK(0) "a\u0301"', "\u0105\u0301", "split-semantics"),
    ("nfc-on-16", "not-equal sign from = plus long solidus",
     DEFAULT, "=\u0338", '"\u2260"', "\u2260", ""),
    ("nfc-on-17", "NFC makes a run of three",
     DEFAULT, "e\u0301\u00e9\u00e9", 'REPEAT(0,3) ACUTE(0) "e"', "\u00e9\u00e9\u00e9", "encode-fold"),
    ("nfc-off-17", "without NFC the run is broken",
     OFF, "e\u0301\u00e9\u00e9", '"e" ACUTE(1) ACUTE(2) "\u0301ee"', "e\u0301\u00e9\u00e9", "encode-fold split-semantics"),
    ("nfc-on-18", "Hangul syllable with trailing jamo",
     DEFAULT, "\u1100\u1161\u11a8", '"\uac01"', "\uac01", ""),
    ("nfc-on-19", "decomposed capital I with dot above",
     DEFAULT, "I\u0307", 'DOT_ABOVE(0) CAPITALIZE(0) "i"', "\u0130", "encode-marks-case"),
    ("nfc-off-19", "small i with dot above stays literal",
     OFF, "i\u0307", '"i\u0307"', "i\u0307", "split-semantics"),
    ("nfc-on-20", "small i with dot above has no composition",
     DEFAULT, "i\u0307", '"i\u0307"', "i\u0307", "split-semantics"),
]


def declare(v):
    for id, description, options, text, stream, decoded, clauses in VECTORS:
        v.encode(id, description, text, stream, options=options, decoded=decoded, spec=[*ENC, *clauses.split()])
