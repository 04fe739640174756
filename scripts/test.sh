#!/usr/bin/env bash
# Installs what the tests need and runs every suite: Python, Node (Pyodide), browser, docs.
# This is the README's second command; .ci/run runs it verbatim.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf "\n=== [%ds] %s\n" "$SECONDS" "$*"; }

step "Python: install the package with its dev extras into .venv"
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'

step "Python: cache GPT-2's tiktoken rank file (from the openai-whisper sdist) for the parity test"
export FUNCTOK_GPT2_TIKTOKEN="$PWD/.cache/functok/gpt2.tiktoken"
.venv/bin/python scripts/fetch_gpt2_tiktoken.py "$FUNCTOK_GPT2_TIKTOKEN"

step "Python: pytest (codec, tables, splitter, conformance, tokenizer, CLI)"
export FUNCTOK_HYPOTHESIS_EXAMPLES="${FUNCTOK_HYPOTHESIS_EXAMPLES:-200}"
.venv/bin/python -m pytest -q -p no:cacheprovider

step "Python: the codec's and the tokenizer's tests again on the pure path (FUNCTOK_PURE=1), the reference the C core is held to"
FUNCTOK_PURE=1 .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_codec.py tests/test_profiles.py \
  tests/test_fusion.py tests/test_spec.py tests/test_conformance_runner.py tests/test_split.py \
  tests/test_normalize.py tests/test_tokenizer.py tests/test_tokenizer_pure.py tests/test_tokenizer_fastpath.py \
  tests/test_cli.py tests/test_tokenize_cli.py \
  tests/test_decode_errors.py tests/test_decode_modes.py tests/test_decode_memory.py tests/test_decode_stream.py

step "Python: constrained generation in transformers' own generate loop (torch, CPU build, after the main run)"
# The CPU wheel of torch 2.13.0 lies on this kind of machine (/opt/wheels); the +cpu pin never
# takes a CUDA build from the registry. It is installed only here, so the runs above have no torch.
.venv/bin/python -m pip install -q --disable-pip-version-check --find-links /opt/wheels 'torch==2.13.0+cpu'
.venv/bin/python -m pytest -q -p no:cacheprovider tests/test_constrain_torch.py

step "C core: fuzzing under ASan/UBSan/LSan (45 s shared by the targets, 5 s at least each) and the valgrind leak check"
# Each native/fuzz/fuzz_*.c target gets an equal share of 45 s after its regressions replay (the
# build and the seeds take about as long again: the step stays near 90 s);
# scripts/fuzz.sh installs clang only if it is missing. Any crash, leak or broken invariant fails.
fuzz_targets=$(ls native/fuzz/fuzz_*.c | wc -l)
scripts/fuzz.sh $(( 45 / fuzz_targets > 5 ? 45 / fuzz_targets : 5 ))
scripts/leakcheck.sh

step "Node: the wasm bundle in Pyodide, and functok for JavaScript (js/) against the Python reference"
# The Node tests compare with CPython functok through this interpreter (the skip-free path).
export FUNCTOK_PYTHON="$PWD/.venv/bin/python"
npm ci --no-audit --no-fund
npm run build
npm test

step "Browser: the web demo end to end (headless Chromium)"
command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
npm run test:e2e
step "done: every suite passed"
