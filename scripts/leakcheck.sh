#!/usr/bin/env bash
# The C core's leak check: every fuzz target (native/fuzz/fuzz_NAME.c), linked with
# native/fuzz/replay.c instead of libFuzzer and built without sanitizers, runs under valgrind
# (--leak-check=full, a definite leak or a memory error is a failure) over the seeds (every
# conformance vector's input and the heads of the corpora), the regressions and, when there is
# one, the corpus a fuzzing run grew in build/fuzz/corpus/NAME.
#
#     scripts/leakcheck.sh             # what CI runs (well under a minute)
#     scripts/leakcheck.sh --full      # also every UDHR translation whole, where the corpus exists
#     scripts/leakcheck.sh --python [PYTEST ARGS]   # the binding too (minutes; by hand)
#
# --python builds functok._native with AddressSanitizer into build/asan/, beside a copy of the
# package, and runs the native tests (default: the C core's differential tests in tests/engine/) on it with libasan preloaded,
# PYTHONMALLOC=malloc (so that Python objects are malloc's too) and LeakSanitizer on: a leaked
# buffer or a str whose reference the binding loses is a report. CPython itself reports no leak
# at exit here; native/fuzz/lsan-python.supp names the one third-party leak (tokenizers' types).
# (The two tests that start a child process from python/, which has no ASan build, are left out:
# they check which path runs, not memory.)
#
# Exits 1 on any leak or memory error. Writes only to build/leak/ and build/asan/ (gitignored).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=build/leak
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
source native/fuzz/targets.sh  # CORE, TARGETS, target_ldflags
if [ "${1:-}" = --python ]; then
    shift
    rm -rf build/asan && mkdir -p build/asan/pkg
    CFLAGS="-fsanitize=address -fno-omit-frame-pointer -g -O1" LDFLAGS="-fsanitize=address" \
        "$PYTHON" setup.py -q build_ext --build-lib build/asan/lib --build-temp build/asan/tmp
    cp -r python/functok build/asan/pkg/
    rm -f build/asan/pkg/functok/_native*.so
    cp build/asan/lib/functok/_native*.so build/asan/pkg/functok/
    [ $# -gt 0 ] || set -- tests/engine/test_{codec,decoding,greedy_encoder,segment,pretoken_count}.py -k "not functok_pure_makes_the_pure_path_run and not version_names"
    LD_PRELOAD="$(gcc -print-file-name=libasan.so)" PYTHONMALLOC=malloc ASAN_OPTIONS=detect_leaks=1 \
        PYTHONPATH="$PWD/build/asan/pkg" "$PYTHON" -c 'import functok, sys; assert functok.backend() == "native"
assert functok.__file__.startswith(sys.argv[1]), functok.__file__' "$PWD/build/asan/pkg"
    LD_PRELOAD="$(gcc -print-file-name=libasan.so)" PYTHONMALLOC=malloc ASAN_OPTIONS=detect_leaks=1 \
        LSAN_OPTIONS="suppressions=$PWD/native/fuzz/lsan-python.supp" \
        PYTHONPATH="$PWD/build/asan/pkg" "$PYTHON" -m pytest -q -p no:cacheprovider "$@"
    echo "the binding under ASan + LSan: no leak, no memory error"
    exit 0
fi

extra=()
if [ "${1:-}" = --full ]; then
    udhr=$(cd bench/python && "$PYTHON" -c 'from corpora import UDHR; print(UDHR if UDHR.is_dir() else "")')
    [ -n "$udhr" ] && extra+=("$udhr")
fi

mkdir -p "$OUT/bin"
rm -rf "$OUT/seeds"
"$PYTHON" native/fuzz/seeds.py "$OUT/seeds" >/dev/null
failed=0
GCC_FLAGS=(-std=c11 -O1 -g -Wall -Wextra -Werror)
build_core gcc "$OUT/obj" "${GCC_FLAGS[@]}"
for name in "${TARGETS[@]}"; do
    gcc "${GCC_FLAGS[@]}" $(target_ldflags "$name") -o "$OUT/bin/$name" \
        "native/fuzz/fuzz_$name.c" native/fuzz/replay.c "${CORE_OBJECTS[@]}"
    inputs=("$OUT/seeds/$name" "${extra[@]}")
    for dir in "native/fuzz/regressions/$name" "build/fuzz/corpus/$name"; do
        [ -d "$dir" ] && inputs+=("$dir")
    done
    if valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
        "$OUT/bin/$name" "${inputs[@]}" >"$OUT/$name.log" 2>&1; then
        echo "$name: $(tail -1 "$OUT/$name.log"), no leak, no memory error"
    else
        echo "FAIL $name: valgrind reports (see $OUT/$name.log):"
        head -60 "$OUT/$name.log"
        failed=1
    fi
done
exit "$failed"
