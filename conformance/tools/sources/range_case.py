"""UPPERCASE (spec 1.1.0) and the range rule of case="range" (profile compact).

Every expected stream below is derived by hand from spec 6.2 (the range rule), 6.4 (the case
family by ascending start slot), 7.4 and 7.5 (decoding): a *run* is a maximal sequence of slots
among 0..254, each a capital or caseless; a run with at least 2 capitals is UPPERCASE(first,
last + 1); any other capital is CAPITALIZE.
"""

AREA = "range-case"
TITLE = "UPPERCASE and the range rule (case=\"range\", profile compact)"

ENC = ["encode", "encode-marks-case", "encode-profiles"]
DEC = ["decode-procedure", "decode-positions", "decode-case"]
COMPACT = {"profile": "compact"}
W = '"abcdefghi"*28'  # 252 lowercase letters, slots 0..251


def declare(v):
    # The rows of the tables (vectorlib's Collector.encodes and decodes):
    #   encode: id, description, input, expected stream, further clauses
    #   decode: id, description, stream, text, roundtrip, further clauses

    # Runs of capitals.
    v.encodes(ENC, [
        ("upper-run-01", "an all-caps word is one UPPERCASE",
         "HELLO", 'UPPERCASE(0,5) "hello"', ""),
        ("upper-run-02", "two capitals are the shortest run",
         "AB", 'UPPERCASE(0,2) "ab"', ""),
        ("upper-run-03", "one capital keeps CAPITALIZE",
         "A", 'CAPITALIZE(0) "a"', ""),
        ("upper-run-04", "a run before lower case ends there",
         "HTTPServer", 'UPPERCASE(0,5) "httpserver"', ""),
        ("upper-run-05", "a run inside a camelCase word",
         "getHTTPResponse", 'UPPERCASE(3,8) "gethttpresponse"', ""),
        ("upper-run-06", "two runs split by a lower-case letter",
         "ABcDE", 'UPPERCASE(0,2) UPPERCASE(3,5) "abcde"', "encode-serialize"),
        ("upper-run-07", "a run and a lone capital",
         "ABcD", 'UPPERCASE(0,2) CAPITALIZE(3) "abcd"', "encode-serialize"),
        ("upper-run-08", "CAPITALIZE then UPPERCASE by start slot",
         "McDONALD", 'CAPITALIZE(0) UPPERCASE(2,8) "mcdonald"', "encode-serialize"),
        ("upper-run-09", "a run after a lower-case first letter",
         "iPHONE", 'UPPERCASE(1,6) "iphone"', ""),
        ("upper-run-10", "camelCase capitals are lone capitals",
         "camelCaseName", 'CAPITALIZE(5) CAPITALIZE(9) "camelcasename"', ""),
        ("upper-run-11", "each all-caps piece has its own range",
         "HELLO WORLD", 'UPPERCASE(0,5) "hello" UPPERCASE(0,6) " world"', "split-semantics"),
        ("upper-run-12", "title case stays CAPITALIZE",
         "Hello World", 'CAPITALIZE(0) "hello" CAPITALIZE(1) " world"', "split-semantics"),
        ("upper-run-13", "Cyrillic capitals form a run",
         "\u041c\u0418\u0420", 'UPPERCASE(0,3) "\u043c\u0438\u0440"', "chardata-case"),
        ("upper-run-14", "capitals outside the BMP form a run",
         "\U00010400\U00010401", 'UPPERCASE(0,2) "\U00010428\U00010429"', "chardata-case"),
        # Caseless slots at the edges of a run are inside the range.
        ("upper-edge-01", "a leading space is inside the range",
         " UNICEF", 'UPPERCASE(0,7) " unicef"', ""),
        ("upper-edge-02", "a punctuation prefix is inside the range",
         "(FOO)", 'UPPERCASE(0,4) "(foo" ")"', "split-semantics"),
        ("upper-edge-03", "an underscore prefix is inside the range",
         "_SIZE", 'UPPERCASE(0,5) "_size"', ""),
        ("upper-edge-04", "MAX_SIZE is two pieces, two ranges",
         "MAX_SIZE", 'UPPERCASE(0,3) "max" UPPERCASE(0,5) "_size"', "split-semantics"),
        ("upper-edge-05", "a caseless edge does not make a run of one",
         " A", 'CAPITALIZE(1) " a"', ""),
        ("upper-edge-06", "a prefix before a title-case word",
         "(Foo)", 'CAPITALIZE(1) "(foo" ")"', "split-semantics"),
        ("upper-edge-07", "caseless letters before the capitals",
         "\u6f22\u5b57AB", 'UPPERCASE(0,4) "\u6f22\u5b57ab"', ""),
        ("upper-edge-08", "caseless letters after the capitals",
         "AB\u6f22\u5b57", 'UPPERCASE(0,4) "ab\u6f22\u5b57"', ""),
        ("upper-edge-09", "a caseless letter after lower case is no run",
         "ABcd\u6f22", 'UPPERCASE(0,2) "abcd\u6f22"', ""),
        # Caseless slots between capitals.
        ("upper-gap-01", "sharp s sits inside a run",
         "STRA\u00dfE", 'UPPERCASE(0,6) "stra\u00dfe"', "chardata-case"),
        ("upper-gap-02", "a CJK letter sits inside a run",
         "A\u6f22B", 'UPPERCASE(0,3) "a\u6f22b"', ""),
        ("upper-gap-03", "dotless i sits inside a run",
         "X\u0131Y", 'UPPERCASE(0,3) "x\u0131y"', "chardata-case"),
        ("upper-gap-04", "a titlecase digraph and one capital",
         "\u01c5A", 'CAPITALIZE(1) "\u01c5a"', "chardata-case"),
        ("upper-gap-05", "a titlecase digraph before two capitals",
         "\u01c5AB", 'UPPERCASE(0,3) "\u01c5ab"', "chardata-case"),
        ("upper-gap-06", "an escaped slot is caseless",
         "\ue000AB", 'UPPERCASE(0,3) ESCAPE "\ue000" "ab"', "encode-escape"),
        ("upper-gap-07", "an escape does not join two pieces",
         "A\ue000B", 'CAPITALIZE(0) "a" CAPITALIZE(1) ESCAPE "\ue000" "b"', "encode-escape split-semantics"),
        ("upper-gap-08", "capital sharp s is caseless",
         "\u1e9eA", 'CAPITALIZE(1) "\u1e9ea"', "chardata-case"),
        # Digits and underscores: the splitter cuts them off letters.
        ("upper-digit-01", "digits are their own piece",
         "ABC123", 'UPPERCASE(0,3) "abc" "123"', "split-semantics"),
        ("upper-digit-02", "capitals between digits are lone",
         "A1B2", 'CAPITALIZE(0) "a" "1" CAPITALIZE(0) "b" "2"', "split-semantics"),
        ("upper-digit-03", "a digit between two all-caps pieces",
         "HTTP2_SERVER", 'UPPERCASE(0,4) "http" "2" UPPERCASE(0,7) "_server"', "split-semantics"),
        ("upper-digit-04", "double underscores are their own pieces",
         "__INIT__", '"__" UPPERCASE(0,4) "init" "__"', "split-semantics"),
        # Marks come off first; a capital with a mark is a capital.
        ("upper-mark-01", "an accented capital starts a run",
         "\u00c9COLE", 'ACUTE(0) UPPERCASE(0,5) "ecole"', "encode-serialize"),
        ("upper-mark-02", "dotted capital I starts a run",
         "\u0130STANBUL", 'DOT_ABOVE(0) UPPERCASE(0,8) "istanbul"', "chardata-decomp"),
        ("upper-mark-03", "two accented capitals",
         "\u00c0\u00c9", 'GRAVE(0) ACUTE(1) UPPERCASE(0,2) "ae"', "encode-serialize"),
        ("upper-mark-04", "stroke and acute capitals",
         "\u0141\u00d3D\u0179", 'ACUTE(1) ACUTE(3) UPPERCASE(0,4) "\u0142odz"', "encode-serialize"),
        ("upper-mark-05", "a lone accented capital",
         "\u00c9lan", 'ACUTE(0) CAPITALIZE(0) "elan"', ""),
        ("upper-mark-06", "Greek capitals with tonos",
         "\u0386\u039b\u03a6\u0391", 'ACUTE(0) UPPERCASE(0,4) "\u03b1\u03bb\u03c6\u03b1"', ""),
        ("upper-mark-07", "dotted capital I inside a run",
         "D\u0130K", 'DOT_ABOVE(1) UPPERCASE(0,3) "dik"', ""),
        ("upper-mark-08", "a capital with a mark outside the 13",
         "VI\u1ec6T", 'UPPERCASE(0,4) "vi\u1ec7t"', "chardata-decomp"),
        # Slots past 254: an UPPERCASE ends at 255 at most; slot 255 gets CAPITALIZE; 256+ literal.
        ("upper-past-01", "a capital at slot 255 is CAPITALIZE",
         "abcdefghi" * 28 + "abcXY", f'CAPITALIZE(255) {W} "abcxY"', "terms-definitions"),
        ("upper-past-02", "a run cut at 254 has one capital",
         "abcdefghi" * 28 + "abXYZ", f'CAPITALIZE(254) CAPITALIZE(255) {W} "abxyZ"', "terms-definitions"),
        ("upper-past-03", "a run may end at 255",
         "abcdefghi" * 28 + "aXYZ", f'UPPERCASE(253,255) CAPITALIZE(255) {W} "axyz"', "terms-definitions"),
        ("upper-past-04", "range, slot 255, then a literal capital",
         "abcdefghi" * 28 + "XYZWV", f'UPPERCASE(252,255) CAPITALIZE(255) {W} "xyzwV"', "terms-definitions"),
        ("upper-past-05", "an all-caps word of 300 letters",
         "ABCDEFGHI" * 33 + "ABC", f'UPPERCASE(0,255) CAPITALIZE(255) {W} "abcd" "EFGHI" "ABCDEFGHI"*4 "ABC"', "terms-definitions"),
        # The profile's options and explicit ones.
        ("upper-prof-01", "profile paper keeps one CAPITALIZE per slot",
         "HELLO", 'CAPITALIZE(0) CAPITALIZE(1) CAPITALIZE(2) CAPITALIZE(3) CAPITALIZE(4) "hello"', "", {"options": {"profile": "paper"}}),
        ("upper-prof-02", "case range under profile paper",
         "HELLO", 'UPPERCASE(0,5) "hello"', "", {"options": {"profile": "paper", "case": "range"}}),
        ("upper-prof-03", "compact with case capitalize",
         "HELLO", 'CAPITALIZE(0) CAPITALIZE(1) CAPITALIZE(2) CAPITALIZE(3) CAPITALIZE(4) "hello"',
         "", {"options": {"profile": "compact", "case": "capitalize"}}),
        # Range case with folding: positions are slots after folding.
        ("upper-fold-01", "a repeated unit of capitals",
         "HAHAHA", 'MULTIREPEAT(0,2,3) UPPERCASE(0,2) "ha"', "encode-fold", {"options": {"case": "range"}}),
        ("upper-fold-02", "a folded run is one capital slot",
         "\u00c9\u00c9\u00c9", 'REPEAT(0,3) ACUTE(0) CAPITALIZE(0) "e"', "encode-fold", {"options": {"case": "range"}}),
        ("upper-fold-03", "a folded run and a capital form a run",
         "AAAB", 'REPEAT(0,3) UPPERCASE(0,2) "ab"', "encode-fold", {"options": {"case": "range"}}),
        ("upper-fold-04", "compact: three accented capitals",
         "\u00c9\u00c9\u00c9", 'ACUTE(0) ACUTE(1) ACUTE(2) UPPERCASE(0,3) "eee"', "encode-fold"),
        ("upper-fold-05", "compact: a run of capitals is not folded",
         "AAA", 'UPPERCASE(0,3) "aaa"', "encode-fold"),
    ], options=COMPACT)

    # Decoding (7.4, 7.5): named slots with a lower member take the upper member.
    v.decodes(DEC, [
        ("upper-dec-01", "UPPERCASE over a word",
         'UPPERCASE(0,5) "hello"', "HELLO", True, "", {"options": COMPACT}),
        ("upper-dec-02", "caseless slots stay unchanged",
         'UPPERCASE(0,4) "a1\u00df,"', "A1\u00df,", False, ""),
        ("upper-dec-03", "an upper-case slot stays unchanged",
         'UPPERCASE(0,3) "aAb"', "AAB", False, ""),
        ("upper-dec-04", "CAPITALIZE inside an UPPERCASE range",
         'CAPITALIZE(1) UPPERCASE(0,3) "abc"', "ABC", False, ""),
        ("upper-dec-05", "two overlapping ranges",
         'UPPERCASE(0,2) UPPERCASE(1,3) "abcd"', "ABCd", False, ""),
        ("upper-dec-06", "the same range twice",
         'UPPERCASE(0,3) UPPERCASE(0,3) "abc"', "ABC", False, ""),
        ("upper-dec-07", "a range of one slot",
         'UPPERCASE(1,2) "ab"', "aB", False, ""),
        ("upper-dec-08", "a range over the text of two pieces",
         'UPPERCASE(0,8) "new york"', "NEW YORK", False, "decode-groups"),
        ("upper-dec-09", "case before marks under UPPERCASE",
         'DOT_ABOVE(0) UPPERCASE(0,2) "is"', "\u0130S", True, "decode-marks", {"options": COMPACT}),
        ("upper-dec-10", "marks after UPPERCASE in the stream",
         'UPPERCASE(0,2) ACUTE(0) "ea"', "\u00c9A", False, "decode-marks"),
        ("upper-dec-11", "escaped letters in a range",
         'UPPERCASE(0,2) ESCAPE "a" ESCAPE "b"', "AB", False, "decode-groups"),
        ("upper-dec-12", "an escaped private-use slot in a range",
         'UPPERCASE(0,1) ESCAPE "\ue000"', "\ue000", False, "decode-groups"),
        ("upper-dec-13", "a range names slots before repeats",
         'REPEAT(0,3) UPPERCASE(0,2) "ab"', "AAAB", True, "decode-repeats", {"options": {"case": "range"}}),
        ("upper-dec-14", "a repeated unit with a one-slot range",
         'MULTIREPEAT(0,2,3) UPPERCASE(0,1) "ha"', "HaHaHa", False, "decode-repeats"),
        ("upper-dec-15", "dz digraph gives DZ, titlecase Dz unchanged",
         'UPPERCASE(0,2) "\u01c6\u01c5"', "\u01c4\u01c5", False, "chardata-case"),
        ("upper-dec-16", "text before the first group is literal",
         '"abc" UPPERCASE(0,1) "d"', "abcD", False, "decode-groups"),
        ("upper-dec-17", "final sigma has no pair",
         'UPPERCASE(0,2) "\u03b1\u03c2"', "\u0391\u03c2", False, "chardata-case"),
    ])

    # Errors (7.4, 8.1, 8.2).
    E = DEC + ["errors-kinds"]
    v.error("upper-err-01", "UPPERCASE with end equal to start", "decode", 'UPPERCASE(2,2) "abc"',
            "bad-range", 0, "abc", spec=E)
    v.error("upper-err-02", "UPPERCASE with end before start", "decode", 'UPPERCASE(3,1) "abc"',
            "bad-range", 0, "abc", spec=E)
    v.error("upper-err-03", "UPPERCASE ending one past the slots", "decode", 'UPPERCASE(0,4) "abc"',
            "position-out-of-range", 0, "abc", spec=E)
    v.error("upper-err-04", "UPPERCASE starting at the slot count", "decode", 'UPPERCASE(3,4) "abc"',
            "position-out-of-range", 0, "abc", spec=E)
    v.error("upper-err-05", "bad-range is checked before the slot count", "decode",
            'UPPERCASE(9,4) "abc"', "bad-range", 0, "abc", spec=E + ["errors-strict"])
    v.error("upper-err-06", "a bad range after a good CAPITALIZE", "decode",
            'CAPITALIZE(0) UPPERCASE(2,1) "ab"', "bad-range", 2, "Ab", spec=E)
    v.error("upper-err-07", "UPPERCASE positions ignore repeat expansion", "decode",
            'UPPERCASE(0,3) REPEAT(0,3) "ab"', "position-out-of-range", 0, "aaab",
            spec=E + ["decode-repeats"])
    v.error("upper-err-08", "UPPERCASE with one argument", "decode", 'OPCODE(UPPERCASE) ARG(0) "abc"',
            "truncated-instruction", 0, "abc", spec=["decode-parse", "errors-kinds"])
    v.error("upper-err-09", "UPPERCASE with no text after it", "decode", '"ab" UPPERCASE(0,1)',
            "dangling-group", 2, "ab", spec=["decode-dangling", "errors-kinds"])
    v.error("upper-err-10", "a third argument is stray", "decode", 'UPPERCASE(0,2) ARG(5) "ab"',
            "stray-argument", 3, "AB", spec=["decode-parse", "errors-kinds"])
    v.error("upper-err-11", "the second group has fewer slots", "decode",
            'UPPERCASE(0,2) "ab" UPPERCASE(0,2) "c"', "position-out-of-range", 5, "ABc", spec=E)
    v.error("upper-err-12", "U+E111 is still unassigned", "decode", 'U+E111 "a"',
            "unknown-opcode", 0, "a", spec=["decode-parse", "extensions"])
