"""Folding: REPEAT and MULTIREPEAT on encode, repeat expansion on decode."""

AREA = "repeat"
TITLE = "Runs folded by REPEAT and MULTIREPEAT"

ENC = ["encode", "encode-fold"]
DEC = ["decode-procedure", "decode-repeats"]


def declare(v):
    # Thresholds: a run of 2 stays literal, 3 folds.
    v.encode("rep-run-01", "run of two stays literal", "aa", '"aa"', spec=ENC)
    v.encode("rep-run-02", "run of three folds", "aaa", 'REPEAT(0,3) "a"', spec=ENC)
    v.encode("rep-run-03", "two exclamation marks stay literal", "!!", '"!!"', spec=ENC)
    v.encode("rep-run-04", "three exclamation marks fold", "!!!", 'REPEAT(0,3) "!"', spec=ENC)
    v.encode("rep-run-05", "ellipsis of three dots folds", "...", 'REPEAT(0,3) "."', spec=ENC)
    v.encode("rep-run-06", "run inside a word", "baaad", 'REPEAT(1,3) "bad"', spec=ENC)
    v.encode("rep-run-07", "run at the end of a word", "hmmm", 'REPEAT(1,3) "hm"', spec=ENC)
    v.encode("rep-run-08", "ten copies of one letter", "z" * 10, 'REPEAT(0,10) "z"', spec=ENC)
    v.encode("rep-run-09", "word then a run of punctuation", "hello!!!",
             '"hello" REPEAT(0,3) "!"', spec=ENC + ["split-semantics"])
    v.encode("rep-run-10", "run of two then run of three", "aabbb", 'REPEAT(2,3) "aab"', spec=ENC)
    v.encode("rep-run-11", "one capital then lowercase copies: no run", "Aaa",
             'CAPITALIZE(0) "aaa"', spec=ENC + ["encode-marks-case"])
    v.encode("rep-run-12", "run of capitals: REPEAT then CAPITALIZE", "AAA",
             'REPEAT(0,3) CAPITALIZE(0) "a"', spec=ENC + ["encode-marks-case", "encode-serialize"])
    v.encode("rep-run-13", "run of accented letters", "\u00e9\u00e9\u00e9",
             'REPEAT(0,3) ACUTE(0) "e"', spec=ENC + ["encode-marks-case", "encode-serialize"])
    v.encode("rep-run-14", "run with capital first letter", "Hmmm",
             'REPEAT(1,3) CAPITALIZE(0) "hm"', spec=ENC + ["encode-serialize"])
    v.encode("rep-run-15", "eight spaces then a word", "        x",
             'REPEAT(0,7) " " " x"', spec=ENC + ["split-semantics"])
    v.encode("rep-run-16", "run of newlines", "a\n\n\n\nb",
             '"a" REPEAT(0,4) "\\n" "b"', spec=ENC + ["split-semantics"])
    v.encode("rep-run-17", "run of a supplementary character", "\U0001f600" * 3,
             'REPEAT(0,3) "\U0001f600"', spec=ENC)
    v.encode("rep-run-18", "runs separated by one letter", "aaabaaa",
             'REPEAT(0,3) REPEAT(2,3) "aba"', spec=ENC)
    v.encode("rep-run-19", "run of 255 fits one REPEAT", "a" * 255, 'REPEAT(0,255) "a"', spec=ENC)
    v.encode("rep-run-20", "run of 254", "a" * 254, 'REPEAT(0,254) "a"', spec=ENC)

    # Runs over 255 are cut into chunks of at most 255.
    v.encode("rep-long-01", "run of 256: 255 plus a literal", "a" * 256, 'REPEAT(0,255) "aa"', spec=ENC)
    v.encode("rep-long-02", "run of 257: 255 plus two literals", "a" * 257,
             'REPEAT(0,255) "aaa"', spec=ENC)
    v.encode("rep-long-03", "run of 258: 255 plus a chunk of 3", "a" * 258,
             'REPEAT(0,255) REPEAT(1,3) "aa"', spec=ENC)
    v.encode("rep-long-04", "run of 510: two full chunks", "a" * 510,
             'REPEAT(0,255) REPEAT(1,255) "aa"', spec=ENC)
    v.encode("rep-long-05", "run of 600: 255, 255 and 90", "a" * 600,
             'REPEAT(0,255) REPEAT(1,255) REPEAT(2,90) "aaa"', spec=ENC)
    v.encode("rep-long-06", "run of 511: two chunks and a literal", "a" * 511,
             'REPEAT(0,255) REPEAT(1,255) "aaa"', spec=ENC)
    v.encode("rep-long-07", "300 spaces at the end of the text", " " * 300,
             'REPEAT(0,255) REPEAT(1,45) "  "', spec=ENC + ["split-semantics"])
    v.encode("rep-long-08", "run of 256 capitals", "A" * 256,
             'REPEAT(0,255) CAPITALIZE(0) CAPITALIZE(1) "aa"', spec=ENC + ["encode-serialize"])
    v.encode("rep-long-09", "run of 1000 hashes", "#" * 1000,
             'REPEAT(0,255) REPEAT(1,255) REPEAT(2,255) REPEAT(3,235) "####"', spec=ENC)
    v.encode("rep-long-10", "run of 765 is three full chunks", "-" * 765,
             'REPEAT(0,255) REPEAT(1,255) REPEAT(2,255) "---"', spec=ENC)

    # Several repeats in one piece.
    v.encode("rep-multi-01", "two runs in one piece", "aaaabbbb", 'REPEAT(0,4) REPEAT(1,4) "ab"', spec=ENC)
    v.encode("rep-multi-02", "three runs in one piece", "aaabbbccc",
             'REPEAT(0,3) REPEAT(1,3) REPEAT(2,3) "abc"', spec=ENC)
    v.encode("rep-multi-03", "REPEAT, MULTIREPEAT, REPEAT in one piece", "xxxabababyyy",
             'REPEAT(0,3) MULTIREPEAT(1,3,3) REPEAT(3,3) "xaby"', spec=ENC + ["encode-serialize"])
    v.encode("rep-multi-04", "runs between literals", "ooohhh no",
             'REPEAT(0,3) REPEAT(1,3) "oh" " no"', spec=ENC)
    v.encode("rep-multi-05", "a run takes precedence over a unit", "aaabaaabaaab",
             'REPEAT(0,3) REPEAT(2,3) REPEAT(4,3) "ababab"', spec=ENC)

    # MULTIREPEAT: unit lengths 2..8, shortest first, at least 3 copies.
    v.encode("rep-unit-01", "unit of two, three copies", "ababab", 'MULTIREPEAT(0,2,3) "ab"', spec=ENC)
    v.encode("rep-unit-02", "two copies of a unit stay literal", "abab", '"abab"', spec=ENC)
    v.encode("rep-unit-03", "laughter folds", "hahaha", 'MULTIREPEAT(0,2,3) "ha"', spec=ENC)
    v.encode("rep-unit-04", "capital breaks the copies (Hahaha)", "Hahaha",
             'CAPITALIZE(0) "hahaha"', spec=ENC + ["encode-marks-case"])
    v.encode("rep-unit-05", "Abcabcabc does not fold", "Abcabcabc",
             'CAPITALIZE(0) "abcabcabc"', spec=ENC + ["encode-marks-case"])
    v.encode("rep-unit-06", "AbcAbcAbc folds with CAPITALIZE in the unit", "AbcAbcAbc",
             'MULTIREPEAT(0,3,3) CAPITALIZE(0) "abc"', spec=ENC + ["encode-marks-case", "encode-serialize"])
    v.encode("rep-unit-07", "unit of four", "abcdabcdabcd", 'MULTIREPEAT(0,4,3) "abcd"', spec=ENC)
    v.encode("rep-unit-08", "unit of eight, the longest", "abcdefgh" * 3,
             'MULTIREPEAT(0,8,3) "abcdefgh"', spec=ENC)
    v.encode("rep-unit-09", "unit of nine is too long", "abcdefghi" * 3,
             '"' + "abcdefghi" * 3 + '"', spec=ENC)
    v.encode("rep-unit-10", "four copies of a unit", "abababab", 'MULTIREPEAT(0,2,4) "ab"', spec=ENC)
    v.encode("rep-unit-11", "longer unit found when the shorter fails", "abaabaaba",
             'MULTIREPEAT(0,3,3) "aba"', spec=ENC)
    v.encode("rep-unit-12", "unit after a literal slot", "xabcabcabc",
             'MULTIREPEAT(1,4,3) "xabc"', spec=ENC)
    v.encode("rep-unit-13", "unit of punctuation", "-=-=-=", 'MULTIREPEAT(0,2,3) "-="', spec=ENC)
    v.encode("rep-unit-14", "unit with an accented letter", "\u00e9x\u00e9x\u00e9x",
             'MULTIREPEAT(0,2,3) ACUTE(0) "ex"', spec=ENC + ["encode-marks-case", "encode-serialize"])
    v.encode("rep-unit-15", "NaNaNa: each unit slot keeps its case", "NaNaNa",
             'MULTIREPEAT(0,2,3) CAPITALIZE(0) "na"', spec=ENC + ["encode-marks-case", "encode-serialize"])
    v.encode("rep-unit-16", "255 copies of a unit", "ab" * 255, 'MULTIREPEAT(0,2,255) "ab"', spec=ENC)
    v.encode("rep-unit-17", "256 copies: capped at 255, rest literal", "ab" * 256,
             'MULTIREPEAT(0,2,255) "abab"', spec=ENC)
    v.encode("rep-unit-18", "258 copies: 255 then 3", "ab" * 258,
             'MULTIREPEAT(0,2,255) MULTIREPEAT(2,4,3) "abab"', spec=ENC)
    v.encode("rep-unit-19", "unit followed by a partial copy", "abcabcabcab",
             'MULTIREPEAT(0,3,3) "abcab"', spec=ENC)
    v.encode("rep-unit-20", "unit of two capitals", "ABABAB",
             'MULTIREPEAT(0,2,3) CAPITALIZE(0) CAPITALIZE(1) "ab"', spec=ENC + ["encode-serialize"])
    v.encode("rep-unit-21", "unit of digits in one llama3 piece", "121",
             '"121"', spec=ENC + ["split-semantics"])
    v.encode("rep-unit-22", "unit containing a run of two", "..!..!..!",
             'MULTIREPEAT(0,3,3) "..!"', spec=ENC)
    v.encode("rep-unit-24", "dashes between spaces are separate pieces", "- - - ",
             '"- - - "', spec=ENC + ["split-semantics"])
    v.encode("rep-unit-23", "unit of a supplementary character pair",
             "\U0001f600\U0001f601" * 3, 'MULTIREPEAT(0,2,3) "\U0001f600\U0001f601"', spec=ENC)

    v.encode("rep-unit-25", "a run of two can start a unit", "aabaabaab",
             'MULTIREPEAT(0,3,3) "aab"', spec=ENC)
    v.encode("rep-unit-26", "a unit may hold a run of three", "abbbabbbabbb",
             'MULTIREPEAT(0,4,3) "abbb"', spec=ENC)
    v.encode("rep-unit-27", "unit with an inner run of two", "abbabbabb",
             'MULTIREPEAT(0,3,3) "abb"', spec=ENC)
    v.encode("rep-unit-28", "two and a half copies stay literal", "ababa", '"ababa"', spec=ENC)
    v.encode("rep-unit-29", "256 copies of a unit of three", "abc" * 256,
             'MULTIREPEAT(0,3,255) "abcabc"', spec=ENC)
    v.encode("rep-unit-30", "unit after a long run", "a" * 300 + "bcbcbc",
             'REPEAT(0,255) REPEAT(1,45) MULTIREPEAT(2,4,3) "aabc"', spec=ENC + ["encode-serialize"])
    v.encode("rep-unit-31", "two different units in one piece", "ababab" + "cdecdecde",
             'MULTIREPEAT(0,2,3) MULTIREPEAT(2,5,3) "abcde"', spec=ENC + ["encode-serialize"])
    v.encode("rep-unit-32", "a unit then a run of its last letter", "abababbbb",
             'MULTIREPEAT(0,2,3) REPEAT(2,3) "abb"', spec=ENC + ["encode-serialize"])
    v.encode("rep-unit-33", "unit of three spaces-free symbols", "<->" * 4,
             'MULTIREPEAT(0,3,4) "<->"', spec=ENC)
    v.encode("rep-unit-34", "a unit whose copies differ in case is two units", "abABab",
             'CAPITALIZE(2) CAPITALIZE(3) "ababab"', spec=ENC + ["encode-marks-case"])
    v.encode("rep-unit-35", "unit of a letter and its accented form", "e\u00e9e\u00e9e\u00e9",
             'MULTIREPEAT(0,2,3) ACUTE(1) "ee"', spec=ENC + ["encode-marks-case"])
    v.encode("rep-run-21", "a run of a letter and its accented form differs", "ee\u00e9",
             'ACUTE(2) "eee"', spec=ENC + ["encode-marks-case"])
    v.encode("rep-run-22", "run of five spaces between words", "x     y",
             '"x" REPEAT(0,4) " " " y"', spec=ENC + ["split-semantics"])
    v.encode("rep-run-23", "run of newlines after a word", "x\n\n\n\n\n",
             '"x" REPEAT(0,5) "\\n"', spec=ENC + ["split-semantics"])
    v.encode("rep-run-24", "run of tabs then a word", "\t\t\t\tx",
             'REPEAT(0,3) "\\t" "\\tx"', spec=ENC + ["split-semantics"])

    # Decoding repeats, canonical and not.
    v.decode("rep-dec-01", "stacked REPEATs compose (observed: 6 newlines)",
             'REPEAT(0,4) REPEAT(0,3) "\\n"', "\n" * 6, spec=DEC, roundtrip=False)
    v.decode("rep-dec-02", "REPEAT with count 1", 'REPEAT(0,1) "a"', "a", spec=DEC, roundtrip=False)
    v.decode("rep-dec-03", "REPEAT with count 2", 'REPEAT(0,2) "a"', "aa", spec=DEC, roundtrip=False)
    v.decode("rep-dec-04", "MULTIREPEAT over one slot", 'MULTIREPEAT(0,1,3) "a"', "aaa",
             spec=DEC, roundtrip=False)
    v.decode("rep-dec-05", "MULTIREPEAT with count 1", 'MULTIREPEAT(0,2,1) "ab"', "ab",
             spec=DEC, roundtrip=False)
    v.decode("rep-dec-06", "repeats apply by descending start",
             'REPEAT(0,2) REPEAT(1,3) "ab"', "aabbb", spec=DEC, roundtrip=False)
    v.decode("rep-dec-07", "equal starts apply in stream order",
             'REPEAT(1,2) REPEAT(1,2) "ab"', "abbb", spec=DEC, roundtrip=False)
    v.decode("rep-dec-08", "overlapping ranges index the list as it stands",
             'MULTIREPEAT(0,2,2) REPEAT(1,3) "ab"', "ababbb", spec=DEC, roundtrip=False)
    v.decode("rep-dec-09", "a range valid only after an earlier expansion",
             'REPEAT(0,3) MULTIREPEAT(0,3,2) "a"', "aaaaaa", spec=DEC, roundtrip=False)
    v.decode("rep-dec-10", "repeat of a capitalized slot", 'REPEAT(0,3) CAPITALIZE(0) "a"', "AAA",
             spec=DEC + ["decode-case"], roundtrip=True)
    v.decode("rep-dec-11", "repeat of an escaped slot", 'REPEAT(0,3) ESCAPE "\ue000"',
             "\ue000" * 3, spec=DEC + ["encode-escape"], roundtrip=True)
    v.decode("rep-dec-12", "repeat in a group spanning two tokens",
             'REPEAT(2,3) "ab" "cd"', "abcccd", spec=DEC + ["decode-groups"], roundtrip=True)
    v.decode("rep-dec-13", "two groups each with a repeat",
             'REPEAT(0,3) "a" REPEAT(0,4) "b"', "aaabbbb", spec=DEC + ["decode-groups"], roundtrip=False)
    v.decode("rep-dec-14", "MULTIREPEAT of a composed slot",
             'MULTIREPEAT(0,2,2) ACUTE(1) "xe"', "x\u00e9x\u00e9", spec=DEC + ["decode-marks"],
             roundtrip=False)
    v.decode("rep-dec-15", "maximal REPEAT arguments", 'REPEAT(255,255) "' + "b" * 256 + '"',
             "b" * 510, spec=DEC, roundtrip=False)
    v.decode("rep-dec-16", "MULTIREPEAT over the last slots of the group",
             'MULTIREPEAT(2,4,3) "xycd"', "xycdcdcd", spec=DEC, roundtrip=True)
    v.decode("rep-dec-17", "repeat range checked after an earlier expansion",
             'MULTIREPEAT(0,2,2) MULTIREPEAT(0,4,2) "ab"', "abababab", spec=DEC, roundtrip=False)
    v.decode("rep-dec-18", "MULTIREPEAT with 255 copies", 'MULTIREPEAT(0,2,255) "ab"', "ab" * 255,
             spec=DEC, roundtrip=True)
    v.decode("rep-dec-19", "a repeat on the last slot of a group spanning tokens",
             'REPEAT(4,3) "ab" " c" "d"', "ab cddd", spec=DEC + ["decode-groups"], roundtrip=False)
    v.decode("rep-dec-20", "two MULTIREPEATs, higher start first",
             'MULTIREPEAT(0,2,2) MULTIREPEAT(2,4,2) "abcd"', "ababcdcd", spec=DEC, roundtrip=False)
    v.decode("rep-dec-21", "REPEAT with count 255 of a composed slot",
             'REPEAT(0,255) ACUTE(0) "e"', "\u00e9" * 255, spec=DEC + ["decode-marks"], roundtrip=True)

