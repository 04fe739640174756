"""The documentation site (mkdocs.yml, docs/): it builds with --strict and without the network,
loads nothing from outside, shows the spec, the opcode table and the API from the sources the
code uses, shows the package's own version strings, and every code example in it runs and
prints what the page shows.

The examples are read from each page's Markdown *as the site renders it* (after the build hook,
docs/hooks/functok_docs.py, has filled in versions and included files), so an example inside an
included file (conformance/README.md...) is covered too. Each fenced block is one of:

* ``python`` with ``>>>`` prompts: a doctest; the blocks of one page share one namespace;
* ``console``: ``$ command`` lines, each followed by its output (``...`` matches anything, as in
  doctest), run by bash in order, one empty folder per block;
* ``sh``: commands shown, not run (installs, long runs); every ``functok`` line must parse;
* ``python`` without prompts: only the conformance README's adapter, run by its own test;
* data and diagrams (``json``, ``text``, no language), and the browser guide's ``js`` and ``ts``
  (the Node tests in wasm/test/ run that API against its types).
"""

from __future__ import annotations

import doctest
import html.parser
import importlib.util
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import functok
from functok.cli import build_parser
from functok.conformance import PROTOCOL_VERSION, load_suite

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
BIN = Path(sys.executable).parent
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def load_hook():
    spec = importlib.util.spec_from_file_location("functok_docs_hook", DOCS / "hooks" / "functok_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = load_hook()


def pages() -> list[str]:
    return sorted(str(p.relative_to(DOCS)) for p in DOCS.glob("*.md"))


def rendered(page: str) -> str:
    return HOOK.render((DOCS / page).read_text(encoding="utf-8"), page)


FENCE = re.compile(r"^( *)(```+)[ \t]*([\w-]*)[^\n]*\n(.*?)^\1\2[ \t]*$", re.M | re.S)


def blocks(page: str) -> list[tuple[str, str, int]]:
    """(language, code, line) of each fenced block of the rendered page, indentation removed."""
    text = rendered(page)
    found = []
    for m in FENCE.finditer(text):
        indent = len(m.group(1))
        code = "".join(line[indent:] if line[:indent].isspace() else line
                       for line in m.group(4).splitlines(keepends=True))
        found.append((m.group(3), code, text.count("\n", 0, m.start()) + 1))
    return found


# --- The build -----------------------------------------------------------------------------

# Run mkdocs with every way out to the network closed: any connection attempt fails the build.
NO_NETWORK = """
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("test_docs: the docs build tried to reach the network: %r" % (args,))
socket.socket.connect = socket.socket.connect_ex = refuse
socket.create_connection = socket.getaddrinfo = refuse
from mkdocs.__main__ import cli
sys.argv = ["mkdocs"] + sys.argv[1:]
cli()
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-c", NO_NETWORK, "build", "--strict", "--site-dir", str(out)],
                          cwd=REPO, env=ENV, capture_output=True, text=True, timeout=600)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    assert "WARNING" not in log and "Zensical" not in log, log
    return out


def page_html(site: Path, page: str) -> str:
    name = "index.html" if page == "index.md" else f"{page[:-3]}/index.html"
    return (site / name).read_text(encoding="utf-8")


def text_of(html_text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html_text))


def test_every_page_is_built_and_in_the_nav(site):
    for page in pages():
        assert "md-nav__link" in page_html(site, page)
    nav = page_html(site, "index.md")
    for page in pages():
        if page != "index.md":
            assert f'href="{page[:-3]}/"' in nav, f"{page} is not in the navigation"


# --- Offline -------------------------------------------------------------------------------

class Resources(html.parser.HTMLParser):
    """URLs a browser loads by itself from a page (not links the reader may follow)."""

    LOADED = {("script", "src"), ("img", "src"), ("iframe", "src"), ("source", "src"), ("video", "src"),
              ("audio", "src"), ("embed", "src"), ("object", "data"), ("image", "href"), ("use", "href")}

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for t, attr in self.LOADED:
            if tag == t and attrs.get(attr):
                self.urls.append(attrs[attr])
        if tag == "link" and attrs.get("href") and attrs.get("rel") not in ("canonical", "alternate", None):
            self.urls.append(attrs["href"])  # stylesheet, icon, preload, preconnect, manifest...
        if attrs.get("style"):
            self.urls += re.findall(r"url\(\s*['\"]?([^'\")]+)", attrs["style"])


CSS_URL = re.compile(r"@import\s+['\"]([^'\"]+)|url\(\s*['\"]?([^'\")]+)")


def external(url: str) -> bool:
    return bool(re.match(r"\s*(https?:)?//", url, re.I))


def test_site_loads_nothing_from_outside(site):
    loaded = []
    for path in site.rglob("*.html"):
        parser = Resources()
        parser.feed(path.read_text(encoding="utf-8"))
        loaded += [(path.relative_to(site), url) for url in parser.urls if external(url)]
    for path in site.rglob("*.css"):
        for match in CSS_URL.finditer(path.read_text(encoding="utf-8")):
            url = match.group(1) or match.group(2)
            if external(url):
                loaded.append((path.relative_to(site), url))
    assert loaded == []
    # mkdocs-material's script loads from a CDN only for Mermaid diagrams (none here) and, opened
    # from file://, for search: the site is meant to be served (functok docs, any static server).
    for path in site.rglob("*.html"):
        assert 'class="mermaid"' not in path.read_text(encoding="utf-8")


def test_the_checker_sees_an_external_resource():
    assert [m.group(1) or m.group(2) for m in CSS_URL.finditer(
        "@import 'https://a.b/c.css'; x { background: url(//cdn.x/y.woff2) } y { src: url('f.woff') }")] == [
        "https://a.b/c.css", "//cdn.x/y.woff2", "f.woff"]
    parser = Resources()
    parser.feed('<link rel="stylesheet" href="https://fonts.googleapis.com/css"><a href="https://x.org">x</a>'
                '<script src="//cdn.example/x.js"></script><img src="../a.png">')
    assert [u for u in parser.urls if external(u)] == ["https://fonts.googleapis.com/css", "//cdn.example/x.js"]


def test_offline_settings_are_kept():
    config = re.sub(r"#.*", "", (REPO / "mkdocs.yml").read_text(encoding="utf-8"))  # settings, not comments
    assert re.search(r"^\s+font: false", config, re.M)
    assert "privacy" not in config and "inventories" not in config and "import:" not in config
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'"mkdocs>=1\.6,<2"', pyproject), "pin mkdocs<2 in the dev extras"


# --- Versions ------------------------------------------------------------------------------

def test_versions_on_every_page_come_from_the_package(site):
    suite = load_suite(REPO / "conformance" / "vectors").suite_versions
    assert len(suite) == 1
    table = json.loads((REPO / "spec" / "opcodes.json").read_text(encoding="utf-8"))
    footer = (f"functok {functok.__version__} · format {functok.SPEC_VERSION} · conformance suite "
              f"{suite.pop()} · protocol {PROTOCOL_VERSION} · Unicode {table['unicode_version']}")
    for path in site.rglob("*.html"):
        assert footer in path.read_text(encoding="utf-8"), path
    assert f"functok {functok.__version__}, format {functok.SPEC_VERSION}" in text_of(page_html(site, "index.md"))
    for page in pages():
        assert "{{" not in rendered(page), f"{page}: a placeholder was left unfilled"


def test_pages_write_no_version_by_hand():
    """Versions come from placeholders; only records of the past (changelog, benchmarks) name one."""
    for page in set(pages()) - {"changelog.md", "benchmarks.md"}:
        source = (DOCS / page).read_text(encoding="utf-8")
        for version in {functok.__version__, functok.SPEC_VERSION, PROTOCOL_VERSION}:
            assert version not in source, f"{page} writes {version}: use a {{{{ placeholder }}}}"


def test_a_version_mismatch_fails_the_build(monkeypatch):
    hook = load_hook()
    monkeypatch.setattr(hook.functok, "SPEC_VERSION", "9.9.9")
    with pytest.raises(hook.PluginError, match="9.9.9"):
        hook.versions()


def test_an_unknown_placeholder_fails_the_build():
    with pytest.raises(HOOK.PluginError, match="nonsense"):
        HOOK.fill_placeholders("{{ nonsense }}", "x.md")


# --- The spec, the opcode table and the API come from their sources ------------------------

def test_spec_page_is_spec_md_included(site):
    spec = (REPO / "spec" / "SPEC.md").read_text(encoding="utf-8")
    built = page_html(site, "spec.md")
    for anchor in re.findall(r'<a id="([^"]+)"></a>', spec):
        assert f'id="{anchor}"' in built, anchor
    for heading in re.findall(r"^#+ (.+)$", spec, re.M):
        assert text_of(heading).strip().replace("`", "") in text_of(built).replace("`", ""), heading
    # included, never copied: no page of docs/ holds the spec's text
    for page in pages():
        assert "## 1 Terms" not in (DOCS / page).read_text(encoding="utf-8")


def test_opcode_table_is_generated_from_opcodes_json(site):
    table = json.loads((REPO / "spec" / "opcodes.json").read_text(encoding="utf-8"))
    built = page_html(site, "opcodes.md")
    for op in table["opcodes"] + [table["escape"]]:
        assert re.search(rf"<td>{re.escape(op['code_point'])}</td>\s*<td><strong>{op['name']}</strong>", built), op
    for error in table["errors"]:
        assert f"<code>{error['kind']}</code>" in built
    changed = dict(table, opcodes=table["opcodes"] + [dict(table["opcodes"][0], code_point="U+E1FE", name="NEWOP")])
    assert "| U+E1FE | **NEWOP** |" in HOOK.opcode_table(changed)


def test_api_reference_comes_from_the_docstrings(site):
    built = text_of(page_html(site, "api.md"))
    for obj in (functok.encode, functok.decode, functok.pieces, functok.Tokenizer, functok.FormatError):
        first_line = obj.__doc__.strip().splitlines()[0]
        assert text_of(first_line).replace("``", "").strip()[:40] in built.replace("`", ""), obj


def test_home_figure_is_the_codec_output(site):
    built = page_html(site, "index.md")
    sentence = re.search(r"functok:figure (.+?) -->", (DOCS / "index.md").read_text(encoding="utf-8")).group(1)
    for piece in functok.pieces(sentence):
        for instruction in piece.instructions:
            assert f">{instruction}</span>" in built
    assert functok.cli.escape_private_use(functok.encode(sentence)) in built


def test_benchmarks_page_covers_every_benchmark():
    page = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    for script in [*sorted((REPO / "bench" / "python").glob("*.py")), *sorted((REPO / "bench" / "pyodide").glob("*.mjs"))]:
        assert str(script.relative_to(REPO)) in page, f"{script.name} has no figures on the benchmarks page"


def test_bench_readme_lists_every_file_under_its_host():
    """bench/README.md has a section per host folder naming each of its scripts, and names no script that is gone."""
    readme = (REPO / "bench" / "README.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## `(\w+)/`[^\n]*\n(.*?)(?=^## |\Z)", readme, re.M | re.S))
    hosts = sorted(path.name for path in (REPO / "bench").iterdir() if path.is_dir())
    assert sorted(sections) == hosts
    scripts = sorted(path for path in (REPO / "bench").glob("*/*") if path.suffix in {".py", ".mjs"})
    for path in scripts:
        host = path.parent.name
        assert f"`{path.name}`" in sections[host], f"bench/README.md's {host}/ section does not name {path.name}"
    gone = set(re.findall(r"`([\w-]+\.(?:py|mjs))`", readme)) - {path.name for path in scripts}
    assert not gone, f"bench/README.md names scripts bench/ does not hold: {sorted(gone)}"


# --- Including files -----------------------------------------------------------------------

def test_included_links_point_at_the_pages_that_hold_them():
    relink = HOOK.relink
    assert relink("[s](../spec/SPEC.md#terms)", "conformance/README.md", "implementers.md") == "[s](spec.md#terms)"
    assert relink("[p](PROTOCOL.md)", "conformance/README.md", "implementers.md") == "[p](protocol.md)"
    assert relink("[t](#terms)", "spec/SPEC.md", "spec.md") == "[t](#terms)"
    assert relink("[t](#terms)", "spec/SPEC.md", "changelog.md") == "[t](spec.md#terms)"
    assert relink("[o](opcodes.json)", "spec/SPEC.md", "spec.md") == "[o](downloads/opcodes.json)"
    assert relink("[`u/`](unicode/)", "spec/SPEC.md", "spec.md") == "`u/` (in the repository)"
    assert relink("[x](https://pyodide.org)", "wasm/README.md", "browser.md") == "[x](https://pyodide.org)"
    assert relink("```\n[a](b.md)\n```\n", "spec/SPEC.md", "spec.md") == "```\n[a](b.md)\n```\n"


def test_section_and_heading_shift():
    text = "# A\n\n## 1.0.0 x\n\nbody\n```\n# not a heading\n```\n## 0.9\nold\n"
    assert HOOK.section(text, "1.0.0", "f") == "## 1.0.0 x\n\nbody\n```\n# not a heading\n```\n"
    assert HOOK.shift_headings("## a\n```\n# b\n```\n", 1) == "### a\n```\n# b\n```\n"


# --- Every code example runs ---------------------------------------------------------------

LANGUAGES_NOT_RUN = {"json", "text", "", "js", "ts", "yaml"}


@pytest.mark.parametrize("page", pages())
def test_every_code_block_is_covered(page):
    for language, code, line in blocks(page):
        if language == "python" and ">>>" not in code:
            assert "import mytok" in code, f"{page}:{line}: a Python example that no test runs"
        else:
            assert language in {"python", "console", "sh"} | LANGUAGES_NOT_RUN, f"{page}:{line}: {language}?"


@pytest.mark.parametrize("page", [p for p in pages() if any(lang == "python" and ">>>" in code
                                                            for lang, code, _ in blocks(p))])
def test_python_examples(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    globs: dict = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for language, code, line in blocks(page):
        if language == "python" and ">>>" in code:
            test = doctest.DocTestParser().get_doctest(code, globs, f"{page}:{line}", page, line)
            runner.run(test, clear_globs=False)
            globs.update(test.globs)  # the page's examples are one session
    assert runner.summarize(verbose=False).failed == 0


def console_blocks() -> list[tuple[str, int, list[tuple[str, str]]]]:
    """(page, line, [(command, shown output), ...]) of every console block."""
    found = []
    for page in pages():
        for language, code, line in blocks(page):
            if language == "console":
                sessions = [s[2:].partition("\n") for s in re.split(r"^(?=\$ )", code, flags=re.M)
                            if s.startswith("$ ")]
                found.append((page, line, [(command, output) for command, _, output in sessions]))
    return found


@pytest.mark.parametrize("page,line,sessions", console_blocks(),
                         ids=[f"{page}:{line}" for page, line, _ in console_blocks()])
def test_console_examples(page, line, sessions, tmp_path):
    """Each block's commands run in order in one empty folder (later ones see earlier files)."""
    checker = doctest.OutputChecker()
    for command, output in sessions:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=ENV, capture_output=True,
                              text=True, encoding="utf-8", timeout=300)
        got = done.stdout + done.stderr
        got += "" if got.endswith("\n") or not got else "\n"  # the page shows the prompt's line break
        assert checker.check_output(output, got, doctest.ELLIPSIS), (
            f"{page}:{line}: $ {command}\n--- shown ---\n{output}--- printed ---\n{got}")


def test_shell_examples_parse():
    parser = build_parser()
    commands = 0
    for page in pages():
        for language, code, line in blocks(page):
            if language not in ("sh", "console"):
                continue
            for text in code.splitlines():
                if language == "console" and not text.startswith("$ "):
                    continue  # output
                text = text.removeprefix("$ ").split("#")[0].strip()
                for part in re.split(r"\s*(?:\||&&)\s*", text):
                    words = shlex.split(part) if part else []
                    if words and Path(words[0]).name == "functok":
                        commands += 1
                        try:
                            parser.parse_args(words[1:])
                        except SystemExit as exit:  # --version and --help exit 0
                            if exit.code:
                                    pytest.fail(f"{page}:{line}: `{part}` does not parse")
    assert commands >= 10


def test_conformance_readme_adapter_passes(tmp_path):
    """The README's minimal adapter for an imaginary `mytok`, with functok as `mytok`."""
    adapters = [code for page in pages() for language, code, _ in blocks(page)
                if language == "python" and "import mytok" in code]
    assert len(adapters) == 1
    (tmp_path / "adapter.py").write_text(adapters[0], encoding="utf-8")
    (tmp_path / "mytok.py").write_text("from functok import FormatError, decode, encode\n", encoding="utf-8")
    done = subprocess.run([str(BIN / "functok"), "conformance", "--command", f"{sys.executable} adapter.py"],
                          cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=600)
    summary = done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0 and re.search(r"[1-9]\d* passed, 0 failed", summary), done.stdout + done.stderr


# --- functok docs --------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_functok_docs_serves_a_preview():
    port = free_port()
    server = subprocess.Popen([str(BIN / "functok"), "docs", "--port", str(port)], cwd=REPO, env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/spec/", timeout=5) as answer:
                    assert "The Functionalizer format" in answer.read().decode("utf-8")
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "functok docs did not serve"
                time.sleep(0.5)
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0].decode("utf-8", "replace")
    assert "Zensical" not in log, log
