"""The two splitters (llama3, paper) on raw text, and their effect on encoding."""

AREA = "split"
TITLE = "Splitters: llama3 and paper"

SPL = ["split-semantics", "split-patterns"]
PAPER = {"splitter": "paper"}
SPP = ["split-semantics", "split-patterns"]


def declare(v):
    s = v.split
    s("split-01", "word then space-prefixed word", "Hello world", ["Hello", " world"], spec=SPL)
    s("split-02", "contraction 'm", "I'm here", ["I", "'m", " here"], spec=SPL)
    s("split-03", "uppercase contraction 'T", "DON'T", ["DON", "'T"], spec=SPL)
    s("split-04", "mixed-case contraction 'Ll", "we'Ll", ["we", "'Ll"], spec=SPL)
    s("split-05", "contraction 're", "they're", ["they", "'re"], spec=SPL)
    s("split-06", "contraction 've", "I've", ["I", "'ve"], spec=SPL)
    s("split-07", "contraction 'd", "he'd", ["he", "'d"], spec=SPL)
    s("split-08", "contraction 's then letters", "it'sy", ["it", "'s", "y"], spec=SPL)
    s("split-09", "long s matches the s contraction", "it'\u017f", ["it", "'\u017f"], spec=SPL)
    s("split-10", "right single quote is no contraction", "x\u2019ss", ["x", "\u2019ss"], spec=SPL)
    s("split-11", "apostrophe before other letters", "'xyz", ["'xyz"], spec=SPL)
    s("split-12", "digits in groups of three", "12345", ["123", "45"], spec=SPL)
    s("split-13", "letters then digits", "abc123", ["abc", "123"], spec=SPL)
    s("split-14", "two leading spaces", "  hello", [" ", " hello"], spec=SPL)
    s("split-15", "three leading spaces", "   x", ["  ", " x"], spec=SPL)
    s("split-16", "trailing spaces", "hello   ", ["hello", "   "], spec=SPL)
    s("split-17", "two newlines between words", "hello\n\nworld", ["hello", "\n\n", "world"], spec=SPL)
    s("split-18", "CRLF", "a\r\nb", ["a", "\r\n", "b"], spec=SPL)
    s("split-19", "punctuation takes trailing newlines", "!!!\n\nfoo", ["!!!\n\n", "foo"], spec=SPL)
    s("split-20", "CJK run is one piece", "\u65e5\u672c\u8a9e", ["\u65e5\u672c\u8a9e"], spec=SPL)
    s("split-21", "Cyrillic words", "\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440",
      ["\u041f\u0440\u0438\u0432\u0435\u0442", " \u043c\u0438\u0440"], spec=SPL)
    s("split-22", "Arabic-Indic digits in groups of three", "\u0661\u0662\u0663\u0664",
      ["\u0661\u0662\u0663", "\u0664"], spec=SPL)
    s("split-23", "combining mark is not a letter", "e\u0301", ["e", "\u0301"], spec=SPL)
    s("split-24", "U+001C is not whitespace", "x\u001cy", ["x", "\u001cy"], spec=SPL + ["chardata-classes"])
    s("split-25", "emoji run is one piece", "\U0001f44d\U0001f44d", ["\U0001f44d\U0001f44d"], spec=SPL)
    s("split-26", "space before punctuation joins it", "a ,b", ["a", " ,", "b"], spec=SPL)
    s("split-27", "prefix punctuation joins a word", "(Foo)", ["(Foo", ")"], spec=SPL)
    s("split-28", "number with a decimal point", "3.14", ["3", ".", "14"], spec=SPL)
    s("split-29", "code line", "x = f(y)\n", ["x", " =", " f", "(y", ")\n"], spec=SPL)
    s("split-30", "tab then word", "\tx", ["\tx"], spec=SPL)
    s("split-31", "empty input has no pieces", "", [], spec=SPL)
    s("split-32", "vulgar fraction is a number", "\u00bd\u00bd", ["\u00bd\u00bd"], spec=SPL)
    s("split-33", "no-break space prefixes a word", "a\u00a0b", ["a", "\u00a0b"], spec=SPL)
    s("split-34", "spaces then newline", "a  \nb", ["a", "  \n", "b"], spec=SPL)
    s("split-35", "private use is not a letter", "\ue000a", ["\ue000a"], spec=SPL)
    s("split-36", "contraction needs an apostrophe first", "its", ["its"], spec=SPL)
    s("split-37", "supplementary letters are letters", "\U00010400\U00010428",
      ["\U00010400\U00010428"], spec=SPL)
    s("split-38", "newline then spaces then word", "a\n  b", ["a", "\n", " ", " b"], spec=SPL)

    s("split-39", "no-break spaces before a word", "\u00a0\u00a0x", ["\u00a0", "\u00a0x"], spec=SPL)
    s("split-40", "ideographic space prefixes a word", "\u3000x", ["\u3000x"], spec=SPL + ["chardata-classes"])
    s("split-41", "line separator is whitespace, not a newline", "a\u2028b", ["a", "\u2028b"],
      spec=SPL + ["chardata-classes"])
    s("split-42", "two CRLFs are one piece", "x\r\n\r\ny", ["x", "\r\n\r\n", "y"], spec=SPL)
    s("split-43", "spaces, newline, spaces, word", "  \n  x", ["  \n", " ", " x"], spec=SPL)
    s("split-44", "currency sign is punctuation, digits follow", "$100", ["$", "100"], spec=SPL)
    s("split-45", "abbreviation with dots", "e.g.", ["e", ".g", "."], spec=SPL)
    s("split-46", "inverted question mark joins the word", "\u00bfQu\u00e9?", ["\u00bfQu\u00e9", "?"],
      spec=SPL)
    s("split-47", "percent after digits", "100%", ["100", "%"], spec=SPL)
    s("split-48", "right quote contraction is not split off", "don\u2019t", ["don", "\u2019t"], spec=SPL)
    s("split-49", "contraction at the start of the text", "'s", ["'s"], spec=SPL + ["split-contractions"])
    s("split-50", "apostrophe-ll before more letters", "we'llx", ["we", "'ll", "x"], spec=SPL + ["split-contractions"])
    s("split-51", "apostrophe-L-l is a contraction", "I'Ll", ["I", "'Ll"], spec=SPL + ["split-contractions"])
    s("split-52", "Kelvin sign does not match the contraction", "x'\u212a", ["x", "'\u212a"],
      spec=SPL + ["split-contractions"])
    s("split-53", "space then punctuation then newline", "a !\n", ["a", " !\n"], spec=SPL)
    s("split-54", "two spaces then punctuation", "a  !", ["a", " ", " !"], spec=SPL)
    s("split-55", "trailing newline run after spaces", "a \n\n", ["a", " \n\n"], spec=SPL)
    s("split-56", "only whitespace", " \t ", [" \t "], spec=SPL)
    s("split-57", "digits of four scripts", "1\u0661\u0967\uff11", ["1\u0661\u0967", "\uff11"], spec=SPL)
    s("split-58", "letter-digit-letter", "a1b", ["a", "1", "b"], spec=SPL)
    s("split-59", "a space and a mark form one punctuation piece", " \u0301x", [" \u0301", "x"], spec=SPL)
    s("split-60", "digits run of seven", "1234567", ["123", "456", "7"], spec=SPL)
    s("split-61", "vertical tab and form feed are whitespace", "a\u000b\u000cb", ["a", "\u000b", "\u000cb"],
      spec=SPL + ["chardata-classes"])
    s("split-62", "next line U+0085 is whitespace, not CR/LF", "a\u0085\u0085b", ["a", "\u0085", "\u0085b"],
      spec=SPL + ["chardata-classes"])
    s("split-63", "U+001F is not whitespace", "a\u001f b", ["a", "\u001f", " b"], spec=SPL + ["chardata-classes"])

    # paper: single digits.
    s("split-paper-01", "paper splits digits one by one", "12345", ["1", "2", "3", "4", "5"],
      options=PAPER, spec=SPP)
    s("split-paper-02", "paper: letters then digits", "abc123", ["abc", "1", "2", "3"],
      options=PAPER, spec=SPP)
    s("split-paper-03", "paper: words are as in llama3", "Hello world", ["Hello", " world"],
      options=PAPER, spec=SPP)
    s("split-paper-04", "paper: contraction", "DON'T", ["DON", "'T"], options=PAPER, spec=SPP)
    s("split-paper-05", "paper: Arabic-Indic digits one by one", "\u0661\u0662",
      ["\u0661", "\u0662"], options=PAPER, spec=SPP)
    s("split-paper-06", "paper: decimal number", "3.14", ["3", ".", "1", "4"], options=PAPER, spec=SPP)
    s("split-paper-07", "paper: contraction and spaces as in llama3", "I'm  here", ["I", "'m", " ", " here"],
      options=PAPER, spec=SPP)
    s("split-paper-08", "paper: digits after letters and space", "a 12", ["a", " ", "1", "2"],
      options=PAPER, spec=SPP)

    # The splitter changes what folds.
    ENC = ["encode", "split-semantics", "encode-fold"]
    v.encode("split-enc-01", "llama3: a million has a run of three zeros", "1000000",
             '"100" REPEAT(0,3) "0" "0"', spec=ENC + ["split-patterns"])
    v.encode("split-enc-02", "paper: single digits never fold", "1000000",
             '"1000000"', options=PAPER, spec=ENC + ["split-patterns"])
    v.encode("split-enc-03", "llama3: five zeros are 3 + 2", "00000",
             'REPEAT(0,3) "0" "00"', spec=ENC + ["split-patterns"])
    v.encode("split-enc-04", "llama3: letter run and digit run", "aaa111",
             'REPEAT(0,3) "a" REPEAT(0,3) "1"', spec=ENC + ["split-patterns"])
    v.encode("split-enc-05", "paper: digits after a letter run stay literal", "aaa111",
             'REPEAT(0,3) "a111"', options=PAPER, spec=ENC + ["split-patterns"])
    v.encode("split-enc-06", "paper: letters fold as in llama3", "Hmmm",
             'REPEAT(1,3) CAPITALIZE(0) "hm"', options=PAPER, spec=ENC + ["split-patterns"])
    v.encode("split-enc-07", "llama3: 999 folds", "999", 'REPEAT(0,3) "9"', spec=ENC + ["split-patterns"])
    v.encode("split-enc-08", "paper: 999 stays literal", "999", '"999"', options=PAPER,
             spec=ENC + ["split-patterns"])
    v.encode("split-enc-09", "contraction piece gets its own group", "DON'T",
             'CAPITALIZE(0) CAPITALIZE(1) CAPITALIZE(2) "don" CAPITALIZE(1) "\'t"', spec=ENC + ["split-patterns"])
    v.encode("split-enc-10", "U+001C prefixes the next word", "x\u001cY",
             '"x" CAPITALIZE(1) "\u001cy"', spec=ENC + ["chardata-classes"])
