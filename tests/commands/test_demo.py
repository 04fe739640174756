"""`functok demo`: the local server serves the page, the JavaScript modules, the bundle when it
is built and the demo tokenizer, and nothing else; the page ships inside the package, where the
build writes it (tests/commands/test_demo_install.py installs a wheel, an sdist and an editable checkout)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from functok.commands import demo

ROOT = Path(__file__).resolve().parents[2]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def fake_root(tmp_path: Path, *, wasm: bool) -> Path:
    """A small fake checkout: the page, its modules, maybe a "built" bundle, and a file the
    server must not serve."""
    (tmp_path / "web-demo").mkdir()
    (tmp_path / "web-demo" / "index.html").write_text("<!doctype html><title>demo</title>")
    (tmp_path / "js" / "src").mkdir(parents=True)
    (tmp_path / "js" / "src" / "index.mjs").write_text("export {};")
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "opcodes.json").write_text("{}")
    (tmp_path / "secret.txt").write_text("not for the browser")
    if wasm:
        (tmp_path / "wasm" / "dist" / "pyodide").mkdir(parents=True)
        (tmp_path / "wasm" / "dist" / "bundle.json").write_text("{}")
        (tmp_path / "wasm" / "dist" / "functok.mjs").write_text("export {};")
        (tmp_path / "wasm" / "dist" / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm")
        (tmp_path / "wasm" / "dist" / "demo-tokenizer.json").write_text('{"bundled": true}')
    return tmp_path


def serve(root: Path, wasm: Path | None):
    server = demo.make_server(root, "127.0.0.1", 0, wasm=wasm)
    # A short poll interval: shutdown() waits for one poll.
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture()
def base_url(tmp_path: Path):
    root = fake_root(tmp_path, wasm=True)
    server, url = serve(root, root / "wasm" / "dist")
    yield url
    server.shutdown()
    server.server_close()


def fetch(url: str):
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, b""


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/web-demo/", "text/html"),
        ("/js/src/index.mjs", "text/javascript"),
        ("/wasm/dist/functok.mjs", "text/javascript"),
        ("/wasm/dist/pyodide/pyodide.asm.wasm", "application/wasm"),
        ("/spec/opcodes.json", "application/json"),
        ("/demo-tokenizer.json", "application/json"),
    ],
)
def test_serves_the_page_the_modules_and_the_bundle_with_the_right_types(base_url: str, path: str, content_type: str) -> None:
    status, headers, _ = fetch(base_url + path)
    assert status == 200
    assert headers["Content-Type"].startswith(content_type)


def test_the_demo_tokenizer_is_the_bundles_when_there_is_one(base_url: str) -> None:
    assert json.loads(fetch(base_url + "/demo-tokenizer.json")[2]) == {"bundled": True}


@pytest.mark.parametrize("path", ["/secret.txt", "/wasm/", "/spec/", "/js/", "/wasm/dist/", "/js/src/",
                                  "/web-demo/../secret.txt"])
def test_serves_nothing_else(base_url: str, path: str) -> None:
    status, _, _ = fetch(base_url + path)
    assert status == 404


def test_root_redirects_to_the_page(base_url: str) -> None:
    status, headers, _ = fetch(base_url + "/")
    assert status == 302
    assert headers["Location"] == "/web-demo/"


def test_without_a_bundle_the_page_is_served_and_the_bundle_is_not(tmp_path: Path) -> None:
    root = fake_root(tmp_path, wasm=False)
    server, url = serve(root, None)
    try:
        assert fetch(url + "/web-demo/")[0] == 200
        assert fetch(url + "/wasm/dist/bundle.json")[0] == 404
    finally:
        server.shutdown()
        server.server_close()


def test_trains_the_demo_tokenizer_once_when_the_bundle_has_none(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    monkeypatch.setattr(demo, "train_demo_tokenizer", lambda: calls.append(1) or '{"trained": 1}')
    tokenizer = demo.DemoTokenizer(None)
    assert tokenizer.get() == tokenizer.get() == b'{"trained": 1}'
    assert calls == [1]


def test_a_missing_train_extra_is_a_404_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_tokenizers() -> str:
        raise ImportError("training needs `tokenizers`")

    monkeypatch.setattr(demo, "train_demo_tokenizer", no_tokenizers)
    tokenizer = demo.DemoTokenizer(None)
    assert tokenizer.get() is None
    assert "functok[train]" in tokenizer.missing


def test_the_trained_demo_tokenizer_is_a_tokenizer_file() -> None:
    pytest.importorskip("tokenizers")
    from functok.tokenizer import Tokenizer

    text = demo.train_demo_tokenizer(vocab_size=400, max_chars=20_000)
    assert json.loads(text)["generated_by"].startswith("functok.commands.demo")
    tokenizer = Tokenizer.from_str(text)
    assert tokenizer.decode(tokenizer.encode("Héllo WORLD").ids) == "Héllo WORLD"


def test_finds_the_checkout_from_inside_it() -> None:
    assert demo.find_root(ROOT / "python" / "functok") == ROOT


def test_an_installed_package_serves_its_own_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside a checkout, the copy the build wrote into the package (tests/commands/test_demo_install.py
    installs real ones)."""
    packaged = tmp_path / "functok" / "data" / "web"
    assert copy_to_package(str(packaged)).returncode == 0
    monkeypatch.setattr(demo, "find_root", lambda: None)
    monkeypatch.setattr(demo, "PACKAGED_ROOT", packaged)
    args = demo.argparse.Namespace(root=None, wasm=None)
    root, wasm = demo.choose_folders(args)
    assert root == packaged
    assert (root / "web-demo" / "index.html").is_file() and (root / "js" / "src" / "index.mjs").is_file()
    assert wasm is None


def copy_to_package(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "web-demo" / "copy_to_package.py"), *args],
                          capture_output=True, text=True)


def test_the_copy_check_names_what_is_stale(tmp_path: Path) -> None:
    """web-demo/copy_to_package.py --check: a fresh copy passes; a changed, missing or extra
    file fails, named."""
    copy = tmp_path / "web"
    assert copy_to_package(str(copy)).returncode == 0
    assert copy_to_package("--check", str(copy)).returncode == 0
    (copy / "js" / "src" / "index.mjs").write_text("export {};")
    (copy / "web-demo" / "demo.css").unlink()
    (copy / "web-demo" / "old.mjs").write_text("")
    result = copy_to_package("--check", str(copy))
    assert result.returncode == 1
    for problem in ("changed js/src/index.mjs", "missing web-demo/demo.css", "extra web-demo/old.mjs"):
        assert problem in result.stderr


def test_no_copy_of_the_page_in_the_checkout() -> None:
    """The page has one source: python/functok/data/web/ is built, never committed."""
    tracked = subprocess.run(["git", "ls-files", "python/functok/data/web"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    assert tracked.stdout == ""


def test_refuses_a_folder_without_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.main(["--root", str(tmp_path), "--port", "0"]) == 2
    assert "web-demo/index.html" in capsys.readouterr().err


def test_refuses_a_wasm_folder_that_is_not_built(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "root").mkdir()
    root = fake_root(tmp_path / "root", wasm=False)
    assert demo.main(["--root", str(root), "--wasm", str(tmp_path), "--port", "0"]) == 2
    assert "npm run build" in capsys.readouterr().err


def test_a_connection_the_browser_drops_is_not_reported(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    server = demo.make_server(fake_root(tmp_path, wasm=False), "127.0.0.1", 0)
    try:
        try:
            raise ConnectionResetError(104, "Connection reset by peer")
        except ConnectionResetError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""
        try:
            raise ValueError("a real bug")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "a real bug" in capsys.readouterr().err
    finally:
        server.server_close()
