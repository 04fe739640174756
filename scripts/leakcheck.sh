#!/usr/bin/env bash
# The C core's leak check: every fuzz target (native/fuzz/fuzz_NAME.c), linked with
# native/fuzz/replay.c instead of libFuzzer and built without sanitizers, runs under valgrind
# (--leak-check=full, a definite leak or a memory error is a failure) over the seeds (every
# conformance vector's input and the heads of the corpora), the regressions and, when there is
# one, the corpus a fuzzing run grew in build/fuzz/corpus/NAME.
#
#     scripts/leakcheck.sh           # what CI runs (well under a minute)
#     scripts/leakcheck.sh --full    # also every UDHR translation whole, where the corpus exists
#
# Exits 1 on any leak or memory error. Writes only to build/leak/ (gitignored).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=build/leak
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
mapfile -t CORE < <(ls native/src/*.c | grep -v -e '/module\.c$' -e '/bind_[^/]*\.c$')
mapfile -t TARGETS < <(ls native/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||')
extra=()
if [ "${1:-}" = --full ]; then
    udhr=$(cd bench && "$PYTHON" -c 'from corpora import UDHR; print(UDHR if UDHR.is_dir() else "")')
    [ -n "$udhr" ] && extra+=("$udhr")
fi

mkdir -p "$OUT/bin"
rm -rf "$OUT/seeds"
"$PYTHON" native/fuzz/seeds.py "$OUT/seeds" >/dev/null
failed=0
for name in "${TARGETS[@]}"; do
    gcc -std=c11 -O1 -g -Wall -Wextra -Werror -o "$OUT/bin/$name" "native/fuzz/fuzz_$name.c" native/fuzz/replay.c "${CORE[@]}"
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
