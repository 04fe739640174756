/* Where each code point of the stream comes from in the text as given (core.h's stream_spans):
 * what Encoding.offsets needs, in one pass of the engine. It follows the pure path's procedure
 * (python/functok/tokenizer/codec_pretokenizer.py, _piece_spans and _code_point_spans), which
 * stays the reference: NFC's offsets (4.4), then each piece's slots (6.1) and instructions. */
#include <stdlib.h>

#include "core.h"

enum { ARG = 0xE000, UPPERCASE = 0xE110, REPEAT = 0xE200, MULTIREPEAT = 0xE201, ESCAPE = 0xEFFF };

/* The arguments that follow an opcode (spec 2.2). */
static size_t argument_count(uint32_t opcode) {
    switch (opcode) {
    case UPPERCASE: case REPEAT: return 2;
    case MULTIREPEAT: return 3;
    default: return 1; /* CAPITALIZE and the marks */
    }
}

/* in[from:to] appended to out as it is, each code point from where it stands. */
static int copy_as_is(const uint32_t *in, size_t from, size_t to, cpbuf *out, offsets *to_start) {
    for (size_t k = from; k < to; k++)
        if (offsets_push(to_start, k) || cpbuf_push(out, in[k])) return -1;
    return 0;
}

/* The NFC of the span in[s:e] appended to out: where NFC changes it, each of its code points
 * from the span's start. */
static int nfc_span_from(const uint32_t *in, size_t s, size_t e, cpbuf *out, offsets *to_start, cpbuf *span) {
    span->len = 0;
    if (nfc(in + s, e - s, span) < 0) return -1;
    int same = span->len == e - s;
    for (size_t k = 0; same && k < span->len; k++) same = span->data[k] == in[s + k];
    if (same) return copy_as_is(in, s, e, out, to_start);
    for (size_t k = 0; k < span->len; k++)
        if (offsets_push(to_start, s) || cpbuf_push(out, span->data[k])) return -1;
    return 0;
}

/* The text's NFC in out, and for each position of it (and its end) the position of the text
 * a span starting there maps to in to_start (normalize.py's nfc_with_offsets). The spans are
 * nfc()'s: a run of unstable code points with the stable one before it. */
static int nfc_offsets(const uint32_t *in, size_t n, cpbuf *out, offsets *to_start) {
    cpbuf span;
    cpbuf_init(&span);
    int failed = 0;
    size_t copied = 0, i = 0; /* in[0:copied] is in out */
    while (i < n && !failed) {
        if (nfc_stable(in[i])) { i++; continue; }
        size_t s = i > 0 ? i - 1 : i, e = i + 1;
        while (e < n && !nfc_stable(in[e])) e++;
        failed = copy_as_is(in, copied, s, out, to_start) || nfc_span_from(in, s, e, out, to_start, &span);
        copied = i = e;
    }
    cpbuf_free(&span);
    return failed || copy_as_is(in, copied, n, out, to_start) || offsets_push(to_start, n) ? -1 : 0;
}

/* For each position of the normalized text, the position of the text as given a span ending
 * there maps to: as to_start, but an end inside a span NFC changed goes to the span's end, so
 * that spans never shrink (codec_pretokenizer.py's _original_positions). */
static int end_positions(const offsets *to_start, offsets *to_end) {
    for (size_t k = 0; k < to_start->len; k++)
        if (offsets_push(to_end, to_start->data[k])) return -1;
    for (size_t k = to_end->len >= 2 ? to_end->len - 2 : 0; k > 0; k--)
        if (to_start->data[k] == to_start->data[k - 1]) to_end->data[k] = to_end->data[k + 1];
    return 0;
}

typedef struct {
    const offsets *to_start, *to_end; /* NULL: the identity (the text was NFC already) */
    offsets *starts, *ends;           /* the result */
} span_map;

static size_t start_of(const span_map *m, size_t at) { return m->to_start ? m->to_start->data[at] : at; }
static size_t end_of(const span_map *m, size_t at) { return m->to_end ? m->to_end->data[at] : at; }

static int emit(span_map *m, size_t start, size_t end, size_t count) {
    for (size_t k = 0; k < count; k++)
        if (offsets_push(m->starts, start) || offsets_push(m->ends, end)) return -1;
    return 0;
}

/* The spans of one piece's code points in the stream, the piece at text[at:at + n] (normalized). */
static int piece_spans(span_map *m, const uint32_t *text, size_t at, size_t n, int cfg, cpbuf *group, cpbuf *slots,
                       cpbuf *slot_starts) {
    if (!piece_changes(text + at, n, cfg)) { /* itself: a slot per code point */
        for (size_t k = 0; k < n; k++)
            if (emit(m, start_of(m, at + k), end_of(m, at + k + 1), 1)) return -1;
        return 0;
    }
    if (analyse_piece_at(text + at, n, cfg, group, slots, slot_starts)) return -1;
    const uint32_t *cut = slot_starts->data; /* slot j is text[at + cut[j]:at + cut[j + 1]], the last to the end */
    size_t count = slots->len;
#define SLOT_START(j) start_of(m, at + cut[j])
#define SLOT_END(j) end_of(m, at + ((j) + 1 < count ? cut[(j) + 1] : n))
    for (size_t g = 0; g < group->len;) { /* each instruction spans the slots it changes */
        uint32_t opcode = group->data[g];
        size_t args = argument_count(opcode), first = group->data[g + 1] - ARG;
        size_t last = opcode == UPPERCASE || opcode == MULTIREPEAT ? group->data[g + 2] - ARG - 1 : first;
        if (emit(m, SLOT_START(first), SLOT_END(last), 1 + args)) return -1;
        g += 1 + args;
    }
    for (size_t s = 0; s < count; s++) { /* the base: an escape pair spans its slot twice */
        uint32_t c = slots->data[s];
        if (emit(m, SLOT_START(s), SLOT_END(s), c >= ARG && c <= ESCAPE ? 2 : 1)) return -1;
    }
#undef SLOT_START
#undef SLOT_END
    return 0;
}

int stream_spans(const uint32_t *text, size_t n, int normalize, int max_digits, int cfg, offsets *starts,
                 offsets *ends) {
    cpbuf normal, group, slots, slot_starts;
    offsets to_start, to_end;
    cpbuf_init(&normal);
    cpbuf_init(&group);
    cpbuf_init(&slots);
    cpbuf_init(&slot_starts);
    offsets_init(&to_start);
    offsets_init(&to_end);
    span_map m = {NULL, NULL, starts, ends};
    int stable = normalize ? nfc(text, n, &normal) : 1, failed = stable < 0;
    if (stable == 0) { /* NFC changes something: where each of its code points comes from */
        normal.len = 0;
        failed = nfc_offsets(text, n, &normal, &to_start) || end_positions(&to_start, &to_end);
        text = normal.data;
        n = normal.len;
        m.to_start = &to_start;
        m.to_end = &to_end;
    }
    for (size_t at = 0; at < n && !failed;) {
        size_t end = piece_end(text, at, n, max_digits);
        failed = piece_spans(&m, text, at, end - at, cfg, &group, &slots, &slot_starts);
        at = end;
    }
    cpbuf_free(&normal);
    cpbuf_free(&group);
    cpbuf_free(&slots);
    cpbuf_free(&slot_starts);
    offsets_free(&to_start);
    offsets_free(&to_end);
    return failed ? -1 : 0;
}
