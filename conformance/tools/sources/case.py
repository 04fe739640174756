"""CAPITALIZE: bijective simple case pairs only; everything else stays literal."""

AREA = "case"
TITLE = "CAPITALIZE and the case-pair table"

ENC = ["encode", "encode-marks-case", "chardata-case"]
DEC = ["decode-procedure", "decode-case", "chardata-case"]


def declare(v):
    # Basic Latin.
    v.encode("case-upper-01", "one capital letter", "A", 'CAPITALIZE(0) "a"', spec=ENC)
    v.encode("case-upper-02", "lowercase word has no group", "hello", '"hello"', spec=ENC)
    v.encode("case-upper-03", "all-caps word: one CAPITALIZE per slot", "HELLO",
             'CAPITALIZE(0) CAPITALIZE(1) CAPITALIZE(2) CAPITALIZE(3) CAPITALIZE(4) "hello"',
             spec=ENC + ["encode-serialize"])
    v.encode("case-upper-04", "capital inside a word", "hEllo", 'CAPITALIZE(1) "hello"', spec=ENC)
    v.encode("case-upper-05", "two capitals in one word", "McDonald",
             'CAPITALIZE(0) CAPITALIZE(2) "mcdonald"', spec=ENC)
    v.encode("case-upper-06", "leading space is slot 0 of the piece", " World",
             'CAPITALIZE(1) " world"', spec=ENC + ["split-semantics"])
    v.encode("case-upper-07", "each piece has its own group", "Hello World",
             'CAPITALIZE(0) "hello" CAPITALIZE(1) " world"', spec=ENC + ["split-semantics"])
    v.encode("case-upper-08", "plain piece after a group carries no group", "Hello world",
             'CAPITALIZE(0) "hello" " world"', spec=ENC + ["split-semantics"])
    v.encode("case-upper-09", "punctuation prefix is slot 0 of the piece", "(Foo)",
             'CAPITALIZE(1) "(foo" ")"', spec=ENC + ["split-semantics"])
    v.encode("case-upper-10", "last letter capital", "abC", 'CAPITALIZE(2) "abc"', spec=ENC)
    v.encode("case-upper-11", "camelCase identifier", "camelCaseName",
             'CAPITALIZE(5) CAPITALIZE(9) "camelcasename"', spec=ENC)
    v.encode("case-upper-12", "capital letters in separate pieces", "A B",
             'CAPITALIZE(0) "a" CAPITALIZE(1) " b"', spec=ENC + ["split-semantics"])

    # Other scripts with bijective pairs.
    v.encode("case-script-01", "Cyrillic capital", "\u041f\u0440\u0438\u0432\u0435\u0442",
             'CAPITALIZE(0) "\u043f\u0440\u0438\u0432\u0435\u0442"', spec=ENC)
    v.encode("case-script-02", "Greek capital omega", "\u03a9",
             'CAPITALIZE(0) "\u03c9"', spec=ENC)
    v.encode("case-script-03", "Greek capital sigma pairs with medial sigma", "\u03a3",
             'CAPITALIZE(0) "\u03c3"', spec=ENC)
    v.encode("case-script-04", "Greek word with tonos and a capital", "\u03a9\u03bc\u03ad\u03b3\u03b1",
             'ACUTE(2) CAPITALIZE(0) "\u03c9\u03bc\u03b5\u03b3\u03b1"', spec=ENC + ["chardata-decomp"])
    v.encode("case-script-05", "Deseret capital outside the BMP", "\U00010400",
             'CAPITALIZE(0) "\U00010428"', spec=ENC)
    v.encode("case-script-06", "Armenian capital", "\u0532\u0561\u0580\u0565\u0582",
             'CAPITALIZE(0) "\u0562\u0561\u0580\u0565\u0582"', spec=ENC)
    v.encode("case-script-07", "Latin capital with stroke has a pair", "\u0141\u00f3d\u017a",
             'ACUTE(1) ACUTE(3) CAPITALIZE(0) "\u0142odz"', spec=ENC + ["chardata-decomp", "encode-serialize"])
    v.encode("case-script-08", "capital eth pairs with eth", "\u00d0",
             'CAPITALIZE(0) "\u00f0"', spec=ENC)
    v.encode("case-script-09", "DZ with caron digraph pairs with dz", "\u01c4",
             'CAPITALIZE(0) "\u01c6"', spec=ENC)
    v.encode("case-script-10", "Latin capital thorn", "\u00de",
             'CAPITALIZE(0) "\u00fe"', spec=ENC)

    v.encode("case-script-11", "Greek capital with prosgegrammeni pairs (Lt)", "\u1f88",
             'CAPITALIZE(0) "\u1f80"', spec=ENC)
    v.encode("case-script-12", "Cherokee capital pairs with its small letter", "\u13a0",
             'CAPITALIZE(0) "\uab70"', spec=ENC)
    v.encode("case-script-13", "Georgian Mtavruli pairs with Mkhedruli", "\u1c90",
             'CAPITALIZE(0) "\u10d0"', spec=ENC)
    v.encode("case-script-14", "Osage capital outside the BMP", "\U000104b0",
             'CAPITALIZE(0) "\U000104d8"', spec=ENC)
    v.encode("case-script-15", "Adlam capital in a word", "\U0001e920\U0001e942",
             'CAPITALIZE(0) "\U0001e942\U0001e942"', spec=ENC)
    v.encode("case-script-16", "Greek capital alpha with prosgegrammeni (U+1FBC)", "\u1fbc",
             'CAPITALIZE(0) "\u1fb3"', spec=ENC)
    v.encode("case-nopair-19", "theta symbol has no pair", "\u03d1", '"\u03d1"', spec=ENC)
    v.encode("case-nopair-20", "prosgegrammeni U+1FBE is iota after NFC", "\u1fbe", '"\u03b9"',
             decoded="\u03b9", spec=ENC + ["normalize-nfc"])

    # Characters without a bijective simple pair stay literal.
    v.encode("case-nopair-01", "titlecase Dz digraph stays literal", "\u01c5", '"\u01c5"', spec=ENC)
    v.encode("case-nopair-02", "titlecase Lj digraph stays literal", "\u01c8", '"\u01c8"', spec=ENC)
    v.encode("case-nopair-03", "titlecase Nj digraph stays literal", "\u01cb", '"\u01cb"', spec=ENC)
    v.encode("case-nopair-04", "titlecase Dz (U+01F2) stays literal", "\u01f2", '"\u01f2"', spec=ENC)
    v.encode("case-nopair-05", "capital sharp s stays literal", "\u1e9e", '"\u1e9e"', spec=ENC)
    v.encode("case-nopair-06", "sharp s stays literal", "stra\u00dfe", '"stra\u00dfe"', spec=ENC)
    v.encode("case-nopair-07", "capital theta symbol stays literal", "\u03f4", '"\u03f4"', spec=ENC)
    v.encode("case-nopair-08", "math bold capital A stays literal", "\U0001d400", '"\U0001d400"', spec=ENC)
    v.encode("case-nopair-09", "math italic capital word stays literal", "\U0001d434\U0001d44f",
             '"\U0001d434\U0001d44f"', spec=ENC)
    v.encode("case-nopair-10", "dotless i stays literal", "\u0131", '"\u0131"', spec=ENC)
    v.encode("case-nopair-11", "long s stays literal", "\u017f", '"\u017f"', spec=ENC)
    v.encode("case-nopair-12", "final sigma stays literal", "\u03c2", '"\u03c2"', spec=ENC)
    v.encode("case-nopair-13", "micro sign stays literal", "\u00b5", '"\u00b5"', spec=ENC)
    v.encode("case-nopair-14", "Kelvin sign stays literal without NFC", "\u212a", '"\u212a"',
             spec=ENC + ["normalize-nfc"], options={"normalize": None})
    v.encode("case-nopair-15", "ohm sign stays literal without NFC", "\u2126", '"\u2126"',
             spec=ENC + ["normalize-nfc"], options={"normalize": None})
    v.encode("case-nopair-16", "CJK ideographs have no case", "\u6f22\u5b57", '"\u6f22\u5b57"', spec=ENC)
    v.encode("case-nopair-17", "Greek word with final sigma", "\u039b\u03cc\u03b3\u03bf\u03c2",
             'ACUTE(1) CAPITALIZE(0) "\u03bb\u03bf\u03b3\u03bf\u03c2"', spec=ENC + ["chardata-decomp"])
    v.encode("case-nopair-18", "digits and punctuation have no case", "1,2", '"1" "," "2"', spec=ENC + ["split-semantics"])

    # U+0130: the dot is a mark (DOT_ABOVE), the I takes CAPITALIZE.
    v.encode("case-0130-01", "capital I with dot above", "\u0130",
             'DOT_ABOVE(0) CAPITALIZE(0) "i"', spec=ENC + ["chardata-decomp"])
    v.encode("case-0130-02", "Istanbul with dotted capital I", "\u0130stanbul",
             'DOT_ABOVE(0) CAPITALIZE(0) "istanbul"', spec=ENC + ["chardata-decomp"])
    v.encode("case-0130-03", "dotted capital I inside a word", "D\u0130K",
             'DOT_ABOVE(1) CAPITALIZE(0) CAPITALIZE(1) CAPITALIZE(2) "dik"', spec=ENC + ["encode-serialize"])

    # Decoding: CAPITALIZE leaves a slot without a lower-member pair unchanged.
    v.decode("case-dec-01", "CAPITALIZE on a comma leaves it unchanged", 'CAPITALIZE(0) ","', ",",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-02", "CAPITALIZE twice on one slot", 'CAPITALIZE(0) CAPITALIZE(0) "a"', "A",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-03", "CAPITALIZE on an uppercase slot", 'CAPITALIZE(0) "A"', "A",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-04", "CAPITALIZE on sharp s is a no-op", 'CAPITALIZE(0) "\u00df"', "\u00df",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-05", "CAPITALIZE on dotless i is a no-op", 'CAPITALIZE(0) "\u0131"', "\u0131",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-06", "CAPITALIZE on final sigma is a no-op", 'CAPITALIZE(0) "\u03c2"', "\u03c2",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-07", "CAPITALIZE on dz digraph gives DZ, not Dz", 'CAPITALIZE(0) "\u01c6"', "\u01c4",
             spec=DEC, roundtrip=True)
    v.decode("case-dec-08", "CAPITALIZE on titlecase Dz is a no-op", 'CAPITALIZE(0) "\u01c5"', "\u01c5",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-09", "CAPITALIZE on a digit is a no-op", 'CAPITALIZE(0) "7"', "7",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-10", "CAPITALIZE on a space is a no-op", 'CAPITALIZE(0) " a"', " a",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-11", "group spans two tokens (observed UNICEF)",
             'CAPITALIZE(1) CAPITALIZE(2) CAPITALIZE(3) CAPITALIZE(4) CAPITALIZE(5) CAPITALIZE(6) " un" "icef"',
             " UNICEF", spec=DEC + ["decode-groups"], roundtrip=True)
    v.decode("case-dec-12", "one group capitalizes letters of two pieces",
             'CAPITALIZE(0) CAPITALIZE(4) "new york"', "New York", spec=DEC + ["decode-groups"],
             roundtrip=False)
    v.decode("case-dec-13", "CAPITALIZE in a non-canonical position in the group",
             'CAPITALIZE(0) REPEAT(0,3) "a"', "AAA", spec=DEC + ["decode-repeats"], roundtrip=False)
    v.decode("case-dec-14", "case applies before marks", 'CAPITALIZE(0) ACUTE(0) "e"', "\u00c9",
             spec=DEC + ["decode-marks"], roundtrip=False)
    v.decode("case-dec-15", "CAPITALIZE outside the BMP", 'CAPITALIZE(0) "\U00010428x"', "\U00010400x",
             spec=DEC, roundtrip=True)
    v.decode("case-dec-16", "text before the first group is literal", '"abc" CAPITALIZE(0) "d"', "abcD",
             spec=DEC + ["decode-groups"], roundtrip=False)
    v.decode("case-dec-17", "CAPITALIZE on an escaped private-use slot",
             'CAPITALIZE(0) ESCAPE "\ue000"', "\ue000", spec=DEC + ["encode-escape"], roundtrip=False)
    v.decode("case-dec-18", "CAPITALIZE on long s is a no-op", 'CAPITALIZE(0) "\u017f"', "\u017f",
             spec=DEC, roundtrip=False)
    v.decode("case-dec-19", "CAPITALIZE gives a titlecase Greek letter (U+1F88)",
             'CAPITALIZE(0) "\u1f80"', "\u1f88", spec=DEC, roundtrip=True)
    v.decode("case-dec-20", "CAPITALIZE on a Cherokee small letter", 'CAPITALIZE(0) "\uab70"', "\u13a0",
             spec=DEC, roundtrip=True)
    v.decode("case-dec-21", "CAPITALIZE on an escaped lowercase letter", 'CAPITALIZE(0) ESCAPE "a"', "A",
             spec=DEC + ["decode-groups"], roundtrip=False)
    v.decode("case-dec-22", "CAPITALIZE on the theta symbol is a no-op", 'CAPITALIZE(0) "\u03d1"', "\u03d1",
             spec=DEC, roundtrip=False)

