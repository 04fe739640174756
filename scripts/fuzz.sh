#!/usr/bin/env bash
# Fuzzes the C core (native/core/) under AddressSanitizer,
# UndefinedBehaviorSanitizer and LeakSanitizer:
#
#     scripts/fuzz.sh [SECONDS_PER_TARGET [TARGET...]]      (default 60, every target)
#
# For each target native/fuzz/fuzz_NAME.c (a new target is one new file; its seeds and link flags
# are lines in it, see native/fuzz/fuzz.h and seeds.py): build it with
# libFuzzer; replay native/fuzz/regressions/NAME/ (inputs that once broke the core); then fuzz it
# for SECONDS_PER_TARGET from a corpus seeded from the conformance vectors (native/fuzz/seeds.py).
# Prints each target's executions, coverage (libFuzzer's cov: edges and ft: features) and
# crashes; exits 1 on any crash, leak, sanitizer report or broken invariant. Everything it
# writes goes to build/fuzz/ (gitignored): the binaries, the seeds, the growing corpus
# (kept between runs), the logs, and the input of any crash (crashes/NAME/).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET="${1:-60}"
OUT="${FUZZ_OUT:-build/fuzz}"  # another folder keeps a long run apart from CI-sized ones
PYTHON="${PYTHON:-.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
CFLAGS=(-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -g -O1 -std=c11 -Wall -Wextra -Werror)
source native/fuzz/targets.sh  # CORE, TARGETS, target_ldflags
[ $# -lt 2 ] || TARGETS=("${@:2}")

# clang with libFuzzer's runtime (Debian: clang, libclang-rt-14-dev), installed only when missing.
probe() { echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
    clang -fsanitize=fuzzer -x c - -o "$OUT/probe" 2>/dev/null; }
mkdir -p "$OUT/bin" "$OUT/logs"
if ! command -v clang >/dev/null || ! probe; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev
    probe || { echo "fuzz.sh: clang cannot build a libFuzzer target" >&2; exit 1; }
fi

echo "building ${#TARGETS[@]} targets: ${TARGETS[*]}"
# The core's objects get libFuzzer's coverage instrumentation without its main (fuzzer-no-link).
build_core clang "$OUT/obj" "${CFLAGS[@]/-fsanitize=fuzzer,/-fsanitize=fuzzer-no-link,}"
builds=()
for name in "${TARGETS[@]}"; do
    clang "${CFLAGS[@]}" $(target_ldflags "$name") -o "$OUT/bin/$name" "native/fuzz/fuzz_$name.c" "${CORE_OBJECTS[@]}" &
    builds+=($!)
done
for pid in "${builds[@]}"; do wait "$pid"; done  # set -e: a failed build stops here
rm -rf "$OUT/seeds"
"$PYTHON" native/fuzz/seeds.py "$OUT/seeds" >/dev/null

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=0
summary=()
for name in "${TARGETS[@]}"; do
    bin="$OUT/bin/$name" log="$OUT/logs/$name.log"
    mkdir -p "$OUT/corpus/$name" "$OUT/crashes/$name"
    regressions=(native/fuzz/regressions/"$name"/*)
    if [ -e "${regressions[0]}" ]; then
        if ! "$bin" "${regressions[@]}" >"$OUT/logs/$name.regressions.log" 2>&1; then
            echo "FAIL $name: a regression input breaks it again (see $OUT/logs/$name.regressions.log)"
            tail -30 "$OUT/logs/$name.regressions.log"
            failed=1
        fi
    fi
    status=0
    "$bin" -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
        -dict=native/fuzz/codec.dict -print_final_stats=1 -artifact_prefix="$OUT/crashes/$name/" \
        "$OUT/corpus/$name" "$OUT/seeds/$name" >"$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    crashes=$(find "$OUT/crashes/$name" -type f -newer "$bin" | wc -l)
    line=$(printf '%-10s execs %-10s %-20s crashes %s' "$name" "${execs:-?}" "${cov:-cov: ? ft: ?}" "$crashes")
    summary+=("$line")
    if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        echo "FAIL $name (exit $status): see $log; the input is in $OUT/crashes/$name/"
        grep -E -A25 'ERROR: |runtime error|invariant broken|SUMMARY' "$log" | head -60 || tail -40 "$log"
        failed=1
    fi
done

printf '\nfuzzing, %ss per target, ASan + UBSan + LSan:\n' "$SECONDS_PER_TARGET"
printf '  %s\n' "${summary[@]}"
[ "$failed" -eq 0 ] && echo "0 crashes" || echo "fuzz.sh: FAILED" >&2
exit "$failed"
