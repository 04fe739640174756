#!/usr/bin/env bash
# Add wheels/ to the pack: functok (with its C core) built for the GPU machine's Python, and the
# Hugging Face tokenizers wheel it needs, so that the GPU machine installs both with no network.
# PYTHON312 is a Python of the GPU machine's version (3.12): `python3.12` on PATH by default
# (pyenv or uv can provide one: `uv python install 3.12`). Without one, the run falls back to
# functok's pure-Python path (the same ids, slower: see README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
pack=${1:-$here/pack}
python312=${PYTHON312:-python3.12}
mkdir -p "$pack/wheels"
"$python312" -m pip wheel -q --no-deps -w "$pack/wheels" "$root"
# tokenizers: the version the package pins in its "train" extra; abi3, so one wheel serves 3.12
"$python312" -m pip download -q --no-deps --only-binary :all: --python-version 3.12 \
    --platform manylinux2014_x86_64 -d "$pack/wheels" "tokenizers==0.23.3"
size=$(du -sb "$pack" | cut -f1)
echo "pack with wheels: $((size / 1048576)) MiB"
if (( size > 62 * 1048576 )); then echo "over 62 MiB: the carry limit is 64 MiB" >&2; exit 1; fi
