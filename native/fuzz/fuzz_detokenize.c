/* Fuzz target (seeds: byte+text): ids to text, the fast road (spec 14.6, detokenize.c). Byte 0:
 * bit 0 strict, bit 1 skip_special, bits 2-4 max_output (as fuzz_decode.c). The text's lines but
 * the last are ordinary tokens (id k for line k; an empty line's id stays unknown); then come the
 * 256 byte tokens, one special token and one unknown id. The last line's code points, each modulo
 * the ids there are, are the ids to detokenize. Invariants checked: the fast road answers 1, 0
 * or -1 (never 1 with an unknown id); when it answers 1 for ids with no special token, its text
 * is what the decoder makes of the ids' stream (their tokens' code points, each run of byte
 * tokens read as UTF-8), with no strict error. */
#include "fuzz.h"

static const uint64_t MAX_OUTPUTS[8] = {0, 1, 3, 10, 255, 1000, 65536, 1u << 26};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    int strict = data[0] & 1, skip_special = (data[0] >> 1) & 1;
    uint64_t max_output = MAX_OUTPUTS[(data[0] >> 2) & 7];
    size_t n, lines = 0, last = 0;
    uint32_t *t = fuzz_text(data + 1, size - 1, 0, &n);
    for (size_t k = 0; k < n; k++)
        if (t[k] == '\n') { lines++; last = k + 1; }
    size_t bytes = lines, special = lines + 256, unknown = lines + 257, count = lines + 258;

    token_table table;
    OK(token_table_init(&table, count));
    for (size_t k = 0, line = 0, start = 0; line < lines; k++) {
        if (t[k] != '\n') continue;
        if (k > start) OK(token_table_set(&table, line, TOKEN_ORDINARY, t + start, k - start, 0));
        line++;
        start = k + 1;
    }
    for (int b = 0; b < 256; b++)
        OK(token_table_set(&table, bytes + (size_t)b, TOKEN_BYTE, NULL, 0, (uint8_t)b));
    static const uint32_t S[3] = {'<', 's', '>'};
    OK(token_table_set(&table, special, TOKEN_SPECIAL, S, 3, 0));

    size_t m = n - last;
    uint64_t *ids = malloc((m ? m : 1) * sizeof *ids);
    CHECK(ids != NULL);
    int has_unknown = 0, has_special = 0;
    for (size_t k = 0; k < m; k++) {
        ids[k] = t[last + k] % count;
        has_special |= ids[k] == special;
        /* an empty line's id is unknown too */
        has_unknown |= ids[k] == unknown || (ids[k] < lines && table.entries[ids[k]].kind == TOKEN_UNKNOWN);
    }
    cpbuf out;
    cpbuf_init(&out);
    int r = detokenize(&table, ids, m, strict, skip_special, max_output, &out);
    CHECK(r == 1 || r == 0 || r == -1);
    CHECK(r != -1); /* no allocation fails here */
    if (has_unknown) CHECK(r == 0);
    if (r == 1 && !has_special) {
        cpbuf stream, run, text;
        cpbuf_init(&stream);
        cpbuf_init(&run);
        cpbuf_init(&text);
        for (size_t k = 0; k <= m; k++) {
            int is_byte = k < m && ids[k] >= bytes && ids[k] < special;
            if (is_byte) { OK(cpbuf_push(&run, (uint32_t)(ids[k] - bytes))); continue; }
            if (run.len) { /* a run of byte tokens: their UTF-8, which the fast road found valid */
                uint8_t *raw = malloc(run.len);
                CHECK(raw != NULL);
                for (size_t j = 0; j < run.len; j++) raw[j] = (uint8_t)run.data[j];
                size_t cps;
                uint32_t *decoded = fuzz_text(raw, run.len, 0, &cps);
                OK(cpbuf_extend(&stream, decoded, cps));
                free(decoded);
                free(raw);
                run.len = 0;
            }
            if (k < m) {
                const token_entry *e = &table.entries[ids[k]];
                OK(cpbuf_extend(&stream, table.text.data + e->start, e->length));
            }
        }
        decode_error error;
        memset(&error, 0, sizeof error);
        OK(decode_stream(stream.data, 4, stream.len, strict, max_output, &text, &error));
        CHECK(error.kind == DECODE_OK);
        CHECK(fuzz_same(out.data, out.len, text.data, text.len));
        cpbuf_free(&stream);
        cpbuf_free(&run);
        cpbuf_free(&text);
    }
    cpbuf_free(&out);
    free(ids);
    token_table_free(&table);
    free(t);
    return 0;
}
