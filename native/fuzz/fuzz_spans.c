/* Fuzz target (seeds: byte+text): stream_spans (spans.c, Encoding.offsets' spans): the first
 * byte is the encoder configuration (fuzz_read_config), the rest the text, as given (NFC runs
 * inside when the configuration normalizes). Invariants checked:
 * - one span per code point of the stream, which is encode_text's of the normalized text;
 * - each span is a non-empty stretch of the text as given: 0 <= start < end <= its length;
 * - together they reach both ends of the text: the least start is 0, the last code point (the
 *   last slot of the last base) ends at the text's end. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    fuzz_config c = fuzz_read_config(data[0]);
    size_t raw_n, n;
    uint32_t *raw = fuzz_text(data + 1, size - 1, 0, &raw_n);
    cpbuf normalized, stream;
    offsets starts, ends;
    cpbuf_init(&normalized);
    cpbuf_init(&stream);
    offsets_init(&starts);
    offsets_init(&ends);
    const uint32_t *text = fuzz_normalized(raw, raw_n, c.normalize, &normalized, &n);
    OK(encode_text(text, n, c.max_digits, c.cfg, &stream));
    OK(stream_spans(raw, raw_n, c.normalize, c.max_digits, c.cfg, &starts, &ends));

    CHECK(starts.len == stream.len && ends.len == stream.len);
    size_t least = raw_n;
    for (size_t k = 0; k < starts.len; k++) {
        CHECK(starts.data[k] < ends.data[k] && ends.data[k] <= raw_n);
        least = starts.data[k] < least ? starts.data[k] : least;
    }
    CHECK(raw_n == 0 || (least == 0 && ends.data[ends.len - 1] == raw_n));

    offsets_free(&starts);
    offsets_free(&ends);
    cpbuf_free(&normalized);
    cpbuf_free(&stream);
    free(raw);
    return 0;
}
