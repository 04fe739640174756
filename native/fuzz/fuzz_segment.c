/* Fuzz target (seeds: byte+text): the optimal segmenter (spec 10, segment.c). The text's lines
 * are the candidate tokens (line k has id k) but the last, which is the word; the first byte
 * turns byte fallback on (bit 0) and takes some bytes out of it (bit 1: every third byte).
 * Invariants checked, against a plain dynamic program over the same edges (a token, or the
 * fallback edge of a symbol that is not itself a token, costing its UTF-8 length), with the
 * reference's errors (python/functok/tokenizer/segment.py): a word that is one token is that
 * token; else a symbol that is not a token and whose bytes fallback lacks fails the word
 * (SEGMENT_NO_FALLBACK at the rightmost one, where the reference's fallback raises first);
 * - else the word is segmented exactly when the program finds a way, with as few ids as it finds;
 * - the ids spell the word (their tokens' and bytes' UTF-8 is the word's);
 * - segmenter_whole finds a word that is one token, and only then. */
#include "fuzz.h"

enum { BYTE_IDS = 100000 }; /* byte b's token has id BYTE_IDS + b */

static size_t utf8(uint32_t cp, uint8_t *b) {
    if (cp < 0x80) { b[0] = (uint8_t)cp; return 1; }
    if (cp < 0x800) { b[0] = (uint8_t)(0xC0 | cp >> 6); b[1] = (uint8_t)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | cp >> 12); b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp & 0x3F)); return 3;
    }
    b[0] = (uint8_t)(0xF0 | cp >> 18); b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F)); b[3] = (uint8_t)(0x80 | (cp & 0x3F)); return 4;
}

typedef struct { const uint32_t *s; size_t n; } span;

static void append_utf8(cpbuf *bytes, const uint32_t *s, size_t n) {
    uint8_t b[4];
    for (size_t k = 0; k < n; k++) {
        size_t len = utf8(s[k], b);
        for (size_t m = 0; m < len; m++) OK(cpbuf_push(bytes, b[m]));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    int fallback = data[0] & 1, holes = (data[0] >> 1) & 1;
    size_t n;
    uint32_t *t = fuzz_text(data + 1, size - 1, 0, &n);
    size_t lines = 1;
    for (size_t k = 0; k < n; k++) lines += t[k] == '\n';
    span *tokens = malloc(lines * sizeof *tokens);
    CHECK(tokens != NULL);
    size_t count = 0, start = 0;
    for (size_t k = 0; k <= n; k++)
        if (k == n || t[k] == '\n') {
            tokens[count].s = t + start;
            tokens[count++].n = k - start;
            start = k + 1;
        }
    span word = tokens[--count]; /* the last line */

    segmenter *seg = segmenter_new();
    CHECK(seg != NULL);
    for (size_t id = 0; id < count; id++)
        if (tokens[id].n) OK(segmenter_add(seg, tokens[id].s, tokens[id].n, (uint32_t)id));
    uint32_t byte_id[256];
    uint8_t has_byte[256];
    for (int b = 0; b < 256; b++) {
        byte_id[b] = BYTE_IDS + (uint32_t)b;
        has_byte[b] = !(holes && b % 3 == 0);
    }
    if (fallback) segmenter_set_byte_fallback(seg, byte_id, has_byte);

    /* the fewest ids from i to the end, SIZE_MAX where no way is */
    size_t *best = malloc((word.n + 1) * sizeof *best);
    CHECK(best != NULL);
    best[word.n] = 0;
    size_t raises = SIZE_MAX; /* the rightmost symbol whose fallback cannot spell it */
    for (size_t i = word.n; i-- > 0;) {
        best[i] = SIZE_MAX;
        int single = 0;
        for (size_t id = 0; id < count; id++) {
            size_t len = tokens[id].n;
            if (!len || len > word.n - i || memcmp(tokens[id].s, word.s + i, len * sizeof *word.s)) continue;
            single |= len == 1;
            if (best[i + len] != SIZE_MAX && best[i + len] + 1 < best[i]) best[i] = best[i + len] + 1;
        }
        uint8_t b[4];
        size_t blen = utf8(word.s[i], b), spelled = 1;
        for (size_t m = 0; m < blen; m++) spelled &= has_byte[b[m]];
        if (!single && fallback && !spelled && raises == SIZE_MAX) raises = i;
        if (!single && fallback && spelled && best[i + 1] != SIZE_MAX && best[i + 1] + blen < best[i])
            best[i] = best[i + 1] + blen;
    }
    int whole_token = 0;
    for (size_t id = 0; id < count && word.n; id++)
        whole_token |= fuzz_same(tokens[id].s, tokens[id].n, word.s, word.n);
    if (whole_token) best[0] = 1;
    else if (raises != SIZE_MAX) best[0] = SIZE_MAX;

    idbuf ids;
    cpbuf_init(&ids);
    size_t at = 0;
    int r = segment_word(seg, word.s, word.n, &ids, &at);
    CHECK(r == SEGMENT_OK || r == SEGMENT_NO_TOKEN || r == SEGMENT_NO_FALLBACK);
    CHECK((r == SEGMENT_OK) == (best[0] != SIZE_MAX));
    if (!whole_token && raises != SIZE_MAX) CHECK(r == SEGMENT_NO_FALLBACK && at == raises);
    if (r == SEGMENT_NO_FALLBACK) CHECK(fallback && at < word.n);
    if (r == SEGMENT_OK) {
        CHECK(ids.len == best[0]);
        cpbuf spelled, expected;
        cpbuf_init(&spelled);
        cpbuf_init(&expected);
        for (size_t k = 0; k < ids.len; k++) {
            uint32_t id = ids.data[k];
            if (id >= BYTE_IDS) { CHECK(id < BYTE_IDS + 256); OK(cpbuf_push(&spelled, id - BYTE_IDS)); }
            else { CHECK(id < count); append_utf8(&spelled, tokens[id].s, tokens[id].n); }
        }
        append_utf8(&expected, word.s, word.n);
        CHECK(fuzz_same(spelled.data, spelled.len, expected.data, expected.len));
        cpbuf_free(&spelled);
        cpbuf_free(&expected);
    }
    uint32_t whole = 0;
    int found = word.n && segmenter_whole(seg, word.s, word.n, &whole);
    CHECK(found == whole_token);
    if (found) CHECK(whole < count && fuzz_same(tokens[whole].s, tokens[whole].n, word.s, word.n));

    cpbuf_free(&ids);
    free(best);
    segmenter_free(seg);
    free(tokens);
    free(t);
    return 0;
}
