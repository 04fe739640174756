"""Decoding well-formed streams: groups, text, and the original decoder's behaviours."""

AREA = "decode"
TITLE = "Decoding: groups, slots and non-canonical streams"

DEC = ["decode-procedure", "decode-groups"]


def declare(v):
    d = v.decode
    d("dec-01", "empty stream decodes to empty text", '""', "", spec=DEC, roundtrip=True)
    d("dec-02", "plain text passes through", '"hello world"', "hello world", spec=DEC, roundtrip=True)
    d("dec-03", "text, group, text", '"ab " CAPITALIZE(0) "cd"', "ab Cd", spec=DEC, roundtrip=False)
    d("dec-04", "a group applies up to the next group",
      'CAPITALIZE(0) "ab" CAPITALIZE(1) "cd"', "AbcD", spec=DEC, roundtrip=False)
    d("dec-05", "positions restart at each group",
      'CAPITALIZE(0) "a" CAPITALIZE(0) "b" CAPITALIZE(0) "c"', "ABC", spec=DEC, roundtrip=False)
    d("dec-06", "group then text of several pre-tokens", 'CAPITALIZE(0) "hello" " world"',
      "Hello world", spec=DEC, roundtrip=True)
    d("dec-07", "canonical group order, all families",
      'REPEAT(0,3) MULTIREPEAT(1,3,3) ACUTE(0) CAPITALIZE(1) "eab"',
      "\u00e9\u00e9\u00e9AbAbAb", spec=DEC + ["decode-repeats", "decode-marks"], roundtrip=True)
    d("dec-08", "instructions in any order inside a group",
      'CAPITALIZE(0) ACUTE(1) REPEAT(2,3) "hel"', "H\u00e9lll", spec=DEC + ["decode-repeats"],
      roundtrip=False)
    d("dec-09", "newlines and tabs pass through", '"a\\n\\tb\\r\\n"', "a\n\tb\r\n", spec=DEC, roundtrip=True)
    d("dec-10", "non-ASCII text passes through", '"\u65e5\u672c\u8a9e \u0645\u0631\u062d\u0628\u0627"',
      "\u65e5\u672c\u8a9e \u0645\u0631\u062d\u0628\u0627", spec=DEC, roundtrip=True)
    d("dec-11", "a group may name the last slot of a long text",
      'CAPITALIZE(9) "abcdefghij"', "abcdefghiJ", spec=DEC, roundtrip=True)
    d("dec-12", "unchanged slots keep their code points", 'ACUTE(1) "\u0131e\u00df"',
      "\u0131\u00e9\u00df", spec=DEC + ["decode-marks"], roundtrip=True)
    d("dec-13", "text after the last group ends at the stream end",
      '"x" REPEAT(0,3) "y" " z"', "xyyy z", spec=DEC + ["decode-repeats"], roundtrip=False)
    d("dec-14", "decoding ignores the splitter option", '"1000000"', "1000000",
      options={"splitter": "paper"}, spec=DEC, roundtrip=True)
    d("dec-15", "lenient mode on a valid stream is the same",
      'ACUTE(1) CAPITALIZE(0) "hello"', "H\u00e9llo", options={"errors": "replace"},
      spec=DEC + ["errors-lenient"], roundtrip=True)
    d("dec-16", "a valid stream below max_output", 'REPEAT(0,10) "a"', "a" * 10,
      options={"max_output": 10}, spec=DEC + ["decode-limit"], roundtrip=True)
    d("dec-17", "plain text over max_output never fails", '"hello world"', "hello world",
      options={"max_output": 5}, spec=DEC + ["decode-limit"], roundtrip=True)
    d("dec-18", "repeat plus rest of the group at max_output", 'REPEAT(0,9) "ab"', "a" * 9 + "b",
      options={"max_output": 10}, spec=DEC + ["decode-limit"], roundtrip=True)
    d("dec-19", "later groups' text is not counted in advance",
      'REPEAT(0,10) "a" CAPITALIZE(0) "bcd"', "a" * 10 + "Bcd",
      options={"max_output": 10}, spec=DEC + ["decode-limit"], roundtrip=False)
    d("dec-20", "supplementary character passes through", '"\U0001f600"', "\U0001f600",
      spec=DEC, roundtrip=True)
