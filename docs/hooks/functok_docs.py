"""The documentation site's build hook: it fills the pages from the sources the code uses.

mkdocs loads this file (mkdocs.yml ``hooks:``). In the Markdown of docs/*.md it replaces:

* ``{{ version }}``, ``{{ spec_version }}``, ``{{ suite_version }}``, ``{{ protocol_version }}``,
  ``{{ unicode_version }}``: from :data:`functok.__version__`, :data:`functok.SPEC_VERSION`, the
  ``suite_version`` of conformance/vectors/*.json, the runner's ``PROTOCOL_VERSION`` and
  spec/opcodes.json. The build fails if the sources disagree (opcodes.json and SPEC.md against
  ``SPEC_VERSION``, vector files against each other).
* ``<!-- functok:include PATH [section="HEADING" [heading=no]] [shift=N] -->``: the repository file
  PATH (or one section of it, with or without its heading line), its headings moved N levels down and its relative links pointed at the pages
  that hold their targets on this site (:data:`PAGE_OF`), so a file is included, never copied.
  With ``code=LANGUAGE`` the file is shown whole as a code block instead.
* ``<!-- functok:opcode-table -->``: the code point and error tables, from spec/opcodes.json.
* ``<!-- functok:figure TEXT -->``: a picture of TEXT as the codec encodes it, drawn from the
  real :func:`functok.pieces` output.

It also puts the versions in every page's footer and publishes the raw JSON files that pages
link to (:data:`DOWNLOADS`) under ``downloads/``.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
import sys
from functools import cache
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "python"))  # this checkout's functok, whatever is installed

import functok  # noqa: E402
from functok.cli import escape_private_use  # noqa: E402
from functok.conformance import PROTOCOL_VERSION, load_suite  # noqa: E402

# Repository files and the site page that holds each (the page includes it).
PAGE_OF = {
    "spec/SPEC.md": "spec.md",
    "spec/opcodes.json": "opcodes.md",
    "conformance/README.md": "implementers.md",
    "conformance/PROTOCOL.md": "protocol.md",
    "conformance/INTERPRETING.md": "interpreting.md",
    "conformance/CHANGELOG.md": "changelog.md#conformance-suite-changelog",
    "wasm/README.md": "browser.md",
    "web-demo/README.md": "browser.md#the-web-demo",
}
# Repository files served as they are, under downloads/ (schemas an implementer validates with).
DOWNLOADS = {
    "spec/opcodes.json": "downloads/opcodes.json",
    "conformance/schema/vectors.schema.json": "downloads/vectors.schema.json",
    "conformance/schema/protocol.schema.json": "downloads/protocol.schema.json",
}

INCLUDE = re.compile(r"<!--\s*functok:include\s+(\S+)((?:\s+\w+=(?:\"[^\"]*\"|\S+))*)\s*-->")
OPTION = re.compile(r"(\w+)=(?:\"([^\"]*)\"|(\S+))")
FIGURE = re.compile(r"<!--\s*functok:figure\s+(.+?)\s*-->")
OPCODE_TABLE = "<!-- functok:opcode-table -->"
PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")
LINK = re.compile(r"(\]\()([^)\s]+)(\))")
FENCE = re.compile(r"^(\s*)(```+|~~~+)")


# --- Versions ------------------------------------------------------------------------------

@cache
def versions() -> dict[str, str]:
    """Every version string the site shows, each read from the source the code uses."""
    table = json.loads((REPO / "spec/opcodes.json").read_text(encoding="utf-8"))
    suites = load_suite(REPO / "conformance/vectors").suite_versions
    found = {
        "version": functok.__version__,
        "spec_version": functok.SPEC_VERSION,
        "protocol_version": PROTOCOL_VERSION,
        "unicode_version": table["unicode_version"],
        "suite_version": ", ".join(sorted(suites)),
    }
    spec_md = re.search(r"\|\s*\*\*Version\*\*\s*\|\s*([^|\s]+)", (REPO / "spec/SPEC.md").read_text(encoding="utf-8"))
    problems = []
    if table["spec_version"] != functok.SPEC_VERSION:
        problems.append(f"spec/opcodes.json says {table['spec_version']}")
    if not spec_md or spec_md.group(1) != functok.SPEC_VERSION:
        problems.append(f"spec/SPEC.md says {spec_md.group(1) if spec_md else 'nothing'}")
    if len(suites) != 1:
        problems.append(f"the vector files disagree on suite_version: {sorted(suites)}")
    if problems:
        raise PluginError(f"functok.SPEC_VERSION is {functok.SPEC_VERSION}, but " + "; ".join(problems))
    return found


def fill_placeholders(markdown: str, page_path: str) -> str:
    def value(match: re.Match) -> str:
        name = match.group(1)
        if name not in versions():
            raise PluginError(f"{page_path}: unknown placeholder {{{{ {name} }}}}")
        return versions()[name]
    return PLACEHOLDER.sub(value, markdown)


# --- Including repository files ------------------------------------------------------------

def include(match: re.Match, page_path: str) -> str:
    source = match.group(1)
    options = {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
               for m in OPTION.finditer(match.group(2) or "")}
    path = REPO / source
    if not path.is_file():
        raise PluginError(f"{page_path}: cannot include {source}: no such file")
    text = path.read_text(encoding="utf-8")
    if "code" in options:  # a source file shown whole, as a code block
        return f"```{options['code']} title=\"{source}\"\n{text.rstrip()}\n```\n"
    if "section" in options:
        text = section(text, options["section"], source)
        if options.get("heading") == "no":  # the section's body, under the page's own heading
            text = text.partition("\n")[2]
    text = shift_headings(text, int(options.get("shift", 0)))
    return relink(text, source, page_path)


def section(text: str, title: str, source: str) -> str:
    """The lines from the heading whose title starts with TITLE to the next heading of its level."""
    lines = list(outside_fences(text))
    headings = [heading(line, fenced) for line, fenced in lines]
    for start, found in enumerate(headings):
        if found and found[1].startswith(title):
            end = next((i for i in range(start + 1, len(lines)) if headings[i] and headings[i][0] <= found[0]),
                       len(lines))
            return "".join(line for line, _ in lines[start:end])
    raise PluginError(f"{source} has no heading starting with {title!r}")


def heading(line: str, fenced: bool) -> tuple[int, str] | None:
    """(level, title) of an ATX heading line outside code blocks, else None."""
    found = None if fenced else re.match(r"(#{1,6})\s+(.*)", line)
    return (len(found.group(1)), found.group(2)) if found else None


def outside_fences(text: str):
    """(line, inside a fenced code block?) for each line."""
    fence = None
    for line in text.splitlines(keepends=True):
        opened = FENCE.match(line)
        if fence is None and opened:
            fence = opened.group(2)
            yield line, True
        elif fence is not None:
            if line.strip().startswith(fence) and line.strip().strip(fence[0]) == "":
                fence = None
            yield line, True
        else:
            yield line, False


def shift_headings(text: str, levels: int) -> str:
    if not levels:
        return text
    return "".join("#" * levels + line if heading(line, fenced) else line
                   for line, fenced in outside_fences(text))


def relink(text: str, source: str, page_path: str) -> str:
    """Point the included file's relative links at the pages (or downloads) holding the targets."""
    here = posixpath.dirname(source)

    def target(match: re.Match) -> str:
        url = match.group(2)
        if re.match(r"[a-z][a-z0-9+.-]*:", url):  # https:, mailto: ...
            return match.group(0)
        path, _, fragment = url.partition("#")
        repo_path = posixpath.normpath(posixpath.join(here, path)) if path else source
        if repo_path in DOWNLOADS and not fragment and path:
            new = DOWNLOADS[repo_path]
        elif repo_path in PAGE_OF:
            page = PAGE_OF[repo_path]
            if fragment:
                page = page.partition("#")[0] + "#" + fragment
            new = page
        else:
            return match.group(0) + "\0"  # no page holds it: unlinked below
        if not path and PAGE_OF.get(source, "").partition("#")[0] == page_path:
            new = "#" + fragment  # an anchor on this very page
        return f"{match.group(1)}{relative(new, page_path)}{match.group(3)}"

    linked = "".join(line if fenced else LINK.sub(target, line) for line, fenced in outside_fences(text))
    # A link to something the site does not hold (a folder of the repository): keep its text.
    return re.sub(r"\[([^\]]*)\]\([^)\s]+\)\0", r"\1 (in the repository)", linked)


def relative(target: str, page_path: str) -> str:
    return posixpath.relpath(target, posixpath.dirname(page_path) or ".") if target[0] != "#" else target


def functok_fences(text: str) -> str:
    """The spec's example blocks (info string ``functok-example``) shown as titled JSON."""
    return re.sub(r"^(\s*)```functok-example\s*$", r'\1```json title="functok-example"', text, flags=re.M)


# --- The opcode table ----------------------------------------------------------------------

def opcode_table(table: dict | None = None) -> str:
    """Markdown tables of the code points and error kinds of ``table`` (default: spec/opcodes.json)."""
    if table is None:
        table = json.loads((REPO / "spec/opcodes.json").read_text(encoding="utf-8"))
    rows = [("code point", "name", "family", "arguments", "meaning", "since")]
    arg = table["argument"]
    rows.append((f"{arg['first']}..{arg['last']}", "argument", "", "", arg["meaning"], arg["since"]))
    ranges = [(r["first"], "reserved", r.get("purpose", "")) for r in table["reserved"]]
    ranges += [(r["first"], "unassigned", "") for r in table["unassigned"]]
    spans = {r["first"]: r["last"] for r in table["reserved"] + table["unassigned"]}
    entries = [(op["code_point"], op) for op in table["opcodes"]] + [(first, kind) for first, kind, _ in ranges]
    purposes = {first: purpose for first, _, purpose in ranges}
    for code_point, entry in sorted(entries, key=lambda e: int(e[0][2:], 16)):
        if isinstance(entry, dict):
            args = ", ".join(f"`{a['name']}` ({a['min']}..{a['max']})" for a in entry["args"])
            mark = f" (mark {entry['mark']})" if "mark" in entry else ""
            rows.append((code_point, f"**{entry['name']}**", entry["family"], args, entry["meaning"] + mark, entry["since"]))
        else:
            rows.append((f"{code_point}..{spans[code_point]}", entry, "", "", purposes[code_point], ""))
    esc = table["escape"]
    rows.append((esc["code_point"], f"**{esc['name']}**", "", "", esc["meaning"], esc["since"]))
    errors = [("kind", "trigger", "offset", "lenient decoding")]
    errors += [(f"`{e['kind']}`", e["trigger"], e["offset"], e["lenient"]) for e in table["errors"]]
    precedence = table["error_precedence"]
    order = ", ".join(f"`{kind}`" for kind in precedence["order"])
    return (f"Format version **{table['spec_version']}**, Unicode {table['unicode_version']}.\n\n"
            f"{markdown_table(rows)}\n\n## Error kinds\n\n{markdown_table(errors)}\n\n"
            f"**Precedence.** {precedence['rule']} Order: {order}.\n")


def markdown_table(rows: list[tuple[str, ...]]) -> str:
    cell = lambda s: str(s).replace("|", "\\|")  # noqa: E731
    lines = ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    lines.insert(1, "|" + "---|" * len(rows[0]))
    return "\n".join(lines)


# --- The figure of an encoded sentence -----------------------------------------------------

@cache
def families() -> dict[str, str]:
    table = json.loads((REPO / "spec/opcodes.json").read_text(encoding="utf-8"))
    return {op["name"]: op["family"] for op in table["opcodes"]}


def figure(text: str) -> str:
    """A table with one column per piece: its text, its instructions as chips, and its base.

    Drawn from the real codec output, and checked to round-trip, at every build.
    """
    shown = lambda s: html.escape(s.replace(" ", "\u2423"))  # noqa: E731  (␣ marks a space)
    found = functok.pieces(text)
    chips = ["".join(f'<span class="ft-chip ft-{families()[i.name]}">{html.escape(str(i))}</span>'
                     for i in piece.instructions) for piece in found]
    rows = [("piece", [f'<span class="ft-text">{shown(p.text)}</span>' for p in found]),
            ("instructions", chips),
            ("base", [f'<span class="ft-base">{shown(p.base)}</span>' for p in found])]
    body = "".join(f'<tr><th scope="row">{name}</th>' + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"
                   for name, cells in rows)
    stream = functok.encode(text)
    if functok.decode(stream) != functok.normalize.nfc(text):
        raise PluginError(f"the figure's round trip failed for {text!r}")
    label = html.escape(f"{text} encoded by functok {functok.__version__}", quote=True)
    return (f'<figure class="ft-figure" aria-label="{label}"><table class="ft-table">{body}</table>'
            f'<figcaption>The stream: {len(stream)} code points for {len(text)}, its private-use code '
            f'points written <code>\\uXXXX</code>:<br><code>{html.escape(escape_private_use(stream))}</code>'
            f'</figcaption></figure>')


# --- mkdocs events -------------------------------------------------------------------------

def on_config(config):
    v = versions()
    config["copyright"] = (f"functok {v['version']} · format {v['spec_version']} · "
                           f"conformance suite {v['suite_version']} · protocol {v['protocol_version']} · "
                           f"Unicode {v['unicode_version']}")
    return config


def on_files(files, config):
    for source, target in DOWNLOADS.items():
        files.append(File.generated(config, target, abs_src_path=str(REPO / source)))
    return files


def on_page_markdown(markdown, page, config, files):
    return render(markdown, page.file.src_uri)


def render(markdown: str, path: str) -> str:
    """The page's Markdown as mkdocs renders it (tests/docs/test_docs.py runs its examples from this)."""
    markdown = fill_placeholders(markdown, path)
    markdown = INCLUDE.sub(lambda m: include(m, path), markdown)
    markdown = markdown.replace(OPCODE_TABLE, opcode_table())
    markdown = FIGURE.sub(lambda m: figure(html.unescape(m.group(1))), markdown)
    return functok_fences(markdown)
