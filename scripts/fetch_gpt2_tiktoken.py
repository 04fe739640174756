"""Caches GPT-2's tiktoken rank file for the parity test in tests/tokenizer/test_bpe.py (a set-up step of
scripts/test.sh; the tests never download anything).

The file is ``whisper/assets/gpt2.tiktoken`` in the openai-whisper source distribution (about
800 KB). ``pip download --no-deps`` fetches only that archive: the package is never installed
(it would pull in torch). The version and the file's SHA-256 are pinned.

    python scripts/fetch_gpt2_tiktoken.py .cache/functok/gpt2.tiktoken
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "openai-whisper==20250625"
MEMBER = "whisper/assets/gpt2.tiktoken"
SHA256 = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"


def rank_file_from_sdist(folder: Path) -> bytes:
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                    "--no-deps", "--no-binary", ":all:", PACKAGE, "-d", str(folder)], check=True)
    (archive,) = folder.glob("openai_whisper-*.tar.gz")
    with tarfile.open(archive) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/" + MEMBER))
        return tar.extractfile(member).read()


def main(target: str) -> int:
    out = Path(target)
    if out.is_file() and hashlib.sha256(out.read_bytes()).hexdigest() == SHA256:
        return 0  # cached already
    with tempfile.TemporaryDirectory() as folder:
        data = rank_file_from_sdist(Path(folder))
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256:
        print(f"{PACKAGE}: {MEMBER} has SHA-256 {digest}, expected {SHA256}", file=sys.stderr)
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(out)  # never a half-written file under the final name
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
