"""Slot indexes 255 and 256: instructions reach slots 0..255 only."""

AREA = "slots"
TITLE = "Slot limits: 255 is the last slot an instruction can name"

ENC = ["encode", "terms-definitions"]
DEC = ["decode-procedure", "decode-groups"]

# A lowercase word with no run and no repeated unit: the alphabet, cycled. Its period (26)
# is longer than any MULTIREPEAT unit (8), so every letter is one literal slot.
ABC = "abcdefghijklmnopqrstuvwxyz"


def word(n: int) -> str:
    return (ABC * (n // 26 + 1))[:n]


def with_char(text: str, index: int, char: str) -> str:
    return text[:index] + char + text[index + 1:]


def declare(v):
    w300 = word(300)  # w300[255] == "v", w300[256] == "w"
    assert w300[255] == "v" and w300[256] == "w"

    v.encode("slot-cap-01", "capital at slot 255 gets CAPITALIZE(255)", with_char(w300, 255, "V"),
             f'CAPITALIZE(255) "{w300}"', spec=ENC + ["encode-marks-case"])
    v.encode("slot-cap-02", "capital at slot 256 stays literal", with_char(w300, 256, "W"),
             f'"{with_char(w300, 256, "W")}"', spec=ENC + ["encode-marks-case"])
    both = with_char(with_char(w300, 255, "V"), 256, "W")
    v.encode("slot-cap-03", "capitals at slots 255 and 256", both,
             f'CAPITALIZE(255) "{with_char(w300, 256, "W")}"', spec=ENC + ["encode-marks-case"])
    v.encode("slot-cap-04", "capital at slot 0 and at slot 299", with_char(with_char(w300, 0, "A"), 299, "N"),
             f'CAPITALIZE(0) "{with_char(w300, 299, "N")}"', spec=ENC + ["encode-marks-case"])
    v.encode("slot-mark-01", "acute at slot 255 gets ACUTE(255)", with_char(w300, 255, "\u00e9"),
             f'ACUTE(255) "{with_char(w300, 255, "e")}"', spec=ENC + ["encode-marks-case"])
    e_acute, cap_e_acute = "\u00e9", "\u00c9"
    v.encode("slot-mark-02", "acute at slot 256 stays precomposed", with_char(w300, 256, e_acute),
             f'"{with_char(w300, 256, e_acute)}"', spec=ENC + ["encode-marks-case"])
    v.encode("slot-mark-03", "capital with acute at slot 256 stays literal", with_char(w300, 256, cap_e_acute),
             f'"{with_char(w300, 256, cap_e_acute)}"', spec=ENC + ["encode-marks-case"])
    v.encode("slot-mark-04", "U+0130 at slot 255", with_char(w300, 255, "\u0130"),
             f'DOT_ABOVE(255) CAPITALIZE(255) "{with_char(w300, 255, "i")}"', spec=ENC + ["encode-marks-case"])

    # Slots count folded positions, not code points.
    v.encode("slot-fold-01", "slot index counts a REPEAT as one slot", "a" * 255 + "bC",
             'REPEAT(0,255) CAPITALIZE(2) "abc"', spec=ENC + ["encode-fold"])
    v.encode("slot-fold-02", "a capital 271 code points in, at slot 17", "q" * 255 + ABC[:16] + "Z",
             'REPEAT(0,255) CAPITALIZE(17) "q' + ABC[:16] + 'z"', spec=ENC + ["encode-fold"])
    w255 = word(255)  # slots 0..254; w255[-1] == "u"
    v.encode("slot-fold-03", "a run starting at slot 255 folds", w255 + "zzz",
             f'REPEAT(255,3) "{w255}z"', spec=ENC + ["encode-fold"])
    w256 = word(256)  # ends in "v"
    v.encode("slot-fold-04", "a run starting at slot 256 stays literal", w256 + "zzz",
             f'"{w256}zzz"', spec=ENC + ["encode-fold"])
    w254 = word(254)  # ends in "t"
    v.encode("slot-fold-05", "long run from slot 254: two REPEATs then literals", w254 + "a" * 600,
             f'REPEAT(254,255) REPEAT(255,255) "{w254}aa' + "a" * 90 + '"', spec=ENC + ["encode-fold"])
    w253 = word(253)  # ends in "s"
    v.encode("slot-fold-06", "MULTIREPEAT ending at 255 is allowed", w253 + "xyxyxy",
             f'MULTIREPEAT(253,255,3) "{w253}xy"', spec=ENC + ["encode-fold"])
    v.encode("slot-fold-07", "MULTIREPEAT ending at 256 is not made", w254 + "xyxyxy",
             f'"{w254}xyxyxy"', spec=ENC + ["encode-fold"])
    v.encode("slot-fold-08", "unit of three ending at 255", word(252) + "xyzxyzxyz",
             f'MULTIREPEAT(252,255,3) "{word(252)}xyz"', spec=ENC + ["encode-fold"])
    v.encode("slot-fold-09", "capital in a run at slot 255", w255 + "ZZZ",
             f'REPEAT(255,3) CAPITALIZE(255) "{w255}z"', spec=ENC + ["encode-fold", "encode-serialize"])
    v.encode("slot-fold-10", "run of 3 capitals at slot 256 stays literal", w256 + "ZZZ",
             f'"{w256}ZZZ"', spec=ENC + ["encode-fold"])

    v.encode("slot-fold-11", "chunks after slot 255 are literal copies", w255 + "z" * 600,
             f'REPEAT(255,255) "{w255}z' + "z" * 345 + '"', spec=ENC + ["encode-fold"])
    v.encode("slot-fold-12", "run of three at slot 254", word(254) + "zzz",
             f'REPEAT(254,3) "{word(254)}z"', spec=ENC + ["encode-fold"])
    v.encode("slot-fold-13", "a run of 300 starting at slot 255", w255 + "z" * 300,
             f'REPEAT(255,255) "{w255}z' + "z" * 45 + '"', spec=ENC + ["encode-fold"])
    v.encode("slot-fold-14", "two capitals around the limit in one piece", "Q" + w300[1:255] + "XY",
             f'CAPITALIZE(0) CAPITALIZE(255) "q{w300[1:255]}xY"', spec=ENC + ["encode-marks-case", "encode-serialize"])

    # Decoding: instructions name slots 0..255 of text that may be much longer.
    v.decode("slot-dec-01", "CAPITALIZE(255) on a 300-slot group", f'CAPITALIZE(255) "{w300}"',
             with_char(w300, 255, "V"), spec=DEC, roundtrip=True)
    v.decode("slot-dec-02", "REPEAT(255,3) on the 256th slot", f'REPEAT(255,3) "{w255}z"',
             w255 + "zzz", spec=DEC + ["decode-repeats"], roundtrip=True)
    v.decode("slot-dec-03", "ACUTE(255) in a group spanning many tokens",
             'ACUTE(255) ' + " ".join(f'"{w300[i:i + 10]}"' for i in range(0, 300, 10)),
             with_char(w300, 255, "v\u0301"), spec=DEC + ["decode-marks"], roundtrip=False)
