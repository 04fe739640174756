/* Fuzz target (seeds: byte+text): pre-tokens (spec 9, pretokens.c) under all three fuse modes at
 * once: the first byte is the encoder configuration (fuzz_read_config), the rest the text.
 * Invariants checked:
 * - in every mode the pre-tokens concatenate to the stream, which is encode_text's (each
 *   pre-token non-empty, the last one ending where the stream does);
 * - "all" has one pre-token for each of the splitter's pieces (9.2);
 * - "none" cuts at least there (9.1: it cuts groups apart too), "frequent" at most there (9.4:
 *   it only joins), so the cuts of frequent ⊆ all ⊆ none. */
#include "fuzz.h"

/* Whether every cut of a (sorted) is a cut of b (sorted). */
static int subset(const offsets *a, const offsets *b) {
    size_t j = 0;
    for (size_t k = 0; k < a->len; k++) {
        while (j < b->len && b->data[j] < a->data[k]) j++;
        if (j == b->len || b->data[j] != a->data[k]) return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    fuzz_config c = fuzz_read_config(data[0]);
    size_t raw_n, n;
    uint32_t *raw = fuzz_text(data + 1, size - 1, 0, &raw_n);
    cpbuf normalized, expected, stream[3];
    offsets ends[3];
    cpbuf_init(&normalized);
    cpbuf_init(&expected);
    const uint32_t *text = fuzz_normalized(raw, raw_n, c.normalize, &normalized, &n);
    OK(encode_text(text, n, c.max_digits, c.cfg, &expected));

    for (int fuse = 0; fuse < 3; fuse++) {
        cpbuf_init(&stream[fuse]);
        offsets_init(&ends[fuse]);
        OK(pretokens(text, n, c.max_digits, c.cfg, fuse, &stream[fuse], &ends[fuse]));
        CHECK(fuzz_same(stream[fuse].data, stream[fuse].len, expected.data, expected.len));
        const offsets *e = &ends[fuse];
        CHECK((e->len == 0) == (n == 0));
        for (size_t k = 0; k < e->len; k++) CHECK(e->data[k] > (k ? e->data[k - 1] : 0));
        CHECK(e->len == 0 || e->data[e->len - 1] == expected.len);
    }
    size_t pieces = 0;
    for (size_t start = 0; start < n; pieces++) start = piece_end(text, start, n, c.max_digits);
    CHECK(ends[FUSE_ALL].len == pieces);
    CHECK(subset(&ends[FUSE_ALL], &ends[FUSE_NONE]));
    CHECK(subset(&ends[FUSE_FREQUENT], &ends[FUSE_ALL]));

    for (int fuse = 0; fuse < 3; fuse++) {
        cpbuf_free(&stream[fuse]);
        offsets_free(&ends[fuse]);
    }
    cpbuf_free(&normalized);
    cpbuf_free(&expected);
    free(raw);
    return 0;
}
