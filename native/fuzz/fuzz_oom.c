/* Fuzz target (seeds: byte+text): running out of memory (core.h: a failing call returns -1 and
 * leaves its output buffer valid). Linked with fuzz-ldflags: -Wl,--wrap=malloc,--wrap=realloc
 * so that the core's allocations come here first: byte 0 is the encoder configuration
 * (fuzz_read_config), byte 1 says which allocation fails (the 1st to the 256th, counting from
 * the start of each call below), the rest is the text. Invariants checked, for nfc, encode_text,
 * pretokens, stream_spans and decode_stream (the text read as a stream): a call returns -1 only when an
 * allocation failed, and otherwise gives what it gives with memory to spare (the same error
 * too); after -1 its buffers are still valid (freeing them leaks nothing, which LeakSanitizer
 * checks). */
#include "fuzz.h"

void *__real_malloc(size_t size);
void *__real_realloc(void *p, size_t size);

static long countdown = -1; /* allocations left before one fails; -1: none fails */
static int failed_one;

void *__wrap_malloc(size_t size) {
    if (countdown >= 0 && countdown-- == 0) { failed_one = 1; return NULL; }
    return __real_malloc(size);
}

void *__wrap_realloc(void *p, size_t size) {
    if (countdown >= 0 && countdown-- == 0) { failed_one = 1; return NULL; }
    return __real_realloc(p, size);
}

static void arm(long fail_at) { countdown = fail_at; failed_one = 0; }
static void disarm(void) { countdown = -1; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    fuzz_config c = fuzz_read_config(data[0]);
    long fail_at = data[1];
    size_t n;
    uint32_t *text = fuzz_text(data + 2, size - 2, 0, &n);
    cpbuf want, got;
    offsets want_ends, got_ends;

    /* nfc */
    cpbuf_init(&want);
    cpbuf_init(&got);
    int expected = nfc(text, n, &want);
    OK(expected);
    arm(fail_at);
    int r = nfc(text, n, &got);
    disarm();
    CHECK(r == -1 ? failed_one : r == expected && fuzz_same(got.data, got.len, want.data, want.len));
    cpbuf_free(&want);
    cpbuf_free(&got);

    /* encode_text */
    OK(encode_text(text, n, c.max_digits, c.cfg, &want));
    arm(fail_at);
    r = encode_text(text, n, c.max_digits, c.cfg, &got);
    disarm();
    CHECK(r == -1 ? failed_one : r == 0 && fuzz_same(got.data, got.len, want.data, want.len));
    cpbuf_free(&want);
    cpbuf_free(&got);

    /* pretokens, in the mode byte 0's top bits pick */
    int fuse = (data[0] >> 6) % 3;
    offsets_init(&want_ends);
    offsets_init(&got_ends);
    OK(pretokens(text, n, c.max_digits, c.cfg, fuse, &want, &want_ends));
    arm(fail_at);
    r = pretokens(text, n, c.max_digits, c.cfg, fuse, &got, &got_ends);
    disarm();
    CHECK(r == -1 ? failed_one : r == 0 && fuzz_same(got.data, got.len, want.data, want.len));
    CHECK(r == -1 || got_ends.len == want_ends.len);
    for (size_t k = 0; r == 0 && k < got_ends.len; k++) CHECK(got_ends.data[k] == want_ends.data[k]);
    cpbuf_free(&want);
    cpbuf_free(&got);
    offsets_free(&want_ends);
    offsets_free(&got_ends);

    /* stream_spans: the same spans, or -1 */
    offsets want_starts, got_starts;
    offsets_init(&want_starts);
    offsets_init(&got_starts);
    OK(stream_spans(text, n, c.normalize, c.max_digits, c.cfg, &want_starts, &want_ends));
    arm(fail_at);
    r = stream_spans(text, n, c.normalize, c.max_digits, c.cfg, &got_starts, &got_ends);
    disarm();
    CHECK(r == -1 ? failed_one : r == 0 && got_starts.len == want_starts.len && got_ends.len == want_ends.len);
    for (size_t k = 0; r == 0 && k < got_starts.len; k++)
        CHECK(got_starts.data[k] == want_starts.data[k] && got_ends.data[k] == want_ends.data[k]);
    offsets_free(&want_starts);
    offsets_free(&got_starts);
    offsets_free(&want_ends);
    offsets_free(&got_ends);

    /* decode_stream, the text read as a stream, strict and lenient */
    for (int strict = 0; strict <= 1; strict++) {
        decode_error want_error, got_error;
        memset(&want_error, 0, sizeof want_error);
        memset(&got_error, 0, sizeof got_error);
        OK(decode_stream(text, 4, n, strict, 1u << 16, &want, &want_error));
        arm(fail_at);
        r = decode_stream(text, 4, n, strict, 1u << 16, &got, &got_error);
        disarm();
        CHECK(r == -1 ? failed_one : r == 0 && fuzz_same(got.data, got.len, want.data, want.len));
        CHECK(r == -1 || (got_error.kind == want_error.kind && got_error.offset == want_error.offset));
        cpbuf_free(&want);
        cpbuf_free(&got);
    }
    free(text);
    return 0;
}
