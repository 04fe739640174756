/* Fuzz target (seeds: byte+text): training's counts and their merge (count.c): byte 0 is the
 * encoder configuration (fuzz_read_config), byte 1 where the text is cut in two (its high 6 bits)
 * and the pruning floor (its low 2 bits, plus 1), the rest the text. Invariants checked:
 * - the two halves counted apart, packed (counter_pack: UTF-8 joined by a separator) and merged
 *   (counter_add_packed, counter_add_chains in ChainTable's form) give the counts of both halves
 *   counted into one counter: the same keys in the same order, the same cuts and counts;
 * - counter_prune keeps exactly the keys counted at least the floor, in order, and finds them
 *   again afterwards;
 * - the raw bytes read as packed keys are merged or refused (COUNT_INVALID), never misread. */
#include "fuzz.h"
#include "../core/training.h"

/* The first code point from U+0001 up, no surrogate, that no key of c holds. */
static uint32_t separator_of(const counter *c) {
    static uint8_t seen[0x110000 / 8];
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < c->keys.len; i++)
        if (c->keys.data[i] < 0x110000) seen[c->keys.data[i] >> 3] |= (uint8_t)(1 << (c->keys.data[i] & 7));
    uint32_t s = 1;
    while (seen[s >> 3] & 1 << (s & 7) || (s >= 0xD800 && s <= 0xDFFF)) s++;
    return s;
}

/* c's keys packed and added to into (as merge_packed_counts does a shard's words). */
static void merge_words(const counter *c, counter *into) {
    uint32_t separator = separator_of(c);
    size_t size = counter_packed_size(c, separator);
    uint8_t *packed = malloc(size ? size : 1);
    uint64_t *counts = malloc((c->len ? c->len : 1) * sizeof *counts);
    CHECK(packed && counts);
    counter_pack(c, separator, packed);
    for (size_t i = 0; i < c->len; i++) counts[i] = c->entries[i].count;
    OK(counter_add_packed(into, packed, size, separator, counts, c->len));
    free(packed);
    free(counts);
}

/* c's chains in ChainTable's form (distinct segments, indices, starts) added to into. */
static void merge_chains(const counter *c, counter *into) {
    counter segments;
    counter_init(&segments);
    size_t links = 0;
    for (size_t i = 0; i < c->len; i++) links += c->entries[i].ncuts + 1;
    int32_t *indices = malloc((links ? links : 1) * sizeof *indices);
    int64_t *starts = malloc((c->len + 1) * sizeof *starts);
    uint64_t *counts = malloc((c->len ? c->len : 1) * sizeof *counts);
    CHECK(indices && starts && counts);
    size_t at = 0;
    starts[0] = 0;
    for (size_t i = 0; i < c->len; i++) {
        const count_entry *e = &c->entries[i];
        for (size_t k = 0, from = 0; k <= e->ncuts; k++) {
            size_t to = k < e->ncuts ? c->cuts.data[e->cuts_at + k] : e->len, index;
            OK(counter_index(&segments, c->keys.data + e->start + from, to - from, NULL, 0, &index));
            indices[at++] = (int32_t)index;
            from = to;
        }
        starts[i + 1] = (int64_t)at;
        counts[i] = e->count;
    }
    size_t *ends = malloc((segments.len ? segments.len : 1) * sizeof *ends);
    CHECK(ends);
    for (size_t s = 0; s < segments.len; s++) {
        CHECK(segments.entries[s].start == (s ? ends[s - 1] : 0)); /* new keys are appended in order */
        ends[s] = segments.entries[s].start + segments.entries[s].len;
    }
    OK(counter_add_chains(into, segments.keys.data, ends, segments.len, indices, links, starts, counts, c->len));
    free(ends);
    free(indices);
    free(starts);
    free(counts);
    counter_free(&segments);
}

/* Whether a and b hold the same keys, cuts and counts in the same order; with floor, a holds
 * those of b counted at least floor times. */
static int same_counts(const counter *a, const counter *b, uint64_t floor) {
    size_t j = 0;
    for (size_t i = 0; i < b->len; i++) {
        const count_entry *y = &b->entries[i];
        if (y->count < floor) continue;
        if (j >= a->len) return 0;
        const count_entry *x = &a->entries[j++];
        if (x->count != y->count || x->ncuts != y->ncuts ||
            !fuzz_same(a->keys.data + x->start, x->len, b->keys.data + y->start, y->len))
            return 0;
        for (size_t k = 0; k < x->ncuts; k++)
            if (a->cuts.data[x->cuts_at + k] != b->cuts.data[y->cuts_at + k]) return 0;
    }
    return j == a->len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    fuzz_config c = fuzz_read_config(data[0]);
    uint64_t floor = 1 + (data[1] & 3);
    size_t raw_n, n;
    uint32_t *raw = fuzz_text(data + 2, size - 2, 0, &raw_n);
    cpbuf normalized;
    cpbuf_init(&normalized);
    const uint32_t *text = fuzz_normalized(raw, raw_n, c.normalize, &normalized, &n);
    size_t cut = n * (data[1] >> 2) / 64;
    counter whole[2], half[2][2], merged[2]; /* [0]: words, [1]: chains */
    for (int k = 0; k < 2; k++) {
        counter_init(&whole[k]);
        counter_init(&merged[k]);
        counter_init(&half[0][k]);
        counter_init(&half[1][k]);
        whole[k].seed = merged[k].seed = 7;
        half[0][k].seed = half[1][k].seed = 1000 + (uint64_t)k;
    }
    OK(count_pretokens(text, cut, c.max_digits, c.cfg, FUSE_NONE, &whole[0], &whole[1]));
    OK(count_pretokens(text + cut, n - cut, c.max_digits, c.cfg, FUSE_NONE, &whole[0], &whole[1]));
    OK(count_pretokens(text, cut, c.max_digits, c.cfg, FUSE_NONE, &half[0][0], &half[0][1]));
    OK(count_pretokens(text + cut, n - cut, c.max_digits, c.cfg, FUSE_NONE, &half[1][0], &half[1][1]));
    for (int h = 0; h < 2; h++) {
        merge_words(&half[h][0], &merged[0]);
        merge_chains(&half[h][1], &merged[1]);
    }
    for (int k = 0; k < 2; k++) {
        CHECK(same_counts(&merged[k], &whole[k], 1));
        OK(counter_prune(&merged[k], floor));
        CHECK(same_counts(&merged[k], &whole[k], floor));
        size_t kept = merged[k].len;
        for (size_t i = 0; i < kept; i++) { /* each kept key is found again, not added anew */
            const count_entry e = merged[k].entries[i];
            OK(counter_add_count(&merged[k], merged[k].keys.data + e.start, e.len, NULL, 0, 1));
            CHECK(merged[k].len == kept && merged[k].entries[i].count == e.count + 1);
        }
    }
    /* The raw bytes as packed keys (separator ' ', one count per space and one more). */
    size_t keys = 1;
    for (size_t i = 2; i < size; i++) keys += data[i] == ' ';
    uint64_t *ones = malloc(keys * sizeof *ones);
    CHECK(ones);
    for (size_t i = 0; i < keys; i++) ones[i] = 1;
    counter raw_keys;
    counter_init(&raw_keys);
    int r = counter_add_packed(&raw_keys, data + 2, size - 2, ' ', ones, keys);
    CHECK(r == 0 || r == COUNT_INVALID);
    CHECK(r != 0 || raw_keys.len <= keys);
    CHECK(counter_add_packed(&raw_keys, data + 2, size - 2, ' ', ones, keys + 1) == COUNT_INVALID);
    free(ones);
    counter_free(&raw_keys);
    for (int k = 0; k < 2; k++) {
        counter_free(&whole[k]);
        counter_free(&merged[k]);
        counter_free(&half[0][k]);
        counter_free(&half[1][k]);
    }
    cpbuf_free(&normalized);
    free(raw);
    return 0;
}
