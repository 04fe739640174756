# Sourced by scripts/fuzz.sh and scripts/leakcheck.sh: what a fuzz target is made of.
# CORE: the core's sources (native/src/ without the CPython binding: module.c, bind_*.c).
# TARGETS: the targets' names, one per native/fuzz/fuzz_NAME.c.
# target_ldflags NAME: the link flags a target asks for in a line "fuzz-ldflags: FLAGS".
mapfile -t CORE < <(ls native/src/*.c | grep -v -e '/module\.c$' -e '/bind_[^/]*\.c$')
mapfile -t TARGETS < <(ls native/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||')
target_ldflags() { sed -n 's/.*fuzz-ldflags: \([^ ]*\).*/\1/p' "native/fuzz/fuzz_$1.c" | head -1; }
