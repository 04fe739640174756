"""The fold option (spec 6.1), profiles (6.6), and pieces and pre-tokens under them (6.5, 9).

Expected values are derived by hand: under fold="none" every code point of a piece is one slot;
under fold="no-whitespace" no run of a W code point (3.2) and no unit made only of W code points
is folded, and everything else folds as under "all".
"""

AREA = "profiles"
TITLE = "Profiles and the fold option"

FOLD = ["encode", "encode-fold", "encode-profiles"]
PROF = ["encode", "encode-profiles"]
COMPACT = {"profile": "compact"}
NONE = {"fold": "none"}
NOWS = {"fold": "no-whitespace"}


def declare(v):
    # The rows of the tables (vectorlib's Collector.encodes and decodes):
    #   encode: id, description, input, expected stream, further clauses

    # fold="none"
    v.encodes(FOLD, [
        ("fold-none-01", "a run stays literal",
         "aaa", '"aaa"', "", {"options": NONE}),
        ("fold-none-02", "spaces stay literal",
         "    ", '"    "', "", {"options": NONE}),
        ("fold-none-03", "a repeated unit stays literal",
         "abcabcabc", '"abcabcabc"', "", {"options": NONE}),
        ("fold-none-04", "compact does not fold hashes",
         "######", '"######"', "", {"options": COMPACT}),
        ("fold-none-05", "each copy gets its own instructions",
         "\u00c9\u00c9\u00c9", 'ACUTE(0) ACUTE(1) ACUTE(2) CAPITALIZE(0) CAPITALIZE(1) CAPITALIZE(2) "eee"',
         "encode-marks-case", {"options": NONE}),
        ("fold-none-06", "newlines stay literal under compact",
         "\n\n\n", '"\\n\\n\\n"', "", {"options": COMPACT}),
        ("fold-none-07", "a run of 300 is 300 literal slots",
         "a" * 300, '"a"*300', "", {"options": COMPACT}),
        ("fold-none-08", "an escaped run is literal escapes",
         "\ue000\ue000\ue000", 'ESCAPE "\ue000" ESCAPE "\ue000" ESCAPE "\ue000"', "encode-escape", {"options": COMPACT}),
        ("fold-none-09", "slot numbers count every copy",
         "aaaB", 'CAPITALIZE(3) "aaab"', "encode-marks-case", {"options": NONE}),
        # fold="no-whitespace"
        ("fold-nows-01", "a run of spaces stays literal",
         "    ", '"    "', "", {"options": NOWS}),
        ("fold-nows-02", "a run of newlines stays literal",
         "\n\n\n\n", '"\\n\\n\\n\\n"', "", {"options": NOWS}),
        ("fold-nows-03", "hashes still fold",
         "######", 'REPEAT(0,6) "#"', "", {"options": NOWS}),
        ("fold-nows-04", "letters still fold",
         "aaa", 'REPEAT(0,3) "a"', "", {"options": NOWS}),
        ("fold-nows-05", "a run after a space still folds",
         " ===", 'REPEAT(1,3) " ="', "", {"options": NOWS}),
        ("fold-nows-06", "tabs stay literal",
         "\t\t\t\t", '"\t\t\t\t"', "", {"options": NOWS}),
        ("fold-nows-07", "ideographic spaces are whitespace",
         "\u3000\u3000\u3000", '"\u3000\u3000\u3000"', "chardata-classes", {"options": NOWS}),
        ("fold-nows-08", "no-break spaces are whitespace",
         "\u00a0\u00a0\u00a0", '"\u00a0\u00a0\u00a0"', "chardata-classes", {"options": NOWS}),
        ("fold-nows-09", "U+001C is not whitespace and folds",
         "\x1c\x1c\x1c", 'REPEAT(0,3) "\x1c"', "chardata-classes", {"options": NOWS}),
        ("fold-nows-10", "a whitespace unit is skipped",
         "\n \n \n \n", '"\\n \\n \\n \\n"', "", {"options": NOWS}),
        ("fold-nows-11", "indentation literal, case as in paper",
         "    Hello", '"   " CAPITALIZE(1) " hello"', "split-semantics", {"options": NOWS}),
        ("fold-nows-12", "compact with no-whitespace folds hashes",
         "    ####", '"   " REPEAT(1,4) " #"', "split-semantics", {"options": {"profile": "compact", "fold": "no-whitespace"}}),
        ("fold-all-01", "fold all folds a whitespace unit",
         "\n \n \n \n", 'MULTIREPEAT(0,2,3) "\\n \\n"', "", {"options": {"fold": "all"}}),
    ])

    # Profiles.
    v.encodes(PROF, [
        ("prof-01", "a text under profile paper",
         "Hello HELLO    !!!", 'CAPITALIZE(0) "hello" CAPITALIZE(1) CAPITALIZE(2) CAPITALIZE(3) CAPITALIZE(4) '
                               'CAPITALIZE(5) " hello" REPEAT(0,3) " " REPEAT(1,3) " !"',
         "split-semantics", {"options": {"profile": "paper"}}),
        ("prof-02", "the same text under profile compact",
         "Hello HELLO    !!!", 'CAPITALIZE(0) "hello" UPPERCASE(0,6) " hello" "   " " !!!"', "split-semantics", {"options": COMPACT}),
        ("prof-03", "compact with fold all",
         "AAA", 'REPEAT(0,3) CAPITALIZE(0) "a"', "encode-fold", {"options": {"profile": "compact", "fold": "all"}}),
        ("prof-04", "compact under the paper splitter",
         "HTTP2", 'UPPERCASE(0,4) "http" "2"', "split-patterns", {"options": {"profile": "compact", "splitter": "paper"}}),
        ("prof-05", "without NFC a combining mark starts a piece",
         "E\u0301COLE", 'CAPITALIZE(0) "e" UPPERCASE(0,5) "\u0301cole"',
         "normalize-modes split-semantics", {"options": {"profile": "compact", "normalize": None}}),
        ("prof-06", "compact with NFC",
         "E\u0301COLE", 'ACUTE(0) UPPERCASE(0,5) "ecole"', "normalize-nfc", {"options": COMPACT, "decoded": "\u00c9COLE"}),
    ])

    # pieces under compact.
    P = ["encode-pieces", "encode-profiles"]
    v.pieces("prof-pieces-01", "one UPPERCASE piece", "HTTPServer",
             [("HTTPServer", 0, 10, "UPPERCASE(0,5)", '"httpserver"', list(range(10)))],
             spec=P, options=COMPACT)
    v.pieces("prof-pieces-02", "one slot per code point", "aaa",
             [("aaa", 0, 3, "", '"aaa"', [0, 1, 2])], spec=P + ["encode-fold"], options=COMPACT)
    v.pieces("prof-pieces-03", "two pieces, two case spellings", "Ab CD",
             [("Ab", 0, 2, "CAPITALIZE(0)", '"ab"', [0, 1]),
              (" CD", 2, 5, "UPPERCASE(0,3)", '" cd"', [0, 1, 2])], spec=P, options=COMPACT)
    v.pieces("prof-pieces-04", "an NFC span in an UPPERCASE piece", "E\u0301COLE",
             [("\u00c9COLE", 0, 6, "ACUTE(0) UPPERCASE(0,5)", '"ecole"')],
             spec=P + ["normalize-offsets"], options=COMPACT)
    v.pieces("prof-pieces-05", "no-whitespace pieces", "\n\n\n####",
             [("\n\n\n", 0, 3, "", '"\\n\\n\\n"', [0, 1, 2]),
              ("####", 3, 7, "REPEAT(0,4)", '"#"', [0])], spec=P + ["encode-fold"], options=NOWS)

    # pretokens under compact.
    T = ["pretokens-split", "encode-profiles"]
    v.pretokens("prof-pre-01", "UPPERCASE is one pre-token", "MAX_SIZE",
                ["UPPERCASE(0,3)", '"max"', "UPPERCASE(0,5)", '"_size"'], spec=T, options=COMPACT)
    v.pretokens("prof-pre-02", "compact, operators joined", "MAX_SIZE",
                ['UPPERCASE(0,3) "max"', 'UPPERCASE(0,5) "_size"'], spec=["pretokens-joined", "encode-profiles"],
                options={"profile": "compact", "split_operators": False})
    v.pretokens("prof-pre-03", "compact keeps indentation literal", "    return X",
                ['"   "', '" return"', "CAPITALIZE(1)", '" x"'], spec=T, options=COMPACT)
    v.pretokens("prof-pre-04", "paper folds the indentation", "    return X",
                ["REPEAT(0,3)", '" "', '" return"', "CAPITALIZE(1)", '" x"'], spec=T,
                options={"profile": "paper"})
    v.pretokens("prof-pre-05", "a mark and a range", "\u00c9COLE",
                ["ACUTE(0)", "UPPERCASE(0,5)", '"ecole"'], spec=T, options=COMPACT)
    v.pretokens("prof-pre-06", "range case with folding", "HAHAHA",
                ["MULTIREPEAT(0,2,3)", "UPPERCASE(0,2)", '"ha"'], spec=T, options={"case": "range"})
    v.pretokens("prof-pre-07", "a piece without instructions", "x = 1",
                ['"x"', '" ="', '" "', '"1"'], spec=T, options=COMPACT)
