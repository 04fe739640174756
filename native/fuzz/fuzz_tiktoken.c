/* Fuzz target (seeds: byte+text): tiktoken's merge rule (tiktoken_piece in bpe.c, bpe.py's
 * TiktokenBPE) over a random rank table. The input's bytes after the first are split at '\n':
 * every line but the last is a token (empty lines are skipped; a repeated line takes its last
 * rank, as bytemap_put replaces), the last line is the piece. Raw bytes, not fuzz_text: tiktoken
 * merges bytes, and a piece need not be UTF-8. The first byte picks the table's shape:
 *   bit 0: the 256 single bytes are tokens too (a real rank file), after the lines' ranks;
 *   bit 1: ... but every third byte is missing (the rank file without every single byte);
 *   bit 2: the single bytes take the lowest ranks instead (tiktoken's files start with them);
 *   bit 3: ranks count down instead of up (the last line merges first);
 *   bit 4: ranks are taken modulo 7, so different byte strings share a rank (ties);
 *   bit 5: ranks sit at the top of uint32 (the largest is UINT32_MAX, next to the core's NEVER).
 * Invariants, against a plain quadratic port of tiktoken's _byte_pair_merge (bpe.py's _parts):
 * - the result is 0 or -2 (out of memory does not happen at these sizes);
 * - a piece that is a token is that one id;
 * - else the ids are the reference's parts' ranks, or -2 exactly when one of its parts is not a
 *   token, with missing_at at the first such part's first byte;
 * - on 0, the ids' byte strings, joined, are the piece's bytes, and there are at most n of them;
 * - the scratch is reused across two pieces (the piece, then its first half), as the engine
 *   reuses it from piece to piece. */
#include "fuzz.h"

#define NEVER_RANK UINT64_MAX

typedef struct {
    const uint8_t *s;
    size_t n;
} bytes_span;

typedef struct {
    bytemap map;
    bytes_span *by_rank; /* the byte string of each rank the lines and bytes got, for decoding */
    uint32_t *ranks;     /* the ranks handed out, parallel to by_rank */
    size_t len, cap;
    uint8_t singles[256];
} table;

static void table_put(table *t, const uint8_t *s, size_t n, uint32_t rank) {
    OK(bytemap_put(&t->map, s, n, rank));
    if (t->len == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->by_rank = realloc(t->by_rank, t->cap * sizeof *t->by_rank);
        t->ranks = realloc(t->ranks, t->cap * sizeof *t->ranks);
        CHECK(t->by_rank != NULL && t->ranks != NULL);
    }
    t->by_rank[t->len] = (bytes_span){s, n};
    t->ranks[t->len++] = rank;
}

/* The bytes a rank stands for (the latest put of that byte string with that rank); with ties
 * (bit 4) several strings share a rank, so the caller passes the length it expects. */
static int table_spells(const table *t, uint32_t rank, const uint8_t *s, size_t n) {
    for (size_t k = 0; k < t->len; k++) {
        if (t->ranks[k] != rank || t->by_rank[k].n != n || memcmp(t->by_rank[k].s, s, n)) continue;
        uint32_t now;
        if (bytemap_get(&t->map, s, n, &now) && now == rank) return 1;
    }
    return 0;
}

static uint64_t rank_or_never(const table *t, const uint8_t *s, size_t n) {
    uint32_t rank;
    return bytemap_get(&t->map, s, n, &rank) ? rank : NEVER_RANK;
}

/* bpe.py's _parts: part boundaries `starts`, the leftmost lowest-ranked pair merged first, the
 * scan redone after each merge. Returns the number of parts; starts[0..parts] bound them. */
static size_t reference_parts(const table *t, const uint8_t *p, size_t n, size_t *starts, uint64_t *rank) {
    size_t parts = n;
    for (size_t i = 0; i <= n; i++) starts[i] = i;
    for (size_t i = 0; i + 1 < n; i++) rank[i] = rank_or_never(t, p + i, 2);
    while (parts > 1) {
        size_t best = 0;
        for (size_t i = 1; i + 1 < parts; i++)
            if (rank[i] < rank[best]) best = i;
        if (rank[best] == NEVER_RANK) break;
        memmove(starts + best + 1, starts + best + 2, (parts - best - 1) * sizeof *starts);
        memmove(rank + best, rank + best + 1, (parts - best - 2) * sizeof *rank);
        parts--;
        if (best + 1 < parts) rank[best] = rank_or_never(t, p + starts[best], starts[best + 2] - starts[best]);
        if (best > 0) rank[best - 1] = rank_or_never(t, p + starts[best - 1], starts[best + 1] - starts[best - 1]);
    }
    return parts;
}

static void check_piece(const table *t, tiktoken_scratch *scratch, const uint8_t *p, size_t n) {
    idbuf ids;
    cpbuf_init(&ids);
    size_t missing = SIZE_MAX;
    int r = tiktoken_piece(&t->map, scratch, p, n, &ids, &missing);
    CHECK(r == 0 || r == -2);
    uint32_t whole;
    if (bytemap_get(&t->map, p, n, &whole)) {
        CHECK(r == 0 && ids.len == 1 && ids.data[0] == whole);
        cpbuf_free(&ids);
        return;
    }
    size_t *starts = malloc((n + 1) * sizeof *starts);
    uint64_t *rank = malloc((n ? n : 1) * sizeof *rank);
    CHECK(starts != NULL && rank != NULL);
    size_t parts = n ? reference_parts(t, p, n, starts, rank) : 0;
    size_t first_missing = SIZE_MAX;
    for (size_t k = 0; k < parts && first_missing == SIZE_MAX; k++)
        if (rank_or_never(t, p + starts[k], starts[k + 1] - starts[k]) == NEVER_RANK) first_missing = starts[k];
    if (first_missing != SIZE_MAX) {
        CHECK(r == -2 && missing == first_missing);
    } else {
        CHECK(r == 0 && ids.len == parts && ids.len <= n);
        for (size_t k = 0; k < parts; k++) {
            size_t len = starts[k + 1] - starts[k];
            CHECK(ids.data[k] == rank_or_never(t, p + starts[k], len));
            CHECK(table_spells(t, ids.data[k], p + starts[k], len)); /* the ids decode to the piece */
        }
    }
    free(starts);
    free(rank);
    cpbuf_free(&ids);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    uint8_t shape = data[0];
    const uint8_t *text = data + 1;
    size_t n = size - 1, lines = 0, last = 0;
    for (size_t k = 0; k < n; k++)
        if (text[k] == '\n') lines++, last = k + 1;
    table t = {0};
    bytemap_init(&t.map);
    for (int b = 0; b < 256; b++) t.singles[b] = (uint8_t)b;
    size_t singles = (shape & 1) ? 256 : 0, total = lines + singles;
    uint32_t base = (shape & 32) && total ? (uint32_t)(UINT32_MAX - (total - 1)) : 0;
    size_t next = 0; /* the next rank's position in the order, before bits 3-5 shape it */
#define RANK(pos) (base + (uint32_t)((shape & 16) ? ((shape & 8) ? total - 1 - (pos) : (pos)) % 7 \
                                                  : ((shape & 8) ? total - 1 - (pos) : (pos))))
    int singles_first = (shape & 4) != 0;
    for (int pass = 0; pass < 2; pass++) {
        if ((pass == 0) == singles_first) {
            for (size_t b = 0; b < singles; b++, next++)
                if (!((shape & 2) && b % 3 == 0)) table_put(&t, &t.singles[b], 1, RANK(next));
        } else {
            size_t start = 0;
            for (size_t k = 0; k < last; k++)
                if (text[k] == '\n') {
                    if (k > start) table_put(&t, text + start, k - start, RANK(next));
                    next++;
                    start = k + 1;
                }
        }
    }
#undef RANK
    tiktoken_scratch scratch;
    tiktoken_scratch_init(&scratch);
    check_piece(&t, &scratch, text + last, n - last);
    check_piece(&t, &scratch, text + last, (n - last) / 2);
    tiktoken_scratch_free(&scratch);
    bytemap_free(&t.map);
    free(t.by_rank);
    free(t.ranks);
    return 0;
}
