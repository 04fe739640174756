#!/usr/bin/env bash
# Installs what the tests need and runs every suite: Python, Node (Pyodide), browser, docs.
# This is the README's second command; .ci/run runs it verbatim.
#
# The machine has 2 cores and most steps keep one busy, so the work runs in lanes side by side:
# the installs (pip, npm, Debian) together; then the Python lane (pytest on both cores, the pure
# path again) beside the native/Node lane (fuzzing, leak check, the wasm build, Node, browser);
# and the torch and ray lanes (torch, Ray, each in a venv of its own, so that no other run has
# it). Each line a lane prints starts with its name; a failing lane fails the script, with its
# status.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf "\n=== [%ds] %s\n" "$SECONDS" "$*"; }

# lane NAME COMMAND...: runs COMMAND in the background with its output tagged [NAME]; $! is then
# the lane (`wait $!` gives its status, pipefail carrying COMMAND's through sed).
lane() {
    local name=$1
    shift
    ( set -euo pipefail; "$@" ) 2>&1 | sed -u "s/^/[$name] /" &
}

# finish NAME PID: waits for a lane, and stops the script if it failed.
finish() {
    local status=0
    wait "$2" || status=$?
    [ "$status" -eq 0 ] || { step "FAILED: the $1 lane exited with status $status"; exit "$status"; }
    step "the $1 lane passed"
}

# On a failure, stop the other lane too: every process this script started, deepest first.
descendants() { local child; for child in $(pgrep -P "$1"); do descendants "$child"; echo "$child"; done; }
trap 'kill $(descendants $$) 2>/dev/null || true' EXIT

install_debian() {
    # Chromium for the browser tests; clang and libFuzzer's runtime for scripts/fuzz.sh (which
    # would install them itself, but two apt-get runs at once fail on apt's lock).
    local wanted=(chromium clang libclang-rt-14-dev)
    dpkg -s "${wanted[@]}" >/dev/null 2>&1 && { echo "already installed: ${wanted[*]}"; return; }
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${wanted[@]}" >/dev/null
    echo "installed: ${wanted[*]}"
}

install_python() {
    python3 -m venv .venv
    .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
    # GPT-2's tiktoken rank file, for the parity test in tests/tokenizer/test_bpe.py (from the openai-whisper sdist).
    .venv/bin/python scripts/fetch_gpt2_tiktoken.py "$FUNCTOK_GPT2_TIKTOKEN"
}

python_lane() {
    step "pytest on every core (codec, tables, splitter, conformance, tokenizer, C core, CLI, docs)"
    # --dist loadfile keeps a file's tests, and so its module fixtures, on one worker; --durations
    # prints the slowest tests, where CI time goes.
    .venv/bin/python -m pytest -q -p no:cacheprovider -n auto --dist loadfile --durations=15
    step "the codec's, decoder's and tokenizer's tests again on the pure path (FUNCTOK_PURE=1), the reference the C core is held to"
    # Only files whose code has a C path: the splitter and NFC (codec/test_splitting.py, codec/test_normalize.py)
    # and the spec's tables are pure Python in both runs, so running them again would test nothing new.
    # The differential tests (tests/engine/, on the `engine` fixture of tests/conftest.py) ran on
    # the pure engine above already.
    FUNCTOK_PURE=1 .venv/bin/python -m pytest -q -p no:cacheprovider -n auto --dist loadfile --durations=10 \
        tests/codec/test_codec.py tests/codec/test_profiles.py tests/tokenizer/test_fusion.py tests/conformance/test_runner.py \
        tests/tokenizer/test_tokenizer.py \
        tests/commands/test_cli.py tests/commands/test_tokenize.py \
        tests/codec/test_decoding_errors.py tests/codec/test_decoding_modes.py tests/codec/test_decoding_memory.py tests/tokenizer/test_stream.py
}

# side_venv DIR PIP_ARGUMENTS...: a venv of its own at DIR, with what PIP_ARGUMENTS name installed
# in it only, so that every other run tests functok without it. DIR sees .venv's packages through
# a .pth line (site.addsitedir, so that .venv's own .pth files, the editable functok among them,
# count).
side_venv() {
    local dir=$1 dev_site side_site
    shift
    python3 -m venv "$dir"
    dev_site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    side_site=$("$dir/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    echo "import site; site.addsitedir('$dev_site')" > "$side_site/functok-dev-packages.pth"
    "$dir/bin/python" -m pip install -q --disable-pip-version-check "$@"
}

torch_lane() {
    step "torch (CPU build) in a venv of its own, then constrained generation in transformers' own generate loop"
    # The +cpu pin never takes a CUDA build from the registry. pip looks for that wheel where its
    # own configuration says (PIP_FIND_LINKS, or find-links in pip.conf: the machines CI runs on set
    # both to their local folder of wheels), and also in FUNCTOK_TORCH_WHEELS when the caller sets
    # it (a folder or a page of wheels), so that no machine's folder is written here. Only
    # .venv-torch has torch.
    side_venv .venv-torch ${FUNCTOK_TORCH_WHEELS:+--find-links "$FUNCTOK_TORCH_WHEELS"} 'torch==2.13.0+cpu'
    .venv-torch/bin/python -m pytest -q -p no:cacheprovider tests/integrations/test_constrain_torch.py
    step "the scale study's smoke test: research/scale's GPU command with --device cpu --tiny, end to end"
    .venv-torch/bin/python -m pytest -q -p no:cacheprovider research/scale/test_scale.py
    step "transformers' own tokenizer tests (TokenizerTesterMixin, from its sdist) against FunctokTokenizer"
    # With torch, which some of the mixin's tests need; RUN_SLOW=1 runs the one marked slow. Only
    # this lane names the folder (the module is skipped without it).
    export FUNCTOK_TRANSFORMERS_TESTS="$PWD/.cache/functok/transformers-tests"
    .venv/bin/python scripts/fetch_transformers_tests.py "$FUNCTOK_TRANSFORMERS_TESTS"
    RUN_SLOW=1 .venv-torch/bin/python -m pytest -q -p no:cacheprovider -rs tests/integrations/test_transformers_mixin.py
}

ray_lane() {
    step "Ray in a venv of its own, then functok tokenize and functok train on a local Ray cluster against the local executor"
    # As the torch lane: only .venv-ray has Ray, so no other test depends on it.
    # FUNCTOK_REQUIRE_RAY=1 turns the tests' skips into failures.
    # Ray 2.60.0 is the version tested (its wheel for Python 3.11); datatrove's RayPipelineExecutor runs on it.
    side_venv .venv-ray 'ray==2.60.0'
    # (-W: datatrove passes Ray arguments that Ray 2.60 warns are deprecated, once per task.)
    FUNCTOK_REQUIRE_RAY=1 .venv-ray/bin/python -m pytest -q -p no:cacheprovider -rs -W ignore::DeprecationWarning \
        -m ray tests/integrations/test_ray.py
}

native_and_node_lane() {
    step "C core: fuzzing under ASan/UBSan/LSan (45 s shared by the targets, 5 s at least each) and the valgrind leak check"
    # Each native/fuzz/fuzz_*.c target gets an equal share of 45 s after its regressions replay (the
    # build and the seeds take about as long again). Any crash, leak or broken invariant fails.
    local targets
    targets=$(ls native/fuzz/fuzz_*.c | wc -l)
    scripts/fuzz.sh $(( 45 / targets > 5 ? 45 / targets : 5 ))
    scripts/leakcheck.sh
    step "Node: the wasm bundle in Pyodide, the C core built to wasm, and functok for JavaScript (js/) against the Python reference"
    npm run build
    npm test
    # npm test runs js/ on the wasm engine (engines.test.mjs holds it to the reference); the
    # conformance suite once more on the JavaScript reference (about 10 s)
    FUNCTOK_PURE=1 node --test js/test/conformance.test.mjs
    step "Browser: the web demo end to end (headless Chromium)"
    npm run test:e2e
}

export FUNCTOK_HYPOTHESIS_EXAMPLES="${FUNCTOK_HYPOTHESIS_EXAMPLES:-200}"
export FUNCTOK_GPT2_TIKTOKEN="$PWD/.cache/functok/gpt2.tiktoken"
# The Node tests compare with CPython functok through this interpreter (the skip-free path).
export FUNCTOK_PYTHON="$PWD/.venv/bin/python"

step "Install, side by side: the package with its dev extras into .venv, the npm packages from the lock file, Debian's Chromium and clang"
lane npm npm ci --no-audit --no-fund
npm_lane=$!
lane debian install_debian
debian_lane=$!
install_python
finish npm "$npm_lane"
finish debian "$debian_lane"

step "Test, side by side: the Python lane, the native/Node lane, the torch lane and the ray lane"
lane python python_lane
python_lane=$!
lane node native_and_node_lane
node_lane=$!
lane torch torch_lane
torch_lane=$!
lane ray ray_lane
ray_lane=$!
finish torch "$torch_lane"
finish ray "$ray_lane"
finish python "$python_lane"
finish node "$node_lane"

step "done: every suite passed"
