/* Fuzz target (seeds: byte+text): the tokenizer's greedy encode (spec 14.4: bpe.c, vocab.c,
 * tokenizer.c) on a merge model the input builds. Byte 0 is the encoder configuration
 * (fuzz_read_config), byte 1 the fuse mode (mod 3), byte 2 the alphabet's size k (1..32),
 * byte 3 the number of merges m (0..63), then m pairs of bytes, each pair a merge of two tokens
 * (indices modulo the tokens so far) into a new one; the rest is text, whose first k code points
 * are the alphabet (one-character tokens) and the others the text to encode. Every byte has a
 * byte-fallback token. Invariants checked:
 * - the ids spell the stream (their tokens' and bytes' UTF-8 is the stream's, spec 14.4);
 * - they are each pre-token's bpe_word ids one after another (the cache changes nothing, even
 *   while it evicts: its limit is 4), and a second encode with the warm cache gives them again;
 * - no two adjacent ids of a pre-token have a merge left (greedy BPE runs to the end). */
#include "fuzz.h"

enum { BYTE_IDS = 100000, MAX_TOKEN = 64 };

static void append_utf8(cpbuf *bytes, const uint32_t *s, size_t n) {
    for (size_t k = 0; k < n; k++) {
        uint32_t c = s[k];
        if (c < 0x80) OK(cpbuf_push(bytes, c));
        else if (c < 0x800) {
            OK(cpbuf_push(bytes, 0xC0 | c >> 6)); OK(cpbuf_push(bytes, 0x80 | (c & 0x3F)));
        }
        else if (c < 0x10000) {
            OK(cpbuf_push(bytes, 0xE0 | c >> 12)); OK(cpbuf_push(bytes, 0x80 | ((c >> 6) & 0x3F)));
            OK(cpbuf_push(bytes, 0x80 | (c & 0x3F)));
        } else {
            OK(cpbuf_push(bytes, 0xF0 | c >> 18)); OK(cpbuf_push(bytes, 0x80 | ((c >> 12) & 0x3F)));
            OK(cpbuf_push(bytes, 0x80 | ((c >> 6) & 0x3F))); OK(cpbuf_push(bytes, 0x80 | (c & 0x3F)));
        }
    }
}

typedef struct { size_t start, n; } token; /* a token's code points in the arena */

static void spell(const idbuf *ids, const token *tokens, size_t count, const cpbuf *arena, cpbuf *bytes) {
    for (size_t k = 0; k < ids->len; k++) {
        uint32_t id = ids->data[k];
        if (id >= BYTE_IDS) { CHECK(id < BYTE_IDS + 256); OK(cpbuf_push(bytes, id - BYTE_IDS)); }
        else { CHECK(id < count); append_utf8(bytes, arena->data + tokens[id].start, tokens[id].n); }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4) return 0;
    fuzz_config c = fuzz_read_config(data[0]);
    int fuse = data[1] % 3;
    size_t k = data[2] % 32 + 1, m = data[3] % 64;
    if (size < 4 + 2 * m) return 0;
    const uint8_t *pairs = data + 4;
    size_t raw_n;
    uint32_t *raw = fuzz_text(data + 4 + 2 * m, size - 4 - 2 * m, 0, &raw_n);
    if (raw_n < k) { free(raw); return 0; }

    greedy_tokenizer t;
    bpe_model_init(&t.bpe);
    t.max_digits = c.max_digits;
    t.cfg = c.cfg;
    t.fuse = fuse;
    for (int b = 0; b < 256; b++) { t.bpe.bytes[b] = BYTE_IDS + (uint32_t)b; t.bpe.has_byte[b] = 1; }
    token tokens[32 + 64];
    cpbuf arena;
    cpbuf_init(&arena);
    size_t count = 0;
    for (size_t a = 0; a < k; a++, count++) {
        tokens[count] = (token){arena.len, 1};
        OK(cpbuf_push(&arena, raw[a]));
        OK(pairmap_put(&t.bpe.chars, raw[a], 0, (uint32_t)count));
    }
    for (size_t r = 0; r < m; r++) {
        size_t left = pairs[2 * r] % count, right = pairs[2 * r + 1] % count;
        if (tokens[left].n + tokens[right].n > MAX_TOKEN) continue;
        tokens[count] = (token){arena.len, tokens[left].n + tokens[right].n};
        OK(cpbuf_reserve(&arena, tokens[count].n)); /* no realloc between the two copies below */
        OK(cpbuf_extend(&arena, arena.data + tokens[left].start, tokens[left].n));
        OK(cpbuf_extend(&arena, arena.data + tokens[right].start, tokens[right].n));
        OK(pairmap_put(&t.bpe.merges, (uint64_t)left << 32 | right, (uint32_t)r, (uint32_t)count));
        count++;
    }

    cpbuf normalized, stream, want, got;
    offsets ends;
    idbuf ids, again, words;
    cpbuf_init(&normalized); cpbuf_init(&stream); cpbuf_init(&want); cpbuf_init(&got);
    cpbuf_init(&ids); cpbuf_init(&again); cpbuf_init(&words);
    offsets_init(&ends);
    size_t n;
    const uint32_t *text = fuzz_normalized(raw + k, raw_n - k, c.normalize, &normalized, &n);

    greedy_workspace w;
    greedy_workspace_init(&w, 4);
    OK(greedy_encode(&t, &w, text, n, &ids));
    OK(greedy_encode(&t, &w, text, n, &again));
    CHECK(fuzz_same(ids.data, ids.len, again.data, again.len));

    OK(pretokens(text, n, c.max_digits, c.cfg, fuse, &stream, &ends));
    append_utf8(&want, stream.data, stream.len);
    spell(&ids, tokens, count, &arena, &got);
    CHECK(fuzz_same(got.data, got.len, want.data, want.len));

    bpe_scratch scratch;
    bpe_scratch_init(&scratch);
    for (size_t e = 0, start = 0; e < ends.len; start = ends.data[e++]) {
        size_t from = words.len;
        OK(bpe_word(&t.bpe, &scratch, stream.data + start, ends.data[e] - start, &words));
        for (size_t j = from; j + 1 < words.len; j++)
            CHECK(pairmap_get(&t.bpe.merges, (uint64_t)words.data[j] << 32 | words.data[j + 1]) == NULL);
    }
    CHECK(fuzz_same(words.data, words.len, ids.data, ids.len));

    bpe_scratch_free(&scratch);
    greedy_workspace_free(&w);
    bpe_model_free(&t.bpe);
    cpbuf_free(&arena);
    cpbuf_free(&normalized); cpbuf_free(&stream); cpbuf_free(&want); cpbuf_free(&got);
    cpbuf_free(&ids); cpbuf_free(&again); cpbuf_free(&words);
    offsets_free(&ends);
    free(raw);
    return 0;
}
