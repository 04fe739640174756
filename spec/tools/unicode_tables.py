"""The pinned Unicode tables of the format (spec section 3, "Character data"), for generate.py.

Makes the normative, human-readable tables ``spec/unicode/*.txt`` and their packed Python form
``python/functok/_ucd_data.py`` (decoded by the hand-written ``functok._ucd``). The C and
JavaScript tables are made from the text tables (c_tables.py, js_tables.py). Everything comes
from one pinned Unicode version:

* ``unicodedata2`` 18.0.0: General_Category, canonical decompositions, canonical combining
  classes and the reference NFC (used only to decide which decompositions recompose).
* ``regex`` 2026.11.15 (also Unicode 18.0.0), for the one thing ``unicodedata2`` lacks: case.
  Its case-insensitive equivalence classes (simple case folding) and its Uppercase / Lowercase
  properties determine the simple case pairs (see ``case_pairs``). The host interpreter's own
  ``str.lower``/``str.upper`` are never used: they follow the host's older Unicode version.

The output is deterministic: it depends only on the two pinned packages and ``spec/opcodes.json``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import regex
import unicodedata2 as ucd
from regex import _regex

UNICODE_VERSION = "18.0.0"
UNICODEDATA2_VERSION = "18.0.0"
REGEX_VERSION = "2026.11.15"

REPO = Path(__file__).resolve().parents[2]
OPCODES_JSON = REPO / "spec" / "opcodes.json"
TABLE_DIR = Path("spec") / "unicode"
UCD_DATA_PY = Path("python") / "functok" / "_ucd_data.py"
GENERATOR = "spec/tools/generate.py"

MAX_CP = 0x10FFFF
SURROGATES = range(0xD800, 0xE000)

# Hangul syllables decompose and compose algorithmically (Unicode 3.12); the tables leave them out.
HANGUL_S_BASE, HANGUL_S_COUNT = 0xAC00, 11172
HANGUL_V_FIRST, HANGUL_V_LAST = 0x1161, 0x1175
HANGUL_T_FIRST, HANGUL_T_LAST = 0x11A8, 0x11C2  # T_BASE + 1 .. T_BASE + 27

# U+0130 and U+0131 take part in case-insensitive matching only through the Turkic foldings
# (regex adds them to the classes of I and i). Neither is ever a member of a simple pair:
# lower(U+0130) = i but upper(i) = I; upper(U+0131) = I but lower(I) = i.
TURKIC_DOTTED_DOTLESS = frozenset({0x0130, 0x0131})

# Lowercase letters that share a case-folding class with an uppercase letter but have no simple
# uppercase mapping of their own, so no pair: U+00DF (its uppercase is "SS"; U+1E9E lowercases
# to it, but it does not uppercase to U+1E9E). Checked against an independent oracle by the tests.
NO_SIMPLE_UPPERCASE = frozenset({0x00DF})


def is_scalar(cp: int) -> bool:
    return cp not in SURROGATES


def all_code_points():
    return (cp for cp in range(MAX_CP + 1) if is_scalar(cp))


def u(cp: int) -> str:
    return f"{cp:04X}"


def name(cp: int) -> str:
    return ucd.name(chr(cp), f"<U+{u(cp)}>")


# --------------------------------------------------------------------------------------------
# The 13 marks (spec 2.3), in opcode order, from spec/opcodes.json.


def the_13_marks(opcodes_path: Path = OPCODES_JSON) -> list[int]:
    table = json.loads(opcodes_path.read_text(encoding="utf-8"))
    marks = [
        int(op["mark"].removeprefix("U+"), 16)
        for op in table["opcodes"]
        if op.get("family") == "mark"
    ]
    if len(marks) != 13 or len(set(marks)) != 13:
        raise SystemExit(f"expected 13 distinct marks in {opcodes_path}, got {marks}")
    return marks


# --------------------------------------------------------------------------------------------
# Ranges


def to_ranges(cps) -> list[tuple[int, int]]:
    """Sorted, merged inclusive ranges of a set of code points."""
    out: list[list[int]] = []
    for cp in sorted(cps):
        if out and cp == out[-1][1] + 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return [(a, b) for a, b in out]


def valued_ranges(values: dict[int, object]) -> list[tuple[int, int, object]]:
    """Inclusive ranges of consecutive code points that share one value."""
    out: list[list] = []
    for cp in sorted(values):
        v = values[cp]
        if out and cp == out[-1][1] + 1 and out[-1][2] == v:
            out[-1][1] = cp
        else:
            out.append([cp, cp, v])
    return [tuple(r) for r in out]


def fmt_range(a: int, b: int) -> str:
    return u(a) if a == b else f"{u(a)}..{u(b)}"


# --------------------------------------------------------------------------------------------
# Splitter classes


def splitter_classes() -> dict[str, list[tuple[int, int]]]:
    letters, numbers, white = set(), set(), set()
    for cp in all_code_points():
        gc = ucd.category(chr(cp))
        if gc[0] == "L":
            letters.add(cp)
        elif gc[0] == "N":
            numbers.add(cp)
        # White_Space (PropList.txt) is every Zs, Zl and Zp character plus the controls
        # U+0009..U+000D and U+0085. U+001C..U+001F are not in it (str.isspace disagrees).
        if gc in ("Zs", "Zl", "Zp"):
            white.add(cp)
    white.update(range(0x0009, 0x000E))
    white.add(0x0085)
    return {"L": to_ranges(letters), "N": to_ranges(numbers), "White_Space": to_ranges(white)}


# --------------------------------------------------------------------------------------------
# Case pairs


def _binary_property(prop: str):
    prop_id = _regex.get_properties()[prop.upper()][0]
    value = (prop_id << 16) | 1
    return lambda cp: bool(_regex.has_property_value(value, cp))


def case_folding_classes() -> list[tuple[int, ...]]:
    """The classes of code points that are equal under simple case folding (Unicode 18)."""
    seen: set[int] = set()
    classes = []
    for cp in all_code_points():
        if cp in seen or cp in TURKIC_DOTTED_DOTLESS:
            continue
        members = set(_regex.get_all_cases(regex.IGNORECASE, cp)) - TURKIC_DOTTED_DOTLESS
        if len(members) > 1:
            assert not members & seen, f"case classes overlap at U+{u(cp)}"
            seen |= members
            classes.append(tuple(sorted(members)))
    return classes


def case_pairs() -> list[tuple[int, int]]:
    """Bijective simple case pairs (U, l): lower(U) == l and upper(l) == U, one code point each.

    Within a simple case-folding class the pair, if any, is:
      l = the Lowercase member that is the folding target (or the only Lowercase member: in
          Cherokee the folding target is the uppercase letter);
      U = the only Uppercase member that is not an alias of another member (an alias is a
          singleton decomposition to a member: KELVIN SIGN, OHM SIGN, ANGSTROM SIGN, U+03F4),
          or, where there is no Uppercase member, the only titlecase (Lt) member (the Greek
          letters with prosgegrammeni: U+1F88 pairs with U+1F80).
    Classes without such a U or l (U+01C5 and the other titlecase digraphs are neither) and the
    letters in NO_SIMPLE_UPPERCASE give no pair. The tests check this rule against an
    independent source of simple case mappings on every character both know.
    """
    is_upper = _binary_property("Uppercase")
    is_lower = _binary_property("Lowercase")
    pairs = []
    for members in case_folding_classes():
        folds = {ord(_regex.fold_case(regex.IGNORECASE, chr(cp))) for cp in members}
        lowers = [cp for cp in members if is_lower(cp)]
        targets = [cp for cp in lowers if cp in folds]
        if len(targets) == 1:
            lower = targets[0]
        elif len(lowers) == 1:
            lower = lowers[0]
        else:
            continue
        if lower in NO_SIMPLE_UPPERCASE:
            continue
        uppers = [cp for cp in members if is_upper(cp) and not _is_alias(cp, members)]
        if not uppers:
            uppers = [cp for cp in members if ucd.category(chr(cp)) == "Lt"]
        if len(uppers) > 1:
            raise SystemExit(f"ambiguous case class {[u(cp) for cp in members]}")
        if uppers:
            pairs.append((uppers[0], lower))
    pairs.sort()
    uppers_seen = [p[0] for p in pairs]
    lowers_seen = [p[1] for p in pairs]
    assert len(set(uppers_seen)) == len(pairs) and len(set(lowers_seen)) == len(pairs)
    return pairs


def _is_alias(cp: int, members) -> bool:
    fields = [f for f in ucd.decomposition(chr(cp)).split() if not f.startswith("<")]
    return len(fields) == 1 and int(fields[0], 16) in members


# --------------------------------------------------------------------------------------------
# NFC data


def is_hangul_syllable(cp: int) -> bool:
    return HANGUL_S_BASE <= cp < HANGUL_S_BASE + HANGUL_S_COUNT


def canonical_mappings() -> dict[int, tuple[int, ...]]:
    """The one-level canonical Decomposition_Mapping of every character (Hangul excluded)."""
    out = {}
    for cp in all_code_points():
        if is_hangul_syllable(cp):
            continue
        d = ucd.decomposition(chr(cp))
        if d and not d.startswith("<"):
            out[cp] = tuple(int(x, 16) for x in d.split())
    return out


def full_decomposition(cp: int, mappings) -> tuple[int, ...]:
    if cp not in mappings:
        return (cp,)
    return tuple(x for part in mappings[cp] for x in full_decomposition(part, mappings))


def combining_classes() -> dict[int, int]:
    return {cp: c for cp in all_code_points() if (c := ucd.combining(chr(cp)))}


def composition_exclusions(mappings) -> list[int]:
    """Full_Composition_Exclusion: the characters with a canonical decomposition that NFC does
    not give back (singletons, non-starter decompositions and CompositionExclusions.txt)."""
    return sorted(cp for cp in mappings if ucd.normalize("NFC", chr(cp)) != chr(cp))


def nfc_quick_check(mappings, exclusions) -> dict[int, str]:
    """NFC_QC: N for Full_Composition_Exclusion; M for every character that can combine with a
    preceding character: the second of a canonical composition pair (including the Hangul V and
    T jamo), and, since Unicode 16.0, a composite whose full decomposition starts with one
    (U+113C5 = U+113C2 U+113C2, where U+113C2 is itself a second); Y otherwise."""
    excluded = set(exclusions)
    seconds = {parts[1] for cp, parts in mappings.items() if cp not in excluded and len(parts) == 2}
    seconds |= set(range(HANGUL_V_FIRST, HANGUL_V_LAST + 1))
    seconds |= set(range(HANGUL_T_FIRST, HANGUL_T_LAST + 1))
    qc = {cp: "M" for cp in seconds}
    for cp in mappings:
        if cp not in excluded and full_decomposition(cp, mappings)[0] in seconds:
            qc[cp] = "M"
    qc.update({cp: "N" for cp in exclusions})
    return qc


# --------------------------------------------------------------------------------------------
# Decompositions over the 13 marks


def mark_decompositions(mappings, marks: list[int]) -> list[tuple[int, int, tuple[int, ...]]]:
    """(composed, base, marks) for every character whose full canonical decomposition is one
    base code point followed only by marks among the 13 (at least one), and which NFC of that
    sequence gives back. Marks are in canonical decomposition order."""
    mark_set = set(marks)
    out = []
    for cp in sorted(mappings):
        base, *rest = full_decomposition(cp, mappings)
        if not rest or not all(m in mark_set for m in rest):
            continue
        if ucd.normalize("NFC", "".join(map(chr, [base, *rest]))) != chr(cp):
            continue
        out.append((cp, base, tuple(rest)))
    return out


# --------------------------------------------------------------------------------------------
# Writing the tables


def header(body: str, extra: str = "") -> str:
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    first = (
        f"# Generated by {GENERATOR} from unicodedata2 {UNICODEDATA2_VERSION} "
        f"(Unicode {UNICODE_VERSION}){extra}. Do not edit.\n"
    )
    return first + f"# SHA-256 of the body (every line after this one): {digest}\n"


def table(description: str, lines: list[str], extra: str = "") -> str:
    body = "".join(f"# {d}\n" if d else "#\n" for d in description.strip("\n").split("\n"))
    body += "".join(line + "\n" for line in lines)
    return header(body, extra) + body


def classes_txt(classes) -> str:
    lines = []
    for cls in ("L", "N", "White_Space"):
        lines.append("")
        lines.append(f"# {cls}: {sum(b - a + 1 for a, b in classes[cls])} code points")
        lines.extend(f"{fmt_range(a, b):<14}; {cls}" for a, b in classes[cls])
    return table(
        """The splitter's character classes.
L = General_Category L* (Lu Ll Lt Lm Lo), N = General_Category N* (Nd Nl No),
White_Space = the White_Space property (PropList.txt): every Zs, Zl and Zp character plus
U+0009..U+000D and U+0085. U+001C..U+001F are not White_Space.
Format: first..last ; class (inclusive ranges, sorted, merged).""",
        lines,
    )


def case_pairs_txt(pairs) -> str:
    lines = [f"{u(a)} ; {u(b)} # {name(a)} ; {name(b)}" for a, b in pairs]
    return table(
        f"""Bijective simple case pairs ({len(pairs)}): upper ; lower, with simple
Lowercase_Mapping(upper) = lower and simple Uppercase_Mapping(lower) = upper, one code point each.
Not pairs, for example: U+0130, U+0131, U+017F, U+1E9E, U+00DF, U+03F4, KELVIN SIGN, and the
titlecase digraphs U+01C5, U+01C8, U+01CB, U+01F2.
Derived from the simple case-folding classes and the Uppercase/Lowercase properties of
regex {REGEX_VERSION} (Unicode {UNICODE_VERSION}); see case_pairs() in the generator.""",
        lines,
        extra=f" and regex {REGEX_VERSION}",
    )


def decompositions_txt(decomps) -> str:
    lines = [
        f"{u(cp)} ; {u(base)} ; {' '.join(map(u, ms))} # {name(cp)}" for cp, base, ms in decomps
    ]
    return table(
        f"""Decompositions over the 13 marks ({len(decomps)}): composed ; base ; marks.
Every character whose full canonical decomposition is one base code point followed only by
marks among U+0303 U+0301 U+0300 U+0302 U+0308 U+0304 U+0307 U+030A U+030B U+030C U+0326
U+0327 U+0328 (at least one), and which NFC of base + marks gives back. Marks are listed in
canonical decomposition order; the composition table is the inverse of this one.""",
        lines,
    )


def nfc_decompositions_txt(mappings) -> str:
    lines = [f"{u(cp)} ; {' '.join(map(u, parts))}" for cp, parts in sorted(mappings.items())]
    return table(
        f"""Canonical Decomposition_Mapping ({len(mappings)} characters): character ; mapping.
One level, as in UnicodeData.txt; the full decomposition applies it recursively.
Hangul syllables U+AC00..U+D7A3 are left out: they decompose algorithmically.""",
        lines,
    )


def combining_classes_txt(ccc) -> str:
    lines = [f"{fmt_range(a, b):<14}; {v}" for a, b, v in valued_ranges(ccc)]
    return table(
        f"""Canonical_Combining_Class, for the {len(ccc)} characters whose class is not 0.
Format: first..last ; class. Every other code point has class 0.""",
        lines,
    )


def composition_exclusions_txt(exclusions) -> str:
    lines = [fmt_range(a, b) for a, b in to_ranges(exclusions)]
    return table(
        f"""Full_Composition_Exclusion ({len(exclusions)} characters): characters with a
canonical decomposition that canonical composition never produces (singletons, non-starter
decompositions and the script-specific exclusions of CompositionExclusions.txt).""",
        lines,
    )


def nfc_quick_check_txt(qc) -> str:
    lines = [f"{fmt_range(a, b):<14}; {v}" for a, b, v in valued_ranges(qc)]
    counts = {v: sum(1 for x in qc.values() if x == v) for v in ("N", "M")}
    return table(
        f"""NFC_Quick_Check: N ({counts['N']} characters) = Full_Composition_Exclusion;
M ({counts['M']}) = the characters that can combine with a preceding character: the second
of a canonical composition pair (including the Hangul V and T jamo), and a composite whose full
decomposition starts with such a character. Every other code point is Y.
Format: first..last ; N|M.""",
        lines,
    )


# --------------------------------------------------------------------------------------------
# The runtime module


def case_runs(pairs) -> list[tuple[int, int, int, int]]:
    """Pairs as runs (first_upper, count, stride, delta): upper = first_upper + k*stride and
    lower = upper + delta for k < count. A-Z is one run, the alternating Latin Extended-A is one."""
    runs: list[list[int]] = []
    for up, low in pairs:
        delta = low - up
        if runs:
            first, count, stride, d = runs[-1]
            last = first + (count - 1) * stride
            if d == delta and (count == 1 and up - last in (1, 2) or up - last == stride):
                if count == 1:
                    runs[-1][2] = up - last
                runs[-1][1] += 1
                continue
        runs.append([up, 1, 1, delta])
    return [tuple(r) for r in runs]


def wrap(items: list[str], indent: str = "    ", width: int = 99) -> str:
    lines, line = [], indent
    for item in items:
        if len(line) + len(item) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += item + " "
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def packed_literal(entries: list[str]) -> str:
    """A space-separated ASCII string, split over lines by implicit concatenation. (Strings
    compile much faster than tuples of int literals, which matters where no .pyc is cached, as
    under Pyodide; the module decodes them at import.)"""
    chunks = wrap(entries, indent="", width=92).split("\n")
    return "(\n" + "\n".join(f'    "{c} "' for c in chunks) + "\n)"


def packed_ranges(rows) -> str:
    """Ranges as "first..last" (or "cp") in hex, with ":value" in hex where rows carry one."""

    def entry(row):
        first, last, *values = row
        span = f"{first:x}" if first == last else f"{first:x}..{last:x}"
        return ":".join([span, *(f"{v:x}" for v in values)])

    return packed_literal([entry(r) for r in rows])


def ucd_data_py(classes, pairs, decomps, marks, mappings, ccc, exclusions, qc) -> str:
    """The packed data of functok._ucd (which decodes it at import), the same data as the text
    tables."""

    def h(cp):
        return f"{cp:x}"

    mark_index = {m: f"{i:x}" for i, m in enumerate(marks)}
    decomp_entries = [
        f"{h(cp)}:{h(base)}:{''.join(mark_index[m] for m in ms)}" for cp, base, ms in decomps
    ]
    canon_entries = [
        ":".join(h(x) for x in (cp, *parts)) for cp, parts in sorted(mappings.items())
    ]
    run_entries = [":".join(f"{v:x}" for v in run) for run in case_runs(pairs)]
    qc_no = [cp for cp, v in qc.items() if v == "N"]
    qc_maybe = [cp for cp, v in qc.items() if v == "M"]
    # NFC_Quick_Check No is Full_Composition_Exclusion by definition: the module stores it once.
    assert to_ranges(qc_no) == to_ranges(exclusions)
    marks_literal = "".join(f"\\u{m:04x}" for m in marks)
    return f'''\
# Generated by {GENERATOR} from unicodedata2 {UNICODEDATA2_VERSION} (Unicode {UNICODE_VERSION}) and regex {REGEX_VERSION}. Do not edit.
"""Pinned Unicode {UNICODE_VERSION} data for functok (spec section 3), packed in hex strings.

The normative, readable tables are spec/unicode/*.txt; functok._ucd decodes these strings at
import. Strings compile much faster than tuples of int literals, which matters where no .pyc is
cached, as under Pyodide. Ranges are "first..last" (or one code point), with ":value" where a
range carries one.
"""

UNICODE_VERSION = "{UNICODE_VERSION}"

# The 13 marks (spec 2.3) in opcode order (U+E101..U+E10D).
MARKS = "{marks_literal}"

# General_Category L*, N*, and the White_Space property.
LETTER_RANGES = {packed_ranges(classes["L"])}
NUMBER_RANGES = {packed_ranges(classes["N"])}
WHITE_SPACE_RANGES = {packed_ranges(classes["White_Space"])}

# Simple case pairs as runs first_upper:count:stride:delta, meaning
# upper = first_upper + k * stride and lower = upper + delta, for 0 <= k < count.
CASE_RUNS = {packed_literal(run_entries)}

# composed:base:marks; each mark is one hex digit, its index in MARKS.
MARK_DECOMPOSITIONS = {packed_literal(decomp_entries)}

# Canonical decomposition mappings, one level: char:part[:part] (Hangul excluded).
CANONICAL_MAPPINGS = {packed_literal(canon_entries)}

# Canonical combining classes other than 0: first..last:class.
COMBINING_CLASS_RANGES = {packed_ranges(valued_ranges(ccc))}

# Full_Composition_Exclusion (= NFC_Quick_Check No).
COMPOSITION_EXCLUSION_RANGES = {packed_ranges(to_ranges(exclusions))}

# NFC_Quick_Check Maybe.
NFC_QC_MAYBE_RANGES = {packed_ranges(to_ranges(qc_maybe))}
'''


# --------------------------------------------------------------------------------------------


def generate() -> dict[Path, str]:
    """Every file this module makes, by its path under the repository."""
    check_pinned_versions()
    marks = the_13_marks()
    classes = splitter_classes()
    pairs = case_pairs()
    mappings = canonical_mappings()
    ccc = combining_classes()
    exclusions = composition_exclusions(mappings)
    qc = nfc_quick_check(mappings, exclusions)
    decomps = mark_decompositions(mappings, marks)
    return {
        TABLE_DIR / "classes.txt": classes_txt(classes),
        TABLE_DIR / "case_pairs.txt": case_pairs_txt(pairs),
        TABLE_DIR / "decompositions.txt": decompositions_txt(decomps),
        TABLE_DIR / "nfc_decompositions.txt": nfc_decompositions_txt(mappings),
        TABLE_DIR / "combining_classes.txt": combining_classes_txt(ccc),
        TABLE_DIR / "composition_exclusions.txt": composition_exclusions_txt(exclusions),
        TABLE_DIR / "nfc_quick_check.txt": nfc_quick_check_txt(qc),
        UCD_DATA_PY: ucd_data_py(classes, pairs, decomps, marks, mappings, ccc, exclusions, qc),
    }


def check_pinned_versions() -> None:
    if ucd.unidata_version != UNICODE_VERSION:
        raise SystemExit(f"unicodedata2 has Unicode {ucd.unidata_version}, need {UNICODE_VERSION}")
    if regex.__version__ != REGEX_VERSION:
        raise SystemExit(f"regex is {regex.__version__}, need {REGEX_VERSION}")
