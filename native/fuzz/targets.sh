# Sourced by scripts/fuzz.sh and scripts/leakcheck.sh: what a fuzz target is made of.
# CORE: the core's sources (native/core/; the CPython binding is native/python/).
# TARGETS: the targets' names, one per native/fuzz/fuzz_NAME.c.
# target_ldflags NAME: the link flags a target asks for in a line "fuzz-ldflags: FLAGS".
mapfile -t CORE < <(ls native/core/*.c)
mapfile -t TARGETS < <(ls native/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||')
target_ldflags() { sed -n 's/.*fuzz-ldflags: \([^ ]*\).*/\1/p' "native/fuzz/fuzz_$1.c" | head -1; }
# build_core CC DIR FLAGS...: compiles each CORE source once, side by side, into DIR/NAME.o, and
# sets CORE_OBJECTS; each target then compiles only its own file and links these (ten targets
# used to compile the whole core ten times). A target's fuzz-ldflags (--wrap=malloc) act at the
# link, so they reach the core's objects as they reached its sources.
build_core() {
    local cc=$1 dir=$2 source pids=()
    shift 2
    mkdir -p "$dir"
    CORE_OBJECTS=()
    for source in "${CORE[@]}"; do
        CORE_OBJECTS+=("$dir/$(basename "${source%.c}").o")
        "$cc" "$@" -c -o "${CORE_OBJECTS[-1]}" "$source" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done  # set -e: a failed compile stops here
}
