/* Fuzz target (seeds: byte+text): the decoder (spec 7 and 8, decoding.c), strict and lenient, on any
 * stream (surrogates too: decode takes any str). The first byte's low 3 bits choose max_output
 * (0, 1, 3, 10, 255, 1000, 65536 or 2**26); the rest is the stream. Invariants checked:
 * - lenient decoding (8.3) never reports an error;
 * - a strict error has a kind of 8.1, an offset inside the stream and a message; without one,
 *   strict and lenient decoding give the same text (8.3);
 * - the stream read in place from 1-, 2- or 4-byte storage (a str's kinds) decodes the same;
 * - the output is bounded by max_output plus a constant times the stream (7.8). */
#include "fuzz.h"

static const uint64_t MAX_OUTPUTS[8] = {0, 1, 3, 10, 255, 1000, 65536, 1u << 26};

typedef struct {
    cpbuf text;
    decode_error error;
} decoded;

static void decode_as(const uint32_t *s, size_t n, int width, int strict, uint64_t max_output, decoded *d) {
    void *stored = malloc(n ? n * (size_t)width : 1);
    CHECK(stored != NULL);
    for (size_t k = 0; k < n; k++) {
        if (width == 1) ((uint8_t *)stored)[k] = (uint8_t)s[k];
        else if (width == 2) ((uint16_t *)stored)[k] = (uint16_t)s[k];
        else ((uint32_t *)stored)[k] = s[k];
    }
    cpbuf_init(&d->text);
    memset(&d->error, 0, sizeof d->error);
    OK(decode_stream(stored, width, n, strict, max_output, &d->text, &d->error));
    free(stored);
}

static void check_same(const decoded *a, const decoded *b) {
    CHECK(a->error.kind == b->error.kind && a->error.offset == b->error.offset);
    CHECK(fuzz_same(a->text.data, a->text.len, b->text.data, b->text.len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    uint64_t max_output = MAX_OUTPUTS[data[0] & 7];
    size_t n;
    uint32_t *s = fuzz_text(data + 1, size - 1, 1, &n);
    uint32_t top = 0;
    for (size_t k = 0; k < n; k++) top = s[k] > top ? s[k] : top;

    decoded strict, lenient, narrow;
    decode_as(s, n, 4, 1, max_output, &strict);
    decode_as(s, n, 4, 0, max_output, &lenient);
    CHECK(lenient.error.kind == DECODE_OK);
    if (strict.error.kind != DECODE_OK) {
        CHECK(strict.error.kind > DECODE_OK && strict.error.kind <= DECODE_LONE_SURROGATE);
        CHECK(strict.error.offset <= n);
        CHECK(memchr(strict.error.message, 0, sizeof strict.error.message) != NULL);
        CHECK(decode_error_name(strict.error.kind) != NULL);
    } else {
        CHECK(fuzz_same(strict.text.data, strict.text.len, lenient.text.data, lenient.text.len));
    }
    CHECK(lenient.text.len <= max_output + 4 * n);
    for (int width = 1; width <= 2; width++) {
        if (top >= (width == 1 ? 0x100u : 0x10000u)) continue;
        for (int mode = 0; mode <= 1; mode++) {
            decode_as(s, n, width, mode, max_output, &narrow);
            check_same(&narrow, mode ? &strict : &lenient);
            cpbuf_free(&narrow.text);
        }
    }
    cpbuf_free(&strict.text);
    cpbuf_free(&lenient.text);
    free(s);
    return 0;
}
