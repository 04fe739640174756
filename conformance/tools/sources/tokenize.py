"""The functok tokenizer (spec 14): greedy BPE, byte fallback, special tokens, the file's header,
and decoding ids, over small tokenizer files carried inline in each vector.

Every expected id list was derived by hand from spec 14.4 and 14.5 (merge by lowest rank, the
leftmost on a tie), or for optimal segmentation from spec 10 (the cost table of 10.2 and the
tie-breaks of 10.3, worked out in the comments), and every text from 14.6; the vectors write tokens, and
`ids()` only looks each one up in the file's own vocabulary. Nothing here runs a tokenizer.
"""

from __future__ import annotations

AREA = "tokenize"
TITLE = "The functok tokenizer: the file, greedy BPE, special tokens, ids to text"

BYTES = [f"<0x{b:02X}>" for b in range(256)]


def tokenizer_file(ordinary, merges, specials, *, order=("specials", "bytes", "ordinary"),
                   merge_form="list", header):
    """A tokenizer file (spec 14.1): the vocabulary is the three groups in ``order``, each id its
    position; the special tokens are the file's added tokens."""
    groups = {"specials": list(specials), "bytes": BYTES, "ordinary": list(ordinary)}
    tokens = [t for name in order for t in groups[name]]
    assert len(set(tokens)) == len(tokens)
    vocab = {t: i for i, t in enumerate(tokens)}
    written = [list(m) if merge_form == "list" else " ".join(m) for m in merges]
    hf = {"version": "1.0", "truncation": None, "padding": None,
          "added_tokens": [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False,
                            "rstrip": False, "normalized": False, "special": True} for t in specials],
          "normalizer": None, "pre_tokenizer": None, "post_processor": None, "decoder": None,
          "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                    "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": True,
                    "ignore_merges": False, "vocab": vocab, "merges": written}}
    base = {"format_version": 1, "splitter": "llama3", "normalize": "nfc"}
    return {"functok": {**base, **header}, "tokenizer": hf}


def ids(file, tokens):
    """The ids of ``tokens`` in ``file``'s vocabulary (an int is an id given as it is)."""
    vocab = file["tokenizer"]["model"]["vocab"]
    return [t if isinstance(t, int) else vocab[t] for t in tokens]


CAP, ACUTE, UPPER, REPEAT = "\ue100", "\ue102", "\ue110", "\ue200"
ARG = [chr(0xE000 + k) for k in range(256)]

# T1: paper profile, fuse "none" (9.1). Special tokens first, then the bytes, then the rest.
T1_TOKENS = [ARG[0], ARG[1], CAP, ACUTE, " ", "a", "b", "c", "d", "e", "h", "l", "o", "r", "w",
             CAP + ARG[0], "ll", "he", "hell", "hello", " w", "or", " wor", "ld", " world", "bc", "ab",
             "abc", "aa", CAP + ARG[0] + "hello"]
T1_MERGES = [(CAP, ARG[0]),            # rank 0
             ("l", "l"), ("h", "e"), ("he", "ll"), ("hell", "o"),           # 1..4
             (" ", "w"), ("o", "r"), (" w", "or"), ("l", "d"), (" wor", "ld"),  # 5..9
             ("b", "c"), ("a", "b"), ("ab", "c"), ("a", "a"),               # 10..13
             (CAP + ARG[0], "hello")]                                      # 14
T1_SPECIALS = ["<s>", "<|end|>", "<|end|>!"]
T1 = tokenizer_file(T1_TOKENS, T1_MERGES, T1_SPECIALS,
                    header={"spec_version": "1.2.0", "split_operators": True, "profile": "paper",
                            "alphabet": "characters+byte-fallback", "fuse": "none"})
# T2: T1's vocabulary in a 1.0 file: no profile (paper), split_operators false (fuse "all", 9.2).
T2 = tokenizer_file(T1_TOKENS, T1_MERGES, T1_SPECIALS,
                    header={"spec_version": "1.0.0", "split_operators": False})
# T2F: the same rule stated by a 1.2 file's fuse.
T2F = tokenizer_file(T1_TOKENS, T1_MERGES, T1_SPECIALS,
                     header={"spec_version": "1.2.0", "split_operators": False, "profile": "paper",
                             "fuse": "all"})
# T5: T1's vocabulary with context chains (fuse "frequent", 9.4): a piece with a group joins the
# pre-token before it, so CAPITALIZE(0) "hello" meets its merge 14 across the instruction.
T5 = tokenizer_file(T1_TOKENS, T1_MERGES, T1_SPECIALS,
                    header={"spec_version": "1.2.0", "split_operators": True, "profile": "paper",
                            "fuse": "frequent"})
# T3: compact profile, ordinary tokens first and the special token last, merges as "left right".
T3_TOKENS = ["a", "b", "h", "e", "l", "o", UPPER, ARG[0], ARG[5], "aa", "ll", "he", "hell", "hello",
             "ab", "ba", "aba"]
T3_MERGES = [("a", "a"), ("l", "l"), ("h", "e"), ("he", "ll"), ("hell", "o"), ("a", "b"), ("b", "a"),
             ("ab", "a")]
T3 = tokenizer_file(T3_TOKENS, T3_MERGES, ["<|endoftext|>"], order=("ordinary", "bytes", "specials"),
                    merge_form="string",
                    header={"spec_version": "1.2.0", "split_operators": True, "profile": "compact",
                            "fuse": "none"})
# T4: a merge listed twice takes the rank of its last occurrence (14.3).
T4 = tokenizer_file(["a", "b", "c", "ab", "bc"], [("b", "c"), ("a", "b"), ("b", "c")], [],
                    order=("ordinary", "bytes", "specials"),
                    header={"spec_version": "1.2.0", "split_operators": True})
# T6: optimal segmentation (spec 10) in a tokenizer. abcd and xab are tokens no merge builds (x
# is no token at all), so reachable_only (10.1) drops them; the reachable candidates are a b c d
# and the merges' results cd ab bcd abc.
T6 = tokenizer_file(["a", "b", "c", "d", "cd", "ab", "bcd", "abc", "abcd", "xab"],
                    [("c", "d"), ("a", "b"), ("b", "cd"), ("ab", "c")], [],
                    header={"spec_version": "1.2.0", "split_operators": True, "profile": "paper",
                            "fuse": "none"})

# T7: the ids and format_version written as floats (1.0, 261.0): an integer member is a whole
# number however it is written (14.1), so T7 is T7_INT's tokenizer. Ordinary tokens first:
# a 0, b 1, c 2, ab 3, bc 4, then the bytes 5..260, then <s> 261.
T7_INT = tokenizer_file(["a", "b", "c", "ab", "bc"], [("b", "c"), ("a", "b")], ["<s>"],
                        order=("ordinary", "bytes", "specials"),
                        header={"spec_version": "1.2.1", "split_operators": True})


def _floats(file):
    """``file`` with its format_version, vocabulary ids and added-token ids written as floats."""
    hf = file["tokenizer"]
    model = dict(hf["model"], vocab={t: float(i) for t, i in hf["model"]["vocab"].items()})
    added = [dict(a, id=float(a["id"])) for a in hf["added_tokens"]]
    return {"functok": dict(file["functok"], format_version=1.0),
            "tokenizer": dict(hf, model=model, added_tokens=added)}


T7 = _floats(T7_INT)

# UTF-8 of code points the vocabularies lack, as byte tokens (worked out by hand).
B = {name: [f"<0x{b}>" for b in hexes.split()] for name, hexes in {
    "z": "7A", "<": "3C", "s": "73", ">": "3E", "sharp-s": "C3 9F", "grin": "F0 9F 98 80",
    "acute": "CC 81", "U+E100": "EE 84 80", "U+E200": "EE 88 80", "U+E003": "EE 80 83",
    "U+E005": "EE 80 85", "U+E009": "EE 80 89", "x": "78"}.items()}

GREEDY = ["tokenizer-greedy", "tokenizer-encode"]
SPECIAL = ["tokenizer-encode"]
DECODE = ["tokenizer-decode"]


def t(file, **options):
    return {"tokenizer": file, **options}


def declare(v) -> None:
    tok, dtok = v.tokenize, v.detokenize
    # --- greedy BPE (14.5) over the codec's pre-tokens (9.1) -------------------------------------
    tok("tok-01", "hello: l+l (rank 1) first, then he, hell, hello", "hello",
        ids(T1, ["hello"]), spec=GREEDY, options=t(T1))
    tok("tok-02", "Hello: CAPITALIZE(0) is a pre-token and a merged token", "Hello",
        ids(T1, [CAP + ARG[0], "hello"]), spec=GREEDY + ["pretokens-split"], options=t(T1))
    tok("tok-03", "Hello world: three pre-tokens, each merged on its own", "Hello world",
        ids(T1, [CAP + ARG[0], "hello", " world"]), spec=GREEDY, options=t(T1))
    tok("tok-04", "abc: b+c (rank 10) before a+b (rank 11) gives a|bc", "abc",
        ids(T1, ["a", "bc"]), spec=GREEDY, options=t(T1))
    tok("tok-05", "abc with optimal segmentation: the one token abc", "abc",
        ids(T1, ["abc"]), spec=["tokenizer-encode", "segment-dp"], options=t(T1, segmentation="optimal"))
    tok("tok-06", "abc, optimal, prefer-greedy: greedy has 2 tokens, 1 suffices", "abc",
        ids(T1, ["abc"]), spec=["tokenizer-encode", "segment-tiebreak"],
        options=t(T1, segmentation="optimal", tie_break="prefer-greedy"))
    tok("tok-07", "hezllo: z is no token, so <0x7A>; nothing merges across it", "hezllo",
        ids(T1, ["he", *B["z"], "ll", "o"]), spec=GREEDY, options=t(T1))
    tok("tok-08", "sharp s is no token: its two UTF-8 bytes", "\u00df",
        ids(T1, B["sharp-s"]), spec=GREEDY, options=t(T1))
    tok("tok-09", "an emoji is no token: its four UTF-8 bytes", "\U0001f600",
        ids(T1, B["grin"]), spec=GREEDY, options=t(T1))
    tok("tok-10", "h\u00e9llo: ACUTE(1) is two tokens, hello one", "h\u00e9llo",
        ids(T1, [ACUTE, ARG[1], "hello"]), spec=GREEDY, options=t(T1))
    tok("tok-11", "aaa: REPEAT(0,3), its opcode and count in bytes", "aaa",
        ids(T1, [*B["U+E200"], ARG[0], *B["U+E003"], "a"]), spec=GREEDY, options=t(T1))
    tok("tok-12", "empty text: no ids", "", [], spec=SPECIAL, options=t(T1))
    # --- special tokens (14.4) ---------------------------------------------------------------------
    tok("tok-13", "an allowed special token becomes its id", "<s>Hello",
        ids(T1, ["<s>", CAP + ARG[0], "hello"]), spec=SPECIAL, options=t(T1, allowed_special=["<s>"]))
    tok("tok-14", "disallowed_special empty: <s> is ordinary text, <s|> pieces", "<s>",
        ids(T1, [*B["<"], *B["s"], *B[">"]]), spec=SPECIAL, options=t(T1, disallowed_special=[]))
    tok("tok-15", "the longest special token at a position wins", "Hello<|end|>!",
        ids(T1, [CAP + ARG[0], "hello", "<|end|>!"]), spec=SPECIAL, options=t(T1, allowed_special="all"))
    tok("tok-16", "a special token at the end of the text", "Hello<|end|>",
        ids(T1, [CAP + ARG[0], "hello", "<|end|>"]), spec=SPECIAL, options=t(T1, allowed_special="all"))
    tok("tok-17", "each stretch is normalized alone: no NFC across <s>", "e<s>\u0301",
        ids(T1, ["e", "<s>", *B["acute"]]), spec=SPECIAL + ["normalize-modes"],
        options=t(T1, allowed_special=["<s>"]))
    tok("tok-18", "without the special token, e + U+0301 is ACUTE(0) e", "e\u0301",
        ids(T1, [ACUTE, ARG[0], "e"]), spec=SPECIAL + ["normalize-modes"], options=t(T1))
    v.error("tok-19", "a lone surrogate in the text", "tokenize", "a\ud800", "lone-surrogate", 1, None,
            spec=["tokenizer-encode", "normalize-surrogates"], options=t(T1))
    # --- the header (14.2): fuse, profile, a 1.0 file ---------------------------------------------
    tok("tok-20", "a 1.0 file, split_operators false: one pre-token, one id", "Hello",
        ids(T2, [CAP + ARG[0] + "hello"]), spec=["tokenizer-header", "pretokens-joined"], options=t(T2))
    tok("tok-21", "split_operators false: the group merges with its base", "Hello world",
        ids(T2, [CAP + ARG[0] + "hello", " world"]), spec=["tokenizer-header", "pretokens-joined"],
        options=t(T2))
    tok("tok-22", "fuse all in a 1.2 file: as split_operators false", "Hello",
        ids(T2F, [CAP + ARG[0] + "hello"]), spec=["tokenizer-header"], options=t(T2F))
    tok("tok-23", "compact profile: UPPERCASE(0,5) and hello", "HELLO",
        ids(T3, [UPPER, ARG[0], ARG[5], "hello"]), spec=["tokenizer-header", "encode-profiles"],
        options=t(T3))
    tok("tok-24", "compact: a lone capital keeps CAPITALIZE, in bytes here", "Hello",
        ids(T3, [*B["U+E100"], ARG[0], "hello"]), spec=["tokenizer-header", "tokenizer-greedy"],
        options=t(T3))
    # Hello World, fuse "frequent": one chain, CAP ARG0 h e l l o CAP ARG1 " " w o r l d. By rank:
    # 0 CAP+ARG0, 1 ll, 2 he, 3 hell, 4 hello, 5 " w", 6 or, 7 " wor", 8 ld, 9 " world",
    # 14 CAP+ARG0 + hello; CAP ARG1 has no merge.
    tok("tok-32", "fuse frequent: the chain merges CAPITALIZE(0) into hello", "Hello World",
        ids(T5, [CAP + ARG[0] + "hello", CAP, ARG[1], " world"]), spec=["tokenizer-header", "pretokens-chains"],
        options=t(T5))
    tok("tok-33", "the same text with fuse none: five tokens", "Hello World",
        ids(T1, [CAP + ARG[0], "hello", CAP, ARG[1], " world"]), spec=["tokenizer-header", "pretokens-split"],
        options=t(T1))
    # --- ranks and ties (14.5), ids from the file's own vocabulary (14.3) --------------------------
    tok("tok-25", "aaa, no folding: two a+a at rank 0, the leftmost merges", "aaa",
        ids(T3, ["aa", "a"]), spec=GREEDY, options=t(T3))
    tok("tok-26", "aaaa: a+a at 0, then a+a at 2", "aaaa",
        ids(T3, ["aa", "aa"]), spec=GREEDY, options=t(T3))
    tok("tok-27", "ababa: a+b at 0, a+b at 2, then ab+a: ab|aba", "ababa",
        ids(T3, ["ab", "aba"]), spec=GREEDY, options=t(T3))
    tok("tok-28", "ababa, optimal: aba|ba, the longest first token", "ababa",
        ids(T3, ["aba", "ba"]), spec=["tokenizer-encode", "segment-tiebreak"],
        options=t(T3, segmentation="optimal"))
    tok("tok-29", "ababa, prefer-greedy: greedy ab|aba is optimal", "ababa",
        ids(T3, ["ab", "aba"]), spec=["tokenizer-encode", "segment-tiebreak"],
        options=t(T3, segmentation="optimal", tie_break="prefer-greedy"))
    tok("tok-30", "a special token whose id comes after the bytes", "aaa<|endoftext|>",
        ids(T3, ["aa", "a", "<|endoftext|>"]), spec=SPECIAL, options=t(T3, allowed_special="all"))
    tok("tok-31", "a merge listed twice has the rank of its last place", "abc",
        ids(T4, ["ab", "c"]), spec=["tokenizer-model", "tokenizer-greedy"], options=t(T4))
    # --- optimal segmentation (10) over T6; each text is one pre-token ----------------------------
    # abcd, all candidates: abcd is a token, so cost[0] = 1 (10.2).
    # abcd, reachable only: cost[4..0] = 0, 1 (d), 1 (cd), 1 (bcd), 2 (a|bcd, ab|cd, abc|d); the
    # longest first token with 1 + cost[j] = 2 is abc (j = 3), then d (10.3).
    # Greedy abcd: c+d (rank 0), a+b (1), then ab cd has no merge: ab|cd, 2 tokens.
    tok("tok-34", "abcd, optimal: abcd is a token no merge builds; one suffices", "abcd",
        ids(T6, ["abcd"]), spec=["tokenizer-encode", "segment-dp"], options=t(T6, segmentation="optimal"))
    tok("tok-35", "abcd, reachable_only: abcd is dropped; abc|d is longest-first", "abcd",
        ids(T6, ["abc", "d"]), spec=["tokenizer-encode", "segment-domain", "segment-tiebreak"],
        options=t(T6, segmentation="optimal", reachable_only=True))
    tok("tok-36", "abcd, reachable_only, prefer-greedy: greedy ab|cd is optimal", "abcd",
        ids(T6, ["ab", "cd"]), spec=["tokenizer-encode", "segment-domain", "segment-tiebreak"],
        options=t(T6, segmentation="optimal", tie_break="prefer-greedy", reachable_only=True))
    # xabcd: x is no token, so its fallback edge costs 1 (<0x78>). All candidates: cost[1] = 1
    # (abcd), cost[3] = 1 (cd), cost[0] = 2 by the fallback edge (1 + cost[1]) and by xab
    # (1 + cost[3]); the longest edge is xab (j = 3), then cd.
    tok("tok-37", "xabcd: the token xab outranks x's shorter fallback edge", "xabcd",
        ids(T6, ["xab", "cd"]), spec=["tokenizer-encode", "segment-domain", "segment-tiebreak"],
        options=t(T6, segmentation="optimal"))
    # Reachable only: xab and abcd are dropped; cost[1] = 2 (a|bcd, ab|cd, abc|d), cost[0] = 3,
    # only by the fallback edge; then abc (j = 4, 1 + cost[4] = 2), then d.
    tok("tok-38", "xabcd, reachable_only: x falls back to a byte, then abc|d", "xabcd",
        ids(T6, [*B["x"], "abc", "d"]), spec=["tokenizer-encode", "segment-domain", "segment-dp"],
        options=t(T6, segmentation="optimal", reachable_only=True))
    # Greedy xabcd: <0x78> a b c d, then c+d, a+b: <0x78>|ab|cd, 3 ids, as many as cost[0].
    tok("tok-39", "xabcd, reachable_only, prefer-greedy: greedy's 3 ids are kept", "xabcd",
        ids(T6, [*B["x"], "ab", "cd"]), spec=["tokenizer-encode", "segment-tiebreak"],
        options=t(T6, segmentation="optimal", tie_break="prefer-greedy", reachable_only=True))

    # --- integer members written as floats (14.1): 1.0 is 1, 4.0 is 4 -------------------------------
    # abc: (b,c) rank 0 first: a|bc, no merge of a and bc.
    tok("tok-40", "ids written 0.0 and 4.0 are the ids 0 and 4", "abc",
        ids(T7_INT, ["a", "bc"]), spec=["tokenizer-file", "tokenizer-model", "tokenizer-greedy"], options=t(T7))
    # ab<s>: (a,b) rank 1 gives ab; <s> is allowed, its id written 261.0.
    tok("tok-41", "format_version 1.0 and an added-token id 261.0", "ab<s>",
        ids(T7_INT, ["ab", "<s>"]), spec=["tokenizer-file", "tokenizer-header", "tokenizer-encode"],
        options=t(T7, allowed_special="all"))
    dtok("dtok-27", "ids written as floats decode as their integers", ids(T7_INT, ["ab", "<s>", "bc"]),
         "ab<s>bc", spec=DECODE + ["tokenizer-file"], options=t(T7))

    # --- ids to text (14.6) ------------------------------------------------------------------------
    dtok("dtok-01", "two tokens: CAPITALIZE(0) and hello", ids(T1, [CAP + ARG[0], "hello"]), "Hello",
         spec=DECODE, options=t(T1))
    dtok("dtok-02", "the same stream in other tokens decodes the same", ids(T1, [CAP, ARG[0], "h", "e", "ll", "o"]),
         "Hello", spec=DECODE, options=t(T1))
    dtok("dtok-03", "a fused token and a word", ids(T1, [CAP + ARG[0] + "hello", " world"]), "Hello world",
         spec=DECODE, options=t(T1))
    dtok("dtok-04", "two byte tokens spell sharp s", ids(T1, B["sharp-s"]), "\u00df", spec=DECODE, options=t(T1))
    dtok("dtok-05", "four byte tokens spell an emoji", ids(T1, B["grin"]), "\U0001f600", spec=DECODE,
         options=t(T1))
    dtok("dtok-06", "byte tokens may spell an opcode of the stream", ids(T1, [*B["U+E100"], ARG[0], "hello"]),
         "Hello", spec=DECODE, options=t(T1))
    dtok("dtok-07", "special tokens are written as they are", ids(T1, ["<s>", CAP + ARG[0], "hello", "<|end|>"]),
         "<s>Hello<|end|>", spec=DECODE, options=t(T1))
    dtok("dtok-08", "skip_special_tokens leaves them out", ids(T1, ["<s>", CAP + ARG[0], "hello", "<|end|>"]),
         "Hello", spec=DECODE, options=t(T1, skip_special_tokens=True))
    dtok("dtok-09", "a group applies to the text of several tokens", ids(T1, [CAP, ARG[1], " w", "or", "ld"]),
         " World", spec=DECODE + ["decode-groups"], options=t(T1))
    dtok("dtok-10", "empty ids: empty text", [], "", spec=DECODE, options=t(T1))
    dtok("dtok-26", "the ids of a chain decode like any others",
         ids(T5, [CAP + ARG[0] + "hello", CAP, ARG[1], " world"]), "Hello World", spec=DECODE, options=t(T5))
    dtok("dtok-11", "the compact tokens of HELLO", ids(T3, [UPPER, ARG[0], ARG[5], "hello"]), "HELLO",
         spec=DECODE, options=t(T3))
    dtok("dtok-12", "a special token with a late id", ids(T3, ["aa", "a", "<|endoftext|>"]), "aaa<|endoftext|>",
         spec=DECODE, options=t(T3))
    # max_output bounds each stretch: REPEAT(0,5) "a" after "h" and <s> is 5 code points.
    dtok("dtok-13", "max_output counts each stretch on its own",
         ids(T1, ["h", "<s>", *B["U+E200"], ARG[0], *B["U+E005"], "a"]), "h<s>aaaaa",
         spec=DECODE + ["decode-limit"], options=t(T1, max_output=5))
    # --- errors: the first in id order (14.6) ------------------------------------------------------
    dtok("dtok-14", "a group before a special token dangles", ids(T1, [CAP + ARG[0], "<s>", "hello"]), None,
         error=("dangling-group", 0), lenient="<s>hello", spec=DECODE + ["decode-dangling"], options=t(T1))
    dtok("dtok-15", "an unknown id", ids(T1, ["hello", 999999]), None, error=("unknown-id", 1),
         lenient="hello\ufffd", spec=DECODE + ["tokenizer-errors"], options=t(T1))
    dtok("dtok-16", "a byte run cut short by a token", ids(T1, ["<0xC3>", "hello"]), None,
         error=("invalid-bytes", 0), lenient="\ufffdhello", spec=DECODE, options=t(T1))
    dtok("dtok-17", "C3 28: one U+FFFD for C3, then the parenthesis", ids(T1, ["<0xC3>", "<0x28>"]), None,
         error=("invalid-bytes", 0), lenient="\ufffd(", spec=DECODE, options=t(T1))
    dtok("dtok-18", "E2 82 at the end: one U+FFFD for the maximal subpart", ids(T1, ["<0xE2>", "<0x82>"]), None,
         error=("invalid-bytes", 0), lenient="\ufffd", spec=DECODE, options=t(T1))
    dtok("dtok-19", "FF is never UTF-8: the error is at its own id", ids(T1, ["<0x41>", "<0xFF>", "<0x42>"]),
         None, error=("invalid-bytes", 1), lenient="A\ufffdB", spec=DECODE, options=t(T1))
    dtok("dtok-20", "an encoded surrogate is three U+FFFD", ids(T1, ["<0xED>", "<0xA0>", "<0x80>"]), None,
         error=("invalid-bytes", 0), lenient="\ufffd\ufffd\ufffd", spec=DECODE + ["security-surrogates"],
         options=t(T1))
    dtok("dtok-21", "CAPITALIZE before an unknown id's U+FFFD is truncated", ids(T1, [CAP, 999999]), None,
         error=("truncated-instruction", 0), lenient="\ufffd", spec=DECODE + ["decode-parse"], options=t(T1))
    dtok("dtok-22", "an unknown id before a format error wins", ids(T1, [999999, CAP, ARG[1], "a"]), None,
         error=("unknown-id", 0), lenient="\ufffda", spec=DECODE + ["decode-positions"], options=t(T1))
    dtok("dtok-23", "a format error in bytes is at the sequence's first byte", ids(T1, ["a", *B["U+E100"]]),
         None, error=("truncated-instruction", 1), lenient="a", spec=DECODE + ["decode-parse"], options=t(T1))
    dtok("dtok-24", "CAPITALIZE(9) in bytes, past the slots: at its first byte",
         ids(T1, ["hello", *B["U+E100"], *B["U+E009"], " w", "or", "ld"]), None,
         error=("position-out-of-range", 1), lenient="hello world", spec=DECODE + ["decode-positions"],
         options=t(T1))
    dtok("dtok-25", "a repeat past max_output: at the opcode's first byte",
         ids(T1, ["h", *B["U+E200"], ARG[0], *B["U+E005"], "a"]), None, error=("output-too-large", 1),
         lenient="ha", spec=DECODE + ["decode-limit"], options=t(T1, max_output=5))
