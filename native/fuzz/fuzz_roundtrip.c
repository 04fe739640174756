/* Fuzz target (seeds: byte+text): encode then decode (spec 6 and 7) under every encoder
 * configuration (the first byte, fuzz_read_config; normalize is always on, since only normalized
 * text round-trips). Invariant checked: decoding the stream, strictly, with the default
 * max_output, gives back the normalized text with no error (the format is lossless). */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    fuzz_config c = fuzz_read_config(data[0]);
    size_t raw_n, n;
    uint32_t *raw = fuzz_text(data + 1, size - 1, 0, &raw_n);
    cpbuf normalized, stream, back;
    cpbuf_init(&normalized);
    cpbuf_init(&stream);
    cpbuf_init(&back);
    const uint32_t *text = fuzz_normalized(raw, raw_n, 1, &normalized, &n);
    OK(encode_text(text, n, c.max_digits, c.cfg, &stream));
    decode_error error;
    memset(&error, 0, sizeof error);
    OK(decode_stream(stream.data, 4, stream.len, 1, 1u << 26, &back, &error));
    if (error.kind != DECODE_OK)
        fprintf(stderr, "decode error %s at %zu: %s\n", decode_error_name(error.kind), error.offset,
                error.message);
    CHECK(error.kind == DECODE_OK);
    CHECK(fuzz_same(back.data, back.len, text, n));
    cpbuf_free(&normalized);
    cpbuf_free(&stream);
    cpbuf_free(&back);
    free(raw);
    return 0;
}
