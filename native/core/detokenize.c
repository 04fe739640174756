/* Spec 14.6: ids to text, the fast road. The ids are read left to right into streams cut at
 * special tokens, byte tokens joined into UTF-8, and each stream decoded by decoding.c (spec 7).
 *
 * This road takes every list of ids that decodes without a question: where an id is unknown, a
 * run of byte tokens is not valid UTF-8, or a strict decoder meets a format error, it stops and
 * says so, and the caller (functok/tokenizer/decoding.py, the reference) decodes the ids itself,
 * with its first-error rule and its id indexes. So the rules of errors live in one place. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

int token_table_init(token_table *t, size_t count) {
    memset(t, 0, sizeof *t);
    cpbuf_init(&t->text);
    if (count > SIZE_MAX / sizeof(token_entry)) return -1;
    t->entries = core_realloc(NULL, (count ? count : 1) * sizeof(token_entry));
    if (!t->entries) return -1;
    memset(t->entries, 0, (count ? count : 1) * sizeof(token_entry)); /* TOKEN_UNKNOWN */
    t->count = count;
    return 0;
}

void token_table_free(token_table *t) {
    core_free(t->entries);
    cpbuf_free(&t->text);
    memset(t, 0, sizeof *t);
}

int token_table_set(token_table *t, size_t id, int kind, const uint32_t *cps, size_t n, uint8_t byte) {
    if (id >= t->count) return -1;
    token_entry *e = &t->entries[id];
    e->kind = (uint8_t)kind;
    e->byte = byte;
    e->start = t->text.len;
    e->length = n;
    return cpbuf_extend(&t->text, cps, n);
}

/* The UTF-8 of bytes[0:n] appended to out (1), or 0 if it is not well-formed (no overlong form,
 * no surrogate, nothing past U+10FFFF, no sequence cut short: what Python's strict codec takes). */
static int append_utf8(const uint8_t *bytes, size_t n, cpbuf *out, int *failed) {
    for (size_t i = 0, len = 0; i < n; i += len) {
        uint32_t c;
        if (!utf8_decode(bytes + i, n - i, 0, &c, &len)) return 0;
        if (cpbuf_push(out, c)) { *failed = 1; return 0; }
    }
    return 1;
}

/* The stream of one stretch decoded and appended to out (1), or 0 where a strict decoder
 * meets an error (the caller's to report). */
static int decode_stretch(const cpbuf *stream, int strict, uint64_t max_output, cpbuf *out, int *failed) {
    decode_error error;
    if (decode_stream(stream->data, 4, stream->len, strict, max_output, out, &error)) {
        *failed = 1;
        return 0;
    }
    return error.kind == DECODE_OK;
}

int detokenize(const token_table *t, const uint64_t *ids, size_t n, int strict, int skip_special,
               uint64_t max_output, cpbuf *out) {
    cpbuf stream;
    cpbuf_init(&stream);
    uint8_t *run = NULL; /* the bytes of the current run of byte tokens */
    size_t run_len = 0, run_cap = 0;
    int failed = 0, plain = 1; /* plain: no question so far */
    for (size_t k = 0; plain && !failed && k <= n; k++) {
        const token_entry *e = k < n && ids[k] < t->count ? &t->entries[ids[k]] : NULL;
        if (k < n && (!e || e->kind == TOKEN_UNKNOWN)) {
            plain = 0; /* an unknown id: U+FFFD, or the first error; the reference decides */
            break;
        }
        if (e && e->kind == TOKEN_BYTE) {
            if (core_grow((void **)&run, &run_cap, run_len + 1, 1, 64)) { failed = 1; break; }
            run[run_len++] = e->byte;
            continue;
        }
        if (run_len) { /* a run of byte tokens ends */
            if (!append_utf8(run, run_len, &stream, &failed)) { plain = 0; break; }
            run_len = 0;
        }
        if (k == n || e->kind == TOKEN_SPECIAL) { /* the stream before it, on its own */
            if (!decode_stretch(&stream, strict, max_output, out, &failed)) { plain = 0; break; }
            stream.len = 0;
            if (k < n && !skip_special && cpbuf_extend(out, t->text.data + e->start, e->length)) failed = 1;
            continue;
        }
        if (cpbuf_extend(&stream, t->text.data + e->start, e->length)) failed = 1; /* an ordinary token */
    }
    core_free(run);
    cpbuf_free(&stream);
    return failed ? -1 : plain;
}
