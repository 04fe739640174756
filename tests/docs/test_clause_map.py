"""ARCHITECTURE.md's clause map stays true: one table, spec clause -> Python, C, JavaScript and
vectors, with every clause a row and every name a real definition; and the section numbers that
the code's file headers cite are clauses of spec/SPEC.md that fit the file.

Which clauses are normative: every numbered heading of SPEC.md (``## 7 Decoding``, ``### 7.1
Groups and text``). The spec's status line makes the whole document normative and marks its
informative paragraphs inside the clauses ("(Informative.) ..."), never a whole numbered clause,
so every numbered heading needs a row. The two appendices carry anchors and have rows too; the
unnumbered "Conformance language" has neither.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARCHITECTURE = REPO / "ARCHITECTURE.md"
SPEC = REPO / "spec" / "SPEC.md"
PACKAGE = REPO / "python" / "functok"
NATIVE = REPO / "native" / "core"
JS = REPO / "js" / "src"
VECTORS = REPO / "conformance" / "vectors"

# A row: | [7.1](spec/SPEC.md#decode-groups) | `functok.grammar.GROUP` | `decoding.c:read_text` | ... |
ROW = re.compile(r"^\| \[(?P<label>[^\]]+)\]\(spec/SPEC\.md#(?P<anchor>[a-z0-9-]+)\) \|(?P<cells>.*)\|\s*$", re.M)
CODE = re.compile(r"`([^`]+)`")
NONE = "—"  # a cell that names nothing: that implementation has no code of its own for the clause


@dataclass(frozen=True)
class Row:
    label: str  # "7.1", "6.2, the range rule", "Appendix A"
    anchor: str
    python: tuple[str, ...]
    c: tuple[str, ...]
    js: tuple[str, ...]
    vectors: tuple[str, ...]

    @property
    def clause(self) -> str:
        return self.label.split(",")[0]


def parse_cell(cell: str) -> tuple[str, ...]:
    cell = cell.strip()
    if cell == NONE:
        return ()
    names = tuple(CODE.findall(cell))
    assert names and CODE.sub("", cell).replace(",", "").strip() == "", f"a cell holds more than `names`: {cell!r}"
    return names


def rows() -> list[Row]:
    out = []
    for m in ROW.finditer(ARCHITECTURE.read_text(encoding="utf-8")):
        cells = m["cells"].split(" | ")
        assert len(cells) == 4, f"row {m['label']}: expected Python, C, JavaScript and vectors, got {cells}"
        out.append(Row(m["label"], m["anchor"], *(parse_cell(c) for c in cells)))
    return out


ROWS = rows()


# -- the spec's clauses ----------------------------------------------------------------------------

ANCHOR = re.compile(r'<a id="([a-z0-9-]+)"></a>')
HEADING = re.compile(r"^#{2,3} (?:(\d+(?:\.\d+)?) |(Appendix [A-Z])\b)")
NUMBERED = re.compile(r"^#{2,3} (\d+(?:\.\d+)?) ", re.M)


def spec_clauses() -> dict[str, str]:
    """Anchor -> the number ("7.1") or name ("Appendix A") of its heading: the heading on the next
    line, or, for an anchor inside a clause's text (6.2's range rule), the clause it stands in."""
    out, current = {}, None
    lines = SPEC.read_text(encoding="utf-8").splitlines()
    for at, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading:
            current = heading[1] or heading[2]
        for anchor in ANCHOR.findall(line):
            below = HEADING.match(lines[at + 1]) if line.startswith("<a id=") and at + 1 < len(lines) else None
            number = (below[1] or below[2]) if below else current
            assert number, f"SPEC.md's anchor #{anchor} stands under no numbered heading"
            out[anchor] = number
    return out


CLAUSES = spec_clauses()


def test_the_table_is_there():
    assert len(ROWS) >= len(CLAUSES) > 70, "ARCHITECTURE.md's clause map was not found whole"


def test_every_numbered_heading_has_an_anchor():
    numbered = NUMBERED.findall(SPEC.read_text(encoding="utf-8"))
    missing = sorted(set(numbered) - set(CLAUSES.values()), key=lambda n: [int(x) for x in n.split(".")])
    assert not missing, f"SPEC.md's numbered headings without an anchor before them: {missing}"


def test_every_clause_has_a_row():
    mapped = {row.anchor for row in ROWS}
    missing = [f"{number} (#{anchor})" for anchor, number in CLAUSES.items() if anchor not in mapped]
    assert not missing, f"ARCHITECTURE.md's clause map has no row for these clauses of SPEC.md: {missing}"


def test_every_row_cites_its_clause_by_number_and_anchor():
    wrong = [f"{row.label} -> #{row.anchor}" for row in ROWS if CLAUSES.get(row.anchor) != row.clause]
    assert not wrong, f"rows whose number and anchor are not one heading of SPEC.md: {wrong}"


def test_every_row_names_python_code():
    empty = [row.label for row in ROWS if not row.python]
    assert not empty, f"rows with no Python entry point (the reference implements every clause): {empty}"


# -- Python ------------------------------------------------------------------------------------------


def resolve(dotted: str):
    """The object a dotted name like functok.decoding.decode or functok.tokenizer.tokenizer.Tokenizer.encode
    names: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            target = getattr(target, attribute)
        return target
    raise ModuleNotFoundError(dotted)


@pytest.mark.parametrize("name", sorted({n for row in ROWS for n in row.python}))
def test_each_python_name_exists(name):
    assert name.startswith("functok"), f"{name}: a Python name is written whole, from functok"
    resolve(name)


# -- C: file:function, the file in native/core/ -------------------------------------------------------


def c_defines(text: str, name: str) -> bool:
    """A function definition (its body follows its parameters), an inline one in a header, or a
    macro: a declaration alone does not count."""
    function = re.compile(rf"^[A-Za-z_][\w \t*]*\b{re.escape(name)}\s*\([^;{{]*\)\s*\{{", re.M)
    macro = re.compile(rf"^#define {re.escape(name)}\b", re.M)
    return bool(function.search(text) or macro.search(text))


@pytest.mark.parametrize("entry", sorted({n for row in ROWS for n in row.c}))
def test_each_c_function_is_defined_in_its_file(entry):
    file, _, function = entry.partition(":")
    path = NATIVE / file
    assert path.is_file(), f"{entry}: native/core/{file} does not exist"
    defined = c_defines(path.read_text(encoding="utf-8"), function)
    assert defined, f"{entry}: no definition of {function} in {file}"


# -- JavaScript: module:function or module:Class.method, the module in js/src/ ---------------------


def js_defines(text: str, name: str) -> bool:
    declared = re.compile(rf"^(?:export\s+)?(?:async\s+)?(?:function\*?|class|const|let|var)\s+{re.escape(name)}\b", re.M)
    listed = re.compile(rf"^export\s*\{{[^}}]*\b{re.escape(name)}\b[^}}]*\}}", re.M)
    return bool(declared.search(text) or listed.search(text))


def js_class_has_method(text: str, cls: str, method: str) -> bool:
    body = re.search(rf"^(?:export\s+)?class\s+{re.escape(cls)}\b.*?^\}}", text, re.M | re.S)
    return bool(body and re.search(rf"^\s+(?:static\s+)?(?:async\s+)?#?{re.escape(method)}\s*\(", body[0], re.M))


@pytest.mark.parametrize("entry", sorted({n for row in ROWS for n in row.js}))
def test_each_js_name_is_defined_in_its_module(entry):
    module, _, name = entry.partition(":")
    path = JS / module
    assert path.suffix == ".mjs" and path.is_file(), f"{entry}: js/src/{module} does not exist"
    text = path.read_text(encoding="utf-8")
    top, _, method = name.partition(".")
    defined = js_defines(text, top)
    assert defined, f"{entry}: {top} is neither defined nor exported in {module}"
    has_method = not method or js_class_has_method(text, top, method)
    assert has_method, f"{entry}: class {top} has no method {method}"


# -- vectors ----------------------------------------------------------------------------------------


def vector_files_citing() -> dict[str, set[str]]:
    """Clause -> the vector files (by stem) with a vector whose `spec` field cites it."""
    out: dict[str, set[str]] = {}
    for path in sorted(VECTORS.glob("*.json")):
        for vector in json.loads(path.read_text(encoding="utf-8"))["tests"]:
            cited = vector["spec"] if isinstance(vector["spec"], list) else [vector["spec"]]
            for clause in cited:
                out.setdefault(str(clause), set()).add(path.stem)
    return out


def test_each_vectors_file_exists():
    missing = sorted({f"{row.label}: {name}" for row in ROWS for name in row.vectors
                      if not (VECTORS / f"{name}.json").is_file()})
    assert not missing, f"the clause map names vector files that conformance/vectors/ lacks: {missing}"


def test_the_vectors_of_each_clause_are_the_files_that_cite_it():
    """A clause's first row names exactly the files whose vectors cite it; a further row of the
    same clause (6.2's range rule) names some of them."""
    citing, seen, wrong = vector_files_citing(), set(), []
    for row in ROWS:
        expected, named = citing.get(row.clause, set()), set(row.vectors)
        if row.clause not in seen and named != expected:
            wrong.append(f"{row.label}: names {sorted(named)}, the vectors cite it in {sorted(expected)}")
        elif row.clause in seen and not named <= expected:
            wrong.append(f"{row.label}: names {sorted(named - expected)}, which cite it nowhere")
        seen.add(row.clause)
    assert not wrong, "the clause map's vectors column against the vectors' `spec` fields:\n" + "\n".join(wrong)
    uncited = sorted(set(citing) - seen)
    assert not uncited, f"vectors cite clauses that the map has no row for: {uncited}"


# -- the code's file headers ----------------------------------------------------------------------------

HEADER_FILES = sorted([*PACKAGE.rglob("*.py"), *NATIVE.glob("*.[ch]"), *JS.rglob("*.mjs")])

NUMBER = r"\d+(?:\.\d+)?(?![.\d]*\d)"  # 7 or 7.1, never a version such as 1.2.0
LIST = rf"{NUMBER}(?:(?:,\s*|\s+and\s+|\s+to\s+|\s*[/–-]\s*){NUMBER})*"
# "spec 7", "spec section 7", "sections 3 and 5.1", "Spec 6.1 to 6.4", "spec 7.1/7.2", "spec 14.1–14.3"
INTRODUCED = re.compile(rf"\b(?:spec(?:\s+sections?)?|sections?)\s+({LIST})", re.I)
# bare clause numbers in brackets: "(7.1)", "(7.4, 7.5)", "(9, pretokens.c)", "(5)"
BRACKETED = re.compile(rf"(?<![\w)])\((\d+\.\d+(?:,\s*\d+\.\d+)*|\d+(?=\)|,\s*[A-Za-z]))")


def header(path: Path) -> str:
    """The file's opening comment: a module's docstring without its doctests, a C file's first
    block comment, a JavaScript module's leading // lines. A generated file's first line (its
    generator's name, not a citation) is left out."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        doc = ast.get_docstring(ast.parse(text), clean=True) or ""
        return re.sub(r"^\s*(>>>|\.\.\.).*(\n(?!\s*\n).*)*", "", doc, flags=re.M)
    if path.suffix in (".c", ".h"):
        comment = re.match(r"\s*(?:/\*.*?Generated by.*?\*/\s*)?/\*(.*?)\*/", text, re.S)
        return re.sub(r"^\s*\*", "", comment[1], flags=re.M) if comment else ""
    lines = []
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:])
    return "\n".join(lines)


def citations(text: str) -> list[list[str]]:
    """Each citation of the text, in order, as the clause numbers it lists ("sections 3 and 5.1":
    ["3", "5.1"])."""
    found = sorted([*INTRODUCED.finditer(text), *BRACKETED.finditer(text)], key=lambda m: m.start())
    return [re.findall(NUMBER, m[1]) for m in found]


def cited_clauses(text: str) -> list[str]:
    return [number for citation in citations(text) for number in citation]


def title(text: str) -> str:
    """The header's first sentence, where it says what the file is."""
    return re.split(r"\.\s|\n\s*\n", text.strip(), maxsplit=1)[0]


def test_headers_are_found_and_cite_clauses():
    """The parsing above finds what it should: if it found nothing, every check below would pass."""
    cited = {path.name: cited_clauses(header(path)) for path in HEADER_FILES}
    assert cited["decoding.c"][:3] == ["7", "8", "7.1"], cited["decoding.c"]
    assert cited["splitting.py"] == ["5"] and cited["bpe.c"][0] == "14.5", (cited["splitting.py"], cited["bpe.c"])
    assert sum(map(len, cited.values())) > 100


@pytest.mark.parametrize("path", HEADER_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_each_cited_section_exists(path):
    numbers = set(CLAUSES.values())
    missing = [n for n in cited_clauses(header(path)) if n not in numbers]
    assert not missing, f"{path.relative_to(REPO)}'s header cites sections SPEC.md does not have: {missing}"


def file_of_python_name(dotted: str) -> Path | None:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        path = PACKAGE.parent.joinpath(*parts[:cut])
        for candidate in (path.with_suffix(".py"), path / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def clauses_by_file() -> dict[Path, set[str]]:
    """Each file the clause map names (a Python module, a C file, a JavaScript module) and the
    clauses of the rows that name it."""
    out: dict[Path, set[str]] = {}
    for row in ROWS:
        files = [file_of_python_name(n) for n in row.python]
        files += [NATIVE / entry.split(":")[0] for entry in row.c]
        files += [JS / entry.split(":")[0] for entry in row.js]
        for file in files:
            if file is not None:
                out.setdefault(file.resolve(), set()).add(row.clause)
    return out


def related(a: str, b: str) -> bool:
    """One clause is the other, or holds it (7 and 7.1)."""
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def test_each_header_title_cites_a_clause_of_its_file():
    """A file the clause map names says in its first sentence which clauses it implements: each
    clause of the title's first citation is a clause (or a part or the whole of one) that the map
    gives it; later citations may name clauses it calls on. Files the map does not name (the bindings, the
    engine seams) are held to the check above."""
    mapped, wrong = clauses_by_file(), []
    for path in HEADER_FILES:
        own = mapped.get(path.resolve())
        if own is None:
            continue
        for number in (citations(title(header(path))) or [[]])[0]:
            if not any(related(number, clause) for clause in own):
                wrong.append(f"{path.relative_to(REPO)} cites {number}; the map gives it {sorted(own)}")
    assert not wrong, "file headers whose title cites a clause the file does not implement:\n" + "\n".join(wrong)


def test_the_tests_headers_name_modules_that_exist():
    """A test file's docstring that names a functok module or function names one that exists."""
    wrong = []
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        for name in sorted(set(re.findall(r"\bfunctok(?:\.[A-Za-z_]\w*)+", doc))):
            try:
                resolve(name)
            except (ImportError, AttributeError):
                wrong.append(f"{path.name}: {name}")
    assert not wrong, f"test docstrings that name no module or function of functok: {wrong}"
