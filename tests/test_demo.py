"""`functok demo`: the local server serves the page and the bundle, and nothing else."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from functok.commands import demo

ROOT = Path(__file__).resolve().parents[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


@pytest.fixture()
def base_url(tmp_path: Path):
    # A small fake checkout: the page, a "built" bundle and a file the server must not serve.
    (tmp_path / "web-demo").mkdir()
    (tmp_path / "web-demo" / "index.html").write_text("<!doctype html><title>demo</title>")
    (tmp_path / "wasm" / "dist" / "pyodide").mkdir(parents=True)
    (tmp_path / "wasm" / "dist" / "functok.mjs").write_text("export {};")
    (tmp_path / "wasm" / "dist" / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "opcodes.json").write_text("{}")
    (tmp_path / "secret.txt").write_text("not for the browser")
    server = demo.make_server(tmp_path, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def fetch(url: str):
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/web-demo/", "text/html"),
        ("/wasm/dist/functok.mjs", "text/javascript"),
        ("/wasm/dist/pyodide/pyodide.asm.wasm", "application/wasm"),
        ("/spec/opcodes.json", "application/json"),
    ],
)
def test_serves_the_page_and_the_bundle_with_the_right_types(base_url: str, path: str, content_type: str) -> None:
    status, headers = fetch(base_url + path)
    assert status == 200
    assert headers["Content-Type"].startswith(content_type)


@pytest.mark.parametrize("path", ["/secret.txt", "/wasm/", "/spec/", "/web-demo/../secret.txt"])
def test_serves_nothing_else(base_url: str, path: str) -> None:
    status, _ = fetch(base_url + path)
    assert status == 404


def test_root_redirects_to_the_page(base_url: str) -> None:
    status, headers = fetch(base_url + "/")
    assert status == 302
    assert headers["Location"] == "/web-demo/"


def test_finds_the_checkout_from_inside_it() -> None:
    assert demo.find_root(ROOT / "python" / "functok") == ROOT


def test_refuses_to_serve_an_unbuilt_checkout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "web-demo").mkdir()
    (tmp_path / "web-demo" / "index.html").write_text("<!doctype html>")
    assert demo.main(["--root", str(tmp_path), "--port", "0"]) == 2
    assert "npm run build" in capsys.readouterr().err
