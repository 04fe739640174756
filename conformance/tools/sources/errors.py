"""Negative vectors: one error each, with its kind, its offset and the lenient output."""

AREA = "errors"
TITLE = "Error kinds: strict errors and lenient output"

ERR = ["errors-kinds", "errors-strict", "errors-lenient"]
# The clause that defines each kind's trigger, cited by every vector of that kind.
WHERE = {
    "unknown-opcode": "decode-parse",
    "truncated-instruction": "decode-parse",
    "stray-argument": "decode-parse",
    "bad-count": "decode-repeats",
    "bad-range": "decode-repeats",
    "position-out-of-range": "decode-positions",
    "dangling-group": "decode-dangling",
    "escape-at-end": "decode-groups",
    "output-too-large": "decode-limit",
    "lone-surrogate": "decode-groups",
}


def declare(v):
    def e(id, description, stream, kind, offset, lenient, options=None, spec=()):
        v.error(id, description, "decode", stream, kind, offset, lenient, options=options,
                spec=[WHERE[kind], *spec, *ERR])

    # unknown-opcode
    e("err-unknown-01", "unassigned opcode between letters", '"a" U+E111 "b"', "unknown-opcode", 1, "ab")
    e("err-unknown-02", "reserved mark opcode U+E10E", 'U+E10E "x"', "unknown-opcode", 0, "x")
    e("err-unknown-03", "reserved mark opcode U+E10F", 'U+E10F "x"', "unknown-opcode", 0, "x")
    e("err-unknown-04", "unassigned U+E202 after MULTIREPEAT", 'U+E202 "x"', "unknown-opcode", 0, "x")
    e("err-unknown-05", "unassigned U+EFFE, last before ESCAPE", 'U+EFFE "x"', "unknown-opcode", 0, "x")
    e("err-unknown-06", "unassigned U+E1FF", 'U+E1FF "x"', "unknown-opcode", 0, "x")
    e("err-unknown-07", "unknown opcode after a valid instruction",
      'CAPITALIZE(0) U+E300 "a"', "unknown-opcode", 2, "A")
    e("err-unknown-08", "unknown opcode before a valid instruction",
      'U+E111 CAPITALIZE(0) "a"', "unknown-opcode", 0, "A")
    e("err-unknown-09", "unknown opcode ends the text of the group before",
      'CAPITALIZE(1) "ab" U+E111 "cd"', "unknown-opcode", 4, "aBcd", spec=["decode-groups"])
    e("err-unknown-10", "unknown opcode at the end of the stream", '"a" U+E111', "unknown-opcode", 1, "a")

    # truncated-instruction
    e("err-trunc-01", "REPEAT with one argument", 'OPCODE(REPEAT) ARG(0) "a"', "truncated-instruction", 0, "a")
    e("err-trunc-02", "CAPITALIZE with no argument", 'OPCODE(CAPITALIZE) "a"', "truncated-instruction", 0, "a")
    e("err-trunc-03", "MULTIREPEAT with two arguments", 'OPCODE(MULTIREPEAT) ARG(0) ARG(1) "ab"',
      "truncated-instruction", 0, "ab")
    e("err-trunc-04", "truncated REPEAT after a valid CAPITALIZE",
      'CAPITALIZE(0) OPCODE(REPEAT) ARG(0) "a"', "truncated-instruction", 2, "A")
    e("err-trunc-05", "truncated REPEAT cut short by the next opcode",
      'OPCODE(REPEAT) ARG(0) CAPITALIZE(0) "a"', "truncated-instruction", 0, "A")
    e("err-trunc-06", "opcode without argument at the end", '"a" OPCODE(CAPITALIZE)', "truncated-instruction", 1, "a")
    e("err-trunc-07", "mark instruction with no argument", 'OPCODE(ACUTE) "e"', "truncated-instruction", 0, "e")
    e("err-trunc-08", "MULTIREPEAT cut short by an opcode",
      'OPCODE(MULTIREPEAT) CAPITALIZE(0) "a"', "truncated-instruction", 0, "A")

    # stray-argument
    e("err-stray-01", "argument alone before text", 'ARG(5) "a"', "stray-argument", 0, "a")
    e("err-stray-02", "argument between letters", '"x" ARG(0) "y"', "stray-argument", 1, "xy")
    e("err-stray-03", "extra argument after CAPITALIZE", 'CAPITALIZE(0) ARG(1) "ab"', "stray-argument", 2, "Ab")
    e("err-stray-04", "argument before an opcode", 'ARG(0) CAPITALIZE(0) "a"', "stray-argument", 0, "A")
    e("err-stray-05", "third argument after REPEAT", 'REPEAT(0,3) ARG(3) "a"', "stray-argument", 3, "aaa")
    e("err-stray-06", "argument at the end of the stream", '"a" ARG(255)', "stray-argument", 1, "a")

    # bad-count
    e("err-count-01", "REPEAT count 0", 'REPEAT(0,0) "a"', "bad-count", 0, "a", spec=["decode-repeats"])
    e("err-count-02", "MULTIREPEAT count 0", 'MULTIREPEAT(0,2,0) "ab"', "bad-count", 0, "ab",
      spec=["decode-repeats"])
    e("err-count-03", "count 0 after a valid CAPITALIZE", 'CAPITALIZE(0) REPEAT(0,0) "a"', "bad-count", 2, "A",
      spec=["decode-repeats"])

    # bad-range
    e("err-range-01", "MULTIREPEAT with end equal to start", 'MULTIREPEAT(1,1,3) "ab"', "bad-range", 0, "ab",
      spec=["decode-repeats"])
    e("err-range-02", "MULTIREPEAT with end before start", 'MULTIREPEAT(2,1,3) "abc"', "bad-range", 0, "abc",
      spec=["decode-repeats"])
    e("err-range-03", "MULTIREPEAT(0,0,3)", 'MULTIREPEAT(0,0,3) "a"', "bad-range", 0, "a", spec=["decode-repeats"])

    # position-out-of-range
    P = "position-out-of-range"
    e("err-pos-01", "CAPITALIZE past the only slot", 'CAPITALIZE(1) "a"', P, 0, "a")
    e("err-pos-02", "ACUTE past the only slot", 'ACUTE(5) "e"', P, 0, "e")
    e("err-pos-03", "REPEAT past the only slot", 'REPEAT(1,3) "a"', P, 0, "a", spec=["decode-repeats"])
    e("err-pos-04", "MULTIREPEAT end past the slots", 'MULTIREPEAT(0,3,2) "ab"', P, 0, "ab",
      spec=["decode-repeats"])
    e("err-pos-05", "case positions count slots before expansion",
      'REPEAT(0,3) CAPITALIZE(1) "a"', P, 3, "aaa", spec=["decode-repeats"])
    e("err-pos-06", "an escape pair is one slot", 'CAPITALIZE(1) ESCAPE "\ue000"', P, 0, "\ue000",
      spec=["encode-escape"])
    e("err-pos-07", "CAPITALIZE(255) on two slots", 'CAPITALIZE(0) CAPITALIZE(255) "ab"', P, 2, "Ab")
    e("err-pos-08", "higher start applies first, before the list grows",
      'REPEAT(0,2) REPEAT(1,2) "a"', P, 3, "aa", spec=["decode-repeats"])
    e("err-pos-09", "mark positions count slots before expansion",
      'REPEAT(0,3) ACUTE(2) "e"', P, 3, "eee", spec=["decode-repeats", "decode-marks"])
    e("err-pos-10", "a group's text ends at the next group",
      'CAPITALIZE(2) "ab" CAPITALIZE(0) "c"', P, 0, "abC", spec=["decode-groups"])

    # dangling-group
    D = "dangling-group"
    e("err-dangle-01", "group at the end after text", '"abc" CAPITALIZE(0)', D, 3, "abc")
    e("err-dangle-02", "a stream that is only a group", 'REPEAT(0,3)', D, 0, "")
    e("err-dangle-03", "dangling positions are not checked", '"x" CAPITALIZE(9)', D, 1, "x")
    e("err-dangle-04", "dangling counts are not checked", '"x" REPEAT(0,0)', D, 1, "x")
    e("err-dangle-05", "dangling group after a valid group",
      'CAPITALIZE(0) "a" ACUTE(0) CAPITALIZE(0)', D, 3, "A")
    e("err-dangle-06", "two instructions with nothing after (observed)",
      '"Hello" CAPITALIZE(0) ACUTE(1)', D, 5, "Hello")

    # escape-at-end
    X = "escape-at-end"
    e("err-escend-01", "ESCAPE after text", '"abc" ESCAPE', X, 3, "abc", spec=["encode-escape"])
    e("err-escend-02", "a stream that is only ESCAPE", 'ESCAPE', X, 0, "", spec=["encode-escape"])
    e("err-escend-03", "ESCAPE at the end of a group's text", 'CAPITALIZE(0) "a" ESCAPE', X, 3, "A",
      spec=["encode-escape"])
    e("err-escend-04", "odd number of ESCAPEs", 'ESCAPE ESCAPE ESCAPE', X, 2, "\uefff", spec=["encode-escape"])

    # output-too-large
    O = "output-too-large"
    m10 = {"max_output": 10}
    e("err-big-01", "REPEAT past max_output", 'REPEAT(0,11) "a"', O, 0, "a", options=m10, spec=["decode-limit"])
    e("err-big-02", "text before the group counts", '"abc" REPEAT(0,8) "x"', O, 3, "abcx", options=m10,
      spec=["decode-limit"])
    e("err-big-03", "the rest of the group counts", 'REPEAT(0,10) "ab"', O, 0, "ab", options=m10,
      spec=["decode-limit"])
    e("err-big-04", "MULTIREPEAT past max_output", 'MULTIREPEAT(0,2,6) "ab"', O, 0, "ab", options=m10,
      spec=["decode-limit"])
    e("err-big-05", "an earlier group's output counts", 'REPEAT(0,5) "a" REPEAT(0,6) "b"', O, 4, "aaaaab",
      options=m10, spec=["decode-limit"])
    e("err-big-06", "the second of two stacked REPEATs", 'REPEAT(0,5) REPEAT(0,7) "a"', O, 3, "aaaaa",
      options=m10, spec=["decode-limit"])

    # lone-surrogate
    S = "lone-surrogate"
    e("err-surr-01", "high surrogate in text", '"a\\ud800b"', S, 1, "a\ufffdb")
    e("err-surr-02", "low surrogate alone", '"\\udfff"', S, 0, "\ufffd")
    e("err-surr-03", "escaped surrogate", 'ESCAPE "\\udc00"', S, 1, "\ufffd", spec=["encode-escape"])
    e("err-surr-04", "surrogate slot in a group", 'CAPITALIZE(0) "\\ud800"', S, 2, "\ufffd")
    v.error("err-surr-enc-01", "encode rejects a lone surrogate", "encode", "a\ud800", S, 1, None,
            spec=["normalize-surrogates", "errors-encode"])
    v.error("err-surr-enc-02", "encode offset is in the text before NFC", "encode", "e\u0301\ud800", S, 2,
            None, spec=["normalize-surrogates", "normalize-offsets", "errors-encode"])
    v.error("err-surr-enc-03", "low surrogate first", "encode", "\udc00x", S, 0, None, spec=["normalize-surrogates", "errors-encode"])
    v.error("err-surr-enc-04", "encode without NFC", "encode", "ab\udbff", S, 2, None,
            options={"normalize": None}, spec=["normalize-surrogates", "errors-encode"])
    v.error("err-surr-pieces-01", "pieces rejects a lone surrogate", "pieces", "ab\ud800", S, 2, None,
            spec=["normalize-surrogates", "encode-pieces"])
    v.error("err-surr-pretok-01", "pretokens rejects a lone surrogate", "pretokens", "\ud800", S, 0, None,
            spec=["normalize-surrogates", "pretokens-split"])

    # output-too-large counts code points, not slots.
    e("err-big-07", "a slot with an appended mark counts two code points",
      'REPEAT(0,5) ACUTE(0) "q"', O, 0, "q\u0301", options={"max_output": 9}, spec=["decode-marks"])
    d = v.decode
    LIM = ["decode-limit", "decode-procedure"]
    d("lim-01", "five copies of a two-code-point slot fit 10", 'REPEAT(0,5) ACUTE(0) "q"', "q\u0301" * 5,
      options={"max_output": 10}, spec=LIM + ["decode-marks"], roundtrip=False)
    d("lim-02", "an escaped slot counts one code point", 'REPEAT(0,10) ESCAPE "\ue000"', "\ue000" * 10,
      options={"max_output": 10}, spec=LIM + ["decode-groups"], roundtrip=True)
    d("lim-03", "a composed slot counts one code point", 'REPEAT(0,10) ACUTE(0) "e"', "\u00e9" * 10,
      options={"max_output": 10}, spec=LIM + ["decode-marks"], roundtrip=True)
    d("lim-04", "max_output 0 still allows plain text", '"abc"', "abc", options={"max_output": 0},
      spec=LIM, roundtrip=True)

    # Lenient decoding of streams with several errors (expected output under errors="replace").
    R = {"errors": "replace"}
    LEN = ["errors-lenient", "decode-parse"]
    d("lenient-01", "unknown opcode and its would-be arguments vanish", 'U+E111 ARG(0) ARG(1) "x"', "x",
      options=R, spec=LEN, roundtrip=False)
    d("lenient-02", "a soup of bad code points leaves the text",
      '"a" ARG(0) OPCODE(REPEAT) U+EFFE ESCAPE', "a", options=R, spec=LEN + ["decode-groups"], roundtrip=False)
    d("lenient-03", "a dangling group of two instructions is dropped", 'CAPITALIZE(0) CAPITALIZE(0)', "",
      options=R, spec=LEN + ["decode-dangling"], roundtrip=False)
    d("lenient-04", "surrogate, bad position and escape at end together",
      '"\\ud800" CAPITALIZE(5) "a" ESCAPE', "\ufffda", options=R,
      spec=LEN + ["decode-positions", "decode-groups"], roundtrip=False)
    d("lenient-05", "good instructions survive bad neighbours",
      'CAPITALIZE(0) ARG(9) U+E300 ACUTE(1) REPEAT(0,0) "ae"', "A\u00e9", options=R,
      spec=LEN + ["decode-repeats"], roundtrip=False)
    d("lenient-06", "a dropped repeat leaves the list for the next one",
      'REPEAT(0,2) REPEAT(1,2) "a"', "aa", options=R, spec=LEN + ["decode-repeats"], roundtrip=False)
    d("lenient-07", "an escaped opcode survives lenient decoding", 'ESCAPE "\ue100" ARG(3)', "\ue100",
      options=R, spec=LEN + ["errors-lenient"], roundtrip=False)
    d("lenient-08", "a truncated instruction at the end is dropped", '"ab" MULTIREPEAT(0,1,2) OPCODE(REPEAT)',
      "ab", options=R, spec=LEN + ["decode-dangling"], roundtrip=False)
    d("lenient-09", "a stray argument still ends the group's text",
      'CAPITALIZE(2) "ab" ARG(0) "cd"', "abcd", options=R, spec=LEN + ["decode-groups"], roundtrip=False)
    d("lenient-10", "an unknown opcode still ends the group's text",
      'CAPITALIZE(2) "ab" U+E111 "cd"', "abcd", options=R, spec=LEN + ["decode-groups"], roundtrip=False)
    d("lenient-11", "an escaped surrogate becomes U+FFFD in place",
      'CAPITALIZE(0) "x" ESCAPE "\\udc00" "y"', "X\ufffdy", options=R, spec=LEN + ["decode-groups"],
      roundtrip=False)
