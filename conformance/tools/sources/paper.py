"""The paper's five worked examples (format-v1 section 1), byte for byte."""

AREA = "paper-examples"
TITLE = "The Functionalizer paper's five worked examples"


def declare(v):
    v.encode("paper-01", "Hello: one CAPITALIZE", "Hello",
             'CAPITALIZE(0) "hello"', spec=["encode", "encode-marks-case"])
    v.encode("paper-02", "Hello with acute: ACUTE then CAPITALIZE", "H\u00e9llo",
             'ACUTE(1) CAPITALIZE(0) "hello"', spec=["encode", "encode-marks-case", "encode-serialize"])
    v.encode("paper-03", "six hashes fold to one REPEAT", "######",
             'REPEAT(0,6) "#"', spec=["encode", "encode-fold"])
    v.encode("paper-04", "four spaces fold to one REPEAT", "    ",
             'REPEAT(0,4) " "', spec=["encode", "encode-fold"])
    v.encode("paper-05", "abcabcabc folds to one MULTIREPEAT", "abcabcabc",
             'MULTIREPEAT(0,3,3) "abc"', spec=["encode", "encode-fold"])
