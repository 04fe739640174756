"""ESCAPE: private-use input in U+E000..U+EFFF is escaped; other private use passes."""

AREA = "escape"
TITLE = "Escaping private-use input"

ENC = ["encode", "encode-escape"]
DEC = ["decode-procedure", "decode-groups", "encode-escape"]


def declare(v):
    # The rows of the tables (vectorlib's Collector.encodes and decodes):
    #   encode: id, description, input, expected stream, further clauses
    #   decode: id, description, stream, text, roundtrip, further clauses
    for cp in ("e000", "e0ff", "e100", "e101", "e200", "e201", "e10e", "e110", "eabc", "effe", "efff"):
        char = chr(int(cp, 16))
        v.encode(f"esc-one-{cp}", f"U+{cp.upper()} alone is escaped", char, f'ESCAPE "{char}"', spec=ENC)
    v.encodes(ENC, [
        ("esc-pass-f8ff", "U+F8FF is private use but not escaped",
         "\uf8ff", '"\uf8ff"', ""),
        ("esc-pass-f000", "U+F000 is not escaped",
         "\uf000", '"\uf000"', ""),
        ("esc-pass-fffd", "U+FFFD is not escaped",
         "\ufffd", '"\ufffd"', ""),
        ("esc-pass-plane15", "plane-15 private use passes through",
         "\U000f0000", '"\U000f0000"', ""),
        ("esc-pass-plane16", "plane-16 private use passes through",
         "\U0010fffd", '"\U0010fffd"', ""),
        ("esc-word-01", "escape after a letter piece",
         "x\ue000", '"x" ESCAPE "\ue000"', "split-semantics"),
        ("esc-word-02", "private use then a capital: one piece",
         "\ue000A", 'CAPITALIZE(1) ESCAPE "\ue000" "a"', "split-semantics terms-definitions"),
        ("esc-word-03", "escape in text after a group",
         "Hi\ue000", 'CAPITALIZE(0) "hi" ESCAPE "\ue000"', "split-semantics"),
        ("esc-word-04", "space then an escaped code point",
         " \ue100", '" " ESCAPE "\ue100"', "split-semantics"),
        ("esc-word-05", "escaped ESCAPE before a letter",
         "\uefffa", 'ESCAPE "\uefff" "a"', ""),
        ("esc-word-06", "two different escaped code points",
         "\ue000\ue001", 'ESCAPE "\ue000" ESCAPE "\ue001"', ""),
        ("esc-word-07", "escaped code point between letters",
         "a\ue100b", '"a" ESCAPE "\ue100" "b"', "split-semantics"),
        ("esc-word-08", "private-use run and a capital are two pieces",
         "\ue000\ue001Z", 'ESCAPE "\ue000" ESCAPE "\ue001" CAPITALIZE(0) "z"', "split-semantics"),
        ("esc-word-09", "escape and a non-escaped private use",
         "\ue000\uf8ff", 'ESCAPE "\ue000" "\uf8ff"', ""),
        ("esc-fold-01", "run of three escaped code points folds",
         "\ue000" * 3, 'REPEAT(0,3) ESCAPE "\ue000"', "encode-fold"),
        ("esc-fold-02", "run of two escaped code points",
         "\ue0ff" * 2, 'ESCAPE "\ue0ff" ESCAPE "\ue0ff"', "encode-fold"),
        ("esc-fold-03", "unit of two escaped code points",
         "\ue000\ue001" * 3, 'MULTIREPEAT(0,2,3) ESCAPE "\ue000" ESCAPE "\ue001"', "encode-fold"),
        ("esc-fold-04", "run of 300 escaped ESCAPEs",
         "\uefff" * 300, 'REPEAT(0,255) REPEAT(1,45) ESCAPE "\uefff" ESCAPE "\uefff"', "encode-fold"),
        ("esc-fold-05", "run of non-escaped private use",
         "\uf8ff" * 4, 'REPEAT(0,4) "\uf8ff"', "encode-fold"),
    ])

    # Decoding: ESCAPE and the code point after it are one slot of text.
    v.decodes(DEC, [
        ("esc-dec-01", "escape of an ordinary letter",
         'ESCAPE "a"', "a", False, ""),
        ("esc-dec-02", "escaped opcode is text, not a group",
         '"x" ESCAPE "\ue100" "y"', "x\ue100y", True, "decode-groups"),
        ("esc-dec-03", "escaped slot counts as one slot",
         'CAPITALIZE(1) ESCAPE "\ue000" "a"', "\ue000A", True, "terms-definitions"),
        ("esc-dec-04", "escape of an escape",
         'ESCAPE "\uefff"', "\uefff", True, ""),
        ("esc-dec-05", "escaped argument between groups",
         'CAPITALIZE(0) "a" ESCAPE "\ue005" CAPITALIZE(0) "b"', "A\ue005B", False, "decode-groups"),
        ("esc-dec-06", "escaped code point in text0",
         'ESCAPE "\ue0ff" "z"', "\ue0ffz", True, ""),
        ("esc-dec-07", "escape of a supplementary character",
         'ESCAPE "\U0001f600"', "\U0001f600", False, ""),
        ("esc-dec-08", "REPEAT of an escaped slot inside a longer text",
         'REPEAT(1,3) "a" ESCAPE "\ue001" "b"', "a\ue001\ue001\ue001b", False, "decode-repeats"),
        ("esc-dec-09", "private use outside the range is plain text",
         '"\uf8ff\U000f0000"', "\uf8ff\U000f0000", True, ""),
    ])
