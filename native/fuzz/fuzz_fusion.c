/* Fuzz target (seeds: byte+text): training's fusion merges (fusion.c) over a fixed table of eight
 * tokens ("a", "b", "ab", U+E100, "<0x61>" which is a byte-fallback token, "c", U+E000, "ba") and
 * six segments (0 and 1 instructions). The first byte is the limit (its low 5 bits) and min_count
 * (its high 3 bits); then six bytes make the segments (each one to three tokens), and each byte
 * after them adds a segment to the current chain (its low 3 bits: 0..5 a segment, 6 or 7 ends the
 * chain) counted 1 + (byte >> 3) times. Invariants checked:
 * - the merges are at most limit, each of two tokens in the table given back;
 * - no merge joins the byte-fallback token (no other token's text holds "<");
 * - a merge's token, when new, is the text of its two tokens joined;
 * - the same input gives the same merges again (the order depends on counts and strings only). */
#include "fuzz.h"
#include "../core/training.h"

static const uint32_t TEXT[] = {'a', 'b', 'a', 'b', 0xE100, '<', '0', 'x', '6', '1', '>', 'c', 0xE000, 'b', 'a'};
static const size_t ENDS[] = {1, 2, 4, 5, 11, 12, 13, 15};
static const uint8_t UNMERGEABLE[] = {0, 0, 0, 0, 1, 0, 0, 0};
enum { TOKENS = 8, SEGMENTS = 6, MAX_LINKS = 4096 };

static int same_result(const fusion_result *x, const fusion_result *y) {
    return x->len == y->len && (!x->len || !memcmp(x->merges, y->merges, 2 * x->len * sizeof *x->merges)) &&
           x->ntokens == y->ntokens && fuzz_same(x->text.data, x->text.len, y->text.data, y->text.len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 + SEGMENTS) return 0;
    size_t limit = data[0] & 31;
    uint64_t min_count = data[0] >> 5;
    int32_t segment_tokens[3 * SEGMENTS];
    int64_t segment_starts[SEGMENTS + 1] = {0};
    uint8_t instruction[SEGMENTS] = {1, 1, 0, 0, 0, 0};
    for (int j = 0; j < SEGMENTS; j++) {
        uint8_t b = data[1 + j];
        int64_t n = 1 + b % 3;
        for (int64_t t = 0; t < n; t++) segment_tokens[segment_starts[j] + t] = (b / 3 + (int)t * 5) % TOKENS;
        segment_starts[j + 1] = segment_starts[j] + n;
    }
    static int32_t chain_segments[MAX_LINKS];
    static int64_t chain_starts[MAX_LINKS + 1];
    static uint64_t counts[MAX_LINKS];
    size_t links = 0, chains = 0;
    chain_starts[0] = 0;
    for (size_t i = 1 + SEGMENTS; i < size && links < MAX_LINKS; i++) {
        int s = data[i] & 7;
        if (s >= SEGMENTS) {
            if ((size_t)chain_starts[chains] < links) chain_starts[++chains] = (int64_t)links;
            continue;
        }
        if ((size_t)chain_starts[chains] == links) counts[chains] = 1 + (data[i] >> 3);
        chain_segments[links++] = s;
    }
    if ((size_t)chain_starts[chains] < links) chain_starts[++chains] = (int64_t)links;
    fusion_input in = {TEXT, ENDS, UNMERGEABLE, TOKENS, segment_tokens, segment_starts, instruction, SEGMENTS,
                       chain_segments, chain_starts, counts, chains};
    fusion_result first, again;
    OK(fusion_merges(&in, limit, min_count, 1234, &first));
    CHECK(first.len <= limit);
    for (size_t m = 0; m < first.len; m++) {
        uint32_t a = first.merges[2 * m], b = first.merges[2 * m + 1];
        CHECK(a < first.ntokens && b < first.ntokens && a != 4 && b != 4);
    }
    for (size_t t = TOKENS; t < first.ntokens; t++) CHECK(first.ends[t] > first.ends[t - 1]);
    for (size_t m = 0; m < first.len; m++) { /* a + b is in the table, as the text of both joined */
        uint32_t a = first.merges[2 * m], b = first.merges[2 * m + 1];
        size_t la = first.ends[a] - (a ? first.ends[a - 1] : 0), lb = first.ends[b] - (b ? first.ends[b - 1] : 0);
        int found = 0;
        for (size_t t = 0; t < first.ntokens && !found; t++) {
            size_t start = t ? first.ends[t - 1] : 0;
            const uint32_t *text = first.text.data;
            found = first.ends[t] - start == la + lb &&
                    fuzz_same(text + start, la, text + (a ? first.ends[a - 1] : 0), la) &&
                    fuzz_same(text + start + la, lb, text + (b ? first.ends[b - 1] : 0), lb);
        }
        CHECK(found);
    }
    OK(fusion_merges(&in, limit, min_count, 99, &again)); /* another seed: the same merges */
    CHECK(same_result(&first, &again));
    fusion_result_free(&first);
    fusion_result_free(&again);
    return 0;
}
