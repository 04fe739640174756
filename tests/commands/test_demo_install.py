"""``functok demo`` from an installed package: nothing of the page is
committed inside ``python/``; the build writes ``functok/data/web/`` (setup.py). A wheel and an
sdist built offline, and an editable install, each in a fresh venv, serve the page and its
modules, and an installed copy equals its sources (``web-demo/copy_to_package.py --check``).
The grammar files are built into the package the same way (``functok/data/grammar/``, from
``spec/grammar/``): each install reads its own copy, equal to the checkout's."""

from __future__ import annotations

import json
import os
import selectors
import shutil
import subprocess
import sys
import sysconfig
import urllib.request
import venv
from pathlib import Path

import pytest

pytest.importorskip("build")
pytest.importorskip("setuptools")

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = Path("web-demo") / "copy_to_package.py"
# What the page loads first, and a module of the tokenizer it imports.
PAGE_FILES = ["/web-demo/index.html", "/web-demo/demo.mjs", "/js/src/index.mjs", "/js/src/tokenizer/tokenizer.mjs",
              "/spec/opcodes.json"]


def checkout_copy(target: Path) -> Path:
    """The checkout's files as git sees them (tracked, or new and not ignored): no build/, no
    .venv, no stray copy of the page."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True)
    if listed.returncode != 0:
        pytest.skip(f"not a git checkout: {listed.stderr.decode(errors='replace').strip()}")
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, Path]:
    """(the source tree, the wheel, the sdist): one ``python -m build``, offline. Both come from
    the tree (the wheel as ``pip install .`` builds it); installing the sdist builds a wheel from it."""
    work = tmp_path_factory.mktemp("demo-install")
    source = checkout_copy(work / "src")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel", "--no-isolation", "--outdir",
                    str(work / "dist"), str(source)],
                   check=True, capture_output=True, env=dict(os.environ, SOURCE_DATE_EPOCH="315532800"))
    (wheel,), (sdist,) = (work / "dist").glob("*.whl"), (work / "dist").glob("*.tar.gz")
    return source, wheel, sdist


def fresh_venv(folder: Path) -> Path:
    """A venv without functok that sees this interpreter's packages (pip, setuptools) as plain
    paths, so that installs need no download; returns its ``bin``."""
    venv.create(folder, with_pip=False)
    bin_dir = folder / "bin"
    purelib = subprocess.run([bin_dir / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    host = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    # Lines of paths only: the host's own .pth files (an editable functok among them) are not run.
    Path(purelib, "host_packages.pth").write_text("".join(f"{p}\n" for p in sorted(host)), encoding="utf-8")
    return bin_dir


def install(bin_dir: Path, *what: str) -> None:
    subprocess.run([bin_dir / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps",
                    "--no-index", "--no-build-isolation", "--ignore-installed", *what],
                   check=True, capture_output=True, cwd=bin_dir.parent)


def serve_and_fetch(bin_dir: Path, cwd: Path) -> Path:
    """Start the venv's ``functok demo`` on a free port, outside any checkout; fetch the page
    and its modules; stop it. Returns the folder it served."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    process = subprocess.Popen([bin_dir / "functok", "demo", "--port", "0"], cwd=cwd, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            assert selector.select(timeout=120), "functok demo printed no URL"
        first = process.stdout.readline()  # functok demo: http://127.0.0.1:PORT/web-demo/  (serving ROOT; ...)
        assert first.startswith("functok demo: http://"), first + process.stderr.read()
        base = first.split()[2].removesuffix("/web-demo/")
        for path in PAGE_FILES:
            with urllib.request.urlopen(base + path, timeout=30) as response:
                assert response.status == 200 and response.read(), path
                if path.endswith(".mjs"):
                    assert response.headers["Content-Type"].startswith("text/javascript")
        return Path(first.split("(serving ", 1)[1].split(";", 1)[0])
    finally:
        process.terminate()
        process.wait(timeout=30)


def grammar_read_by(bin_dir: Path, cwd: Path) -> tuple[Path, dict[str, str]]:
    """(the folder the venv's functok reads its grammar files from, their texts by name)."""
    script = ("import json, pathlib, functok.grammar_export as g\n"
              "packaged = pathlib.Path(g.__file__).parent.joinpath(*g.PACKAGE_FOLDER)\n"
              "folder = g.SPEC_DIR if g.SPEC_DIR.is_dir() else packaged\n"
              "assert g.grammar_text('lark') == (folder / 'stream.lark').read_text(encoding='utf-8')\n"
              "print(json.dumps([str(folder), {p.name: p.read_text(encoding='utf-8') for p in folder.iterdir()}]))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([bin_dir / "python", "-c", script], cwd=cwd, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    folder, files = json.loads(result.stdout)
    return Path(folder), files


def checkout_grammar(source: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in (source / "spec" / "grammar").iterdir()}


@pytest.mark.parametrize("artifact", ["wheel", "sdist"])
def test_demo_from_an_installed_wheel_or_sdist_serves_the_packaged_copy(built, tmp_path, artifact):
    source, wheel, sdist = built
    bin_dir = fresh_venv(tmp_path / "venv")
    install(bin_dir, str(wheel if artifact == "wheel" else sdist))
    served = serve_and_fetch(bin_dir, tmp_path)
    assert served.parts[-3:] == ("functok", "data", "web") and (tmp_path / "venv") in served.parents
    check = subprocess.run([sys.executable, source / GENERATOR, "--check", served], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    folder, files = grammar_read_by(bin_dir, tmp_path)
    assert folder.parts[-3:] == ("functok", "data", "grammar") and (tmp_path / "venv") in folder.parents
    assert files == checkout_grammar(source) and len(files) == 3


def test_demo_from_an_editable_install_serves_the_checkout(built, tmp_path):
    source = built[0]
    bin_dir = fresh_venv(tmp_path / "venv")
    install(bin_dir, "-e", str(source))
    assert serve_and_fetch(bin_dir, tmp_path) == source
    assert not (source / "python" / "functok" / "data" / "web").exists()  # nothing written into the checkout
    assert grammar_read_by(bin_dir, tmp_path) == (source / "spec" / "grammar", checkout_grammar(source))
    assert not (source / "python" / "functok" / "data" / "grammar").exists()
