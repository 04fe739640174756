"""Pre-tokens for BPE: split_operators true (default) and false, and the fuse rules (spec 9)."""

AREA = "pretokens"
TITLE = "Pre-tokens and split_operators"

SPEC = ["pretokens-split", "pretokens-invariant"]
SPEC_J = ["pretokens-joined", "pretokens-invariant"]
JOINED = {"split_operators": False}


def declare(v):
    p = v.pretokens
    p("pre-01", "one instruction, then the base", "Hello", ['CAPITALIZE(0)', '"hello"'], spec=SPEC)
    p("pre-02", "joined: group and base are one pre-token", "Hello", ['CAPITALIZE(0) "hello"'],
      options=JOINED, spec=SPEC_J)
    p("pre-03", "each instruction is its own pre-token", "H\u00e9llo world",
      ['ACUTE(1)', 'CAPITALIZE(0)', '"hello"', '" world"'], spec=SPEC)
    p("pre-04", "joined: each piece is one pre-token", "H\u00e9llo world",
      ['ACUTE(1) CAPITALIZE(0) "hello"', '" world"'], options=JOINED, spec=SPEC_J)
    p("pre-05", "plain text: one pre-token per piece", "plain text", ['"plain"', '" text"'], spec=SPEC)
    p("pre-06", "joined plain text is the same", "plain text", ['"plain"', '" text"'],
      options=JOINED, spec=SPEC_J)
    p("pre-07", "empty input has no pre-tokens", "", [], spec=SPEC)
    p("pre-08", "empty input, joined", "", [], options=JOINED, spec=SPEC_J)
    p("pre-09", "escaped base is one pre-token", "\ue000", ['ESCAPE "\ue000"'], spec=SPEC + ["encode-escape"])
    p("pre-10", "REPEAT with its two arguments", "######", ['REPEAT(0,6)', '"#"'], spec=SPEC + ["encode-fold"])
    p("pre-11", "MULTIREPEAT with its three arguments", "abcabcabc",
      ['MULTIREPEAT(0,3,3)', '"abc"'], spec=SPEC + ["encode-fold"])
    p("pre-12", "joined MULTIREPEAT", "abcabcabc", ['MULTIREPEAT(0,3,3) "abc"'], options=JOINED,
      spec=SPEC_J + ["encode-fold"])
    p("pre-13", "pieces of a number: llama3", "1000000",
      ['"100"', 'REPEAT(0,3)', '"0"', '"0"'], spec=SPEC + ["split-patterns"])
    p("pre-14", "paper splitter: one pre-token per digit", "1000000",
      ['"1"', '"0"', '"0"', '"0"', '"0"', '"0"', '"0"'], options={"splitter": "paper"},
      spec=SPEC + ["split-patterns"])
    p("pre-15", "four instructions in canonical order", "\u00c9COLE",
      ['ACUTE(0)', 'CAPITALIZE(0)', 'CAPITALIZE(1)', 'CAPITALIZE(2)', 'CAPITALIZE(3)',
       'CAPITALIZE(4)', '"ecole"'], spec=SPEC + ["encode-serialize"])
    p("pre-16", "joined, four instructions", "\u00c9COLE",
      ['ACUTE(0) CAPITALIZE(0) CAPITALIZE(1) CAPITALIZE(2) CAPITALIZE(3) CAPITALIZE(4) "ecole"'],
      options=JOINED, spec=SPEC_J + ["encode-serialize"])
    p("pre-17", "NFC applies before pre-tokens", "e\u0301", ['ACUTE(0)', '"e"'], spec=SPEC + ["normalize-nfc"])
    p("pre-18", "without NFC the mark is its own pre-token", "e\u0301", ['"e"', '"\u0301"'],
      options={"normalize": None}, spec=SPEC + ["normalize-nfc"])
    p("pre-19", "spaces then a word", "    x", ['REPEAT(0,3)', '" "', '" x"'], spec=SPEC + ["encode-fold"])
    p("pre-25", "two spaces then a word: no fold", "   x", ['"  "', '" x"'], spec=SPEC + ["encode-fold"])
    p("pre-20", "escape inside a base with a group", "\ue000A",
      ['CAPITALIZE(1)', 'ESCAPE "\ue000" "a"'], spec=SPEC + ["encode-escape"])
    p("pre-21", "joined, escape inside a base", "\ue000A", ['CAPITALIZE(1) ESCAPE "\ue000" "a"'],
      options=JOINED, spec=SPEC_J + ["encode-escape"])
    p("pre-22", "three pieces, middle one plain", "Hi there Bob",
      ['CAPITALIZE(0)', '"hi"', '" there"', 'CAPITALIZE(1)', '" bob"'], spec=SPEC)
    p("pre-23", "capital at code point 256 is slot 2", "a" * 256 + "B",
      ['REPEAT(0,255)', 'CAPITALIZE(2)', '"aab"'], spec=SPEC + ["terms-definitions"])
    word = ("abcdefghijklmnopqrstuvwxyz" * 10)[:256]
    p("pre-26", "capital at slot 256 gives no instruction", word + "B",
      [f'"{word}B"'], spec=SPEC + ["encode-marks-case"])
    p("pre-24", "newline run pre-tokens", "x\n\n\n", ['"x"', 'REPEAT(0,3)', '"\\n"'], spec=SPEC + ["encode-fold"])
    declare_chains(v)


SPEC_C = ["pretokens-chains", "pretokens-invariant"]
CHAINS = {"fuse": "frequent"}


def declare_chains(v):
    """fuse="frequent" (spec 9.4, since 1.2.0): a piece with a group joins the pre-token before it."""
    p = v.pretokens
    p("pre-chain-01", "a piece with a group joins the one before it", "Hello World",
      ['CAPITALIZE(0) "hello" CAPITALIZE(1) " world"'], options=CHAINS, spec=SPEC_C)
    p("pre-chain-02", "a piece without a group starts a new chain", "see Hello, you",
      ['"see" CAPITALIZE(1) " hello"', '","', '" you"'], options=CHAINS, spec=SPEC_C)
    p("pre-chain-03", "plain text: one pre-token per piece", "plain text", ['"plain"', '" text"'],
      options=CHAINS, spec=SPEC_C)
    p("pre-chain-04", "empty input has no pre-tokens", "", [], options=CHAINS, spec=SPEC_C)
    p("pre-chain-05", "the first piece starts a chain even with a group", "Hi there Bob",
      ['CAPITALIZE(0) "hi"', '" there" CAPITALIZE(1) " bob"'], options=CHAINS, spec=SPEC_C)
    p("pre-chain-06", "an escaped base is no group: it starts a chain", "x\ue000",
      ['"x"', 'ESCAPE "\ue000"'], options=CHAINS, spec=SPEC_C + ["encode-escape"])
    p("pre-chain-07", "a group before an escaped base joins", "x\ue000A",
      ['"x" CAPITALIZE(1) ESCAPE "\ue000" "a"'], options=CHAINS, spec=SPEC_C + ["encode-escape"])
    p("pre-chain-08", "compact: two UPPERCASE pieces form one chain", "HELLO WORLD",
      ['UPPERCASE(0,5) "hello" UPPERCASE(0,6) " world"'], options={**CHAINS, "profile": "compact"},
      spec=SPEC_C + ["encode-profiles"])
    p("pre-chain-09", "a folded whitespace piece joins the newline before it", "x\n    y",
      ['"x"', '"\\n" REPEAT(0,3) " "', '" y"'], options=CHAINS, spec=SPEC_C + ["encode-fold"])
    p("pre-chain-10", "every piece in capitals: one chain", "A B C",
      ['CAPITALIZE(0) "a" CAPITALIZE(1) " b" CAPITALIZE(1) " c"'], options=CHAINS, spec=SPEC_C)
    p("pre-fuse-01", "fuse none is split_operators true", "Hello", ['CAPITALIZE(0)', '"hello"'],
      options={"fuse": "none"}, spec=SPEC)
    p("pre-fuse-02", "fuse all is split_operators false", "Hello", ['CAPITALIZE(0) "hello"'],
      options={"fuse": "all"}, spec=SPEC_J)
    p("pre-fuse-03", "fuse wins over split_operators", "Hello", ['CAPITALIZE(0)', '"hello"'],
      options={"fuse": "none", "split_operators": False}, spec=SPEC)
