"""normalize="nfc" (the default) against normalize=None."""

AREA = "normalize"
TITLE = "NFC on and off"

ENC = ["encode", "normalize-modes", "normalize-nfc"]
OFF = {"normalize": None}
ON = {"normalize": "nfc"}


def declare(v):
    v.encode("nfc-on-01", "decomposed e acute composes, then ACUTE", "e\u0301",
             'ACUTE(0) "e"', decoded="\u00e9", spec=ENC + ["encode-marks-case"])
    v.encode("nfc-off-01", "decomposed e acute stays two literal pieces", "e\u0301",
             '"e\u0301"', options=OFF, spec=ENC + ["split-semantics"])
    v.encode("nfc-on-02", "decomposed capital E acute", "E\u0301",
             'ACUTE(0) CAPITALIZE(0) "e"', decoded="\u00c9", spec=ENC + ["encode-marks-case"])
    v.encode("nfc-off-02", "decomposed capital E acute without NFC", "E\u0301",
             'CAPITALIZE(0) "e\u0301"', options=OFF, spec=ENC + ["split-semantics"])
    v.encode("nfc-on-03", "Kelvin sign becomes K, then CAPITALIZE", "\u212a",
             'CAPITALIZE(0) "k"', decoded="K", spec=ENC + ["chardata-case"])
    v.encode("nfc-on-04", "ohm sign becomes omega", "\u2126",
             'CAPITALIZE(0) "\u03c9"', decoded="\u03a9", spec=ENC + ["chardata-case"])
    v.encode("nfc-on-05", "angstrom sign becomes A with ring", "\u212b",
             'RING_ABOVE(0) CAPITALIZE(0) "a"', decoded="\u00c5", spec=ENC + ["chardata-decomp"])
    v.encode("nfc-off-05", "angstrom sign stays literal without NFC", "\u212b",
             '"\u212b"', options=OFF, spec=ENC + ["chardata-decomp"])
    v.encode("nfc-on-06", "combining grave tone mark becomes grave", "a\u0340",
             'GRAVE(0) "a"', decoded="\u00e0", spec=ENC + ["chardata-decomp"])
    v.encode("nfc-off-06", "grave tone mark without NFC is literal", "a\u0340",
             '"a\u0340"', options=OFF, spec=ENC + ["split-semantics"])
    v.encode("nfc-on-07", "two stacked marks compose to one letter", "u\u0308\u0304",
             'DIAERESIS(0) MACRON(0) "u"', decoded="\u01d6", spec=ENC + ["chardata-decomp"])
    v.encode("nfc-off-07", "two stacked marks without NFC", "u\u0308\u0304",
             '"u\u0308\u0304"', options=OFF, spec=ENC + ["split-semantics"])
    v.encode("nfc-on-08", "marks reordered by combining class", "c\u0301\u0327",
             'CEDILLA(0) ACUTE(0) "c"', decoded="\u1e09", spec=ENC + ["chardata-decomp"])
    v.encode("nfc-on-09", "conjoining jamo compose to a syllable", "\u1100\u1161",
             '"\uac00"', decoded="\uac00", spec=ENC)
    v.encode("nfc-off-09", "conjoining jamo without NFC", "\u1100\u1161",
             '"\u1100\u1161"', options=OFF, spec=ENC)
    v.encode("nfc-on-10", "CJK compatibility ideograph maps to unified", "\uf900",
             '"\u8c48"', decoded="\u8c48", spec=ENC)
    v.encode("nfc-off-10", "CJK compatibility ideograph without NFC", "\uf900",
             '"\uf900"', options=OFF, spec=ENC)
    v.encode("nfc-on-11", "ligature fi is not changed by NFC", "\ufb01",
             '"\ufb01"', spec=ENC)
    v.encode("nfc-on-12", "precomposed input is unchanged by NFC", "\u00e9",
             'ACUTE(0) "e"', options=ON, spec=ENC)
    v.encode("nfc-off-12", "precomposed input decomposes without NFC too", "\u00e9",
             'ACUTE(0) "e"', options=OFF, spec=ENC)
    v.encode("nfc-on-13", "decomposed word composes inside one piece", "Cafe\u0301 ok",
             'ACUTE(3) CAPITALIZE(0) "cafe" " ok"', decoded="Caf\u00e9 ok", spec=ENC + ["split-semantics"])
    v.encode("nfc-off-13", "decomposed word without NFC splits at the mark", "Cafe\u0301 ok",
             'CAPITALIZE(0) "cafe\u0301 ok"', options=OFF, spec=ENC + ["split-semantics"])
    v.encode("nfc-on-14", "ogonek then acute: partial composition", "a\u0328\u0301",
             'OGONEK(0) "a\u0301"', decoded="\u0105\u0301", spec=ENC + ["split-semantics"])
    v.encode("nfc-on-15", "acute then ogonek reorders first", "a\u0301\u0328",
             'OGONEK(0) "a\u0301"', decoded="\u0105\u0301", spec=ENC + ["split-semantics"])
    v.encode("nfc-on-16", "not-equal sign from = plus long solidus", "=\u0338",
             '"\u2260"', decoded="\u2260", spec=ENC)
    v.encode("nfc-on-17", "NFC makes a run of three", "e\u0301\u00e9\u00e9",
             'REPEAT(0,3) ACUTE(0) "e"', decoded="\u00e9\u00e9\u00e9", spec=ENC + ["encode-fold"])
    v.encode("nfc-off-17", "without NFC the run is broken", "e\u0301\u00e9\u00e9",
             '"e" ACUTE(1) ACUTE(2) "\u0301ee"', options=OFF, spec=ENC + ["encode-fold", "split-semantics"])
    v.encode("nfc-on-18", "Hangul syllable with trailing jamo", "\u1100\u1161\u11a8",
             '"\uac01"', decoded="\uac01", spec=ENC)
    v.encode("nfc-on-19", "decomposed capital I with dot above", "I\u0307",
             'DOT_ABOVE(0) CAPITALIZE(0) "i"', decoded="\u0130", spec=ENC + ["encode-marks-case"])
    v.encode("nfc-off-19", "small i with dot above stays literal", "i\u0307",
             '"i\u0307"', options=OFF, spec=ENC + ["split-semantics"])
    v.encode("nfc-on-20", "small i with dot above has no composition", "i\u0307",
             '"i\u0307"', spec=ENC + ["split-semantics"])
