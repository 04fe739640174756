/* Spec 6 over a text held as code units (a CPython str's 1, 2 or 4 bytes each), window by
 * window: a window of the text is widened to code points, normalized (4.2), split (5) and
 * encoded (6), and the stream leaves in chunks. Copying the whole text to code points first
 * would touch four bytes per code point of fresh memory, and on a large text the page faults
 * of that memory cost more than the encoding; a window stays in cache. */
#include <string.h>

#include "core.h"

enum { WINDOW = 1 << 14 }; /* code points widened at a time, and the size of an output chunk */

typedef struct {
    units text;
    size_t read;   /* text[0:read] has been widened (and normalized) into window */
    int normalize;
    cpbuf window;  /* code points of the normalized text, from text[0:read] */
    size_t at;     /* window.data[0:at] has been encoded */
    cpbuf changed; /* scratch: NFC of a window's new code points */
} source;

static inline uint32_t unit_at(units t, size_t i) {
    switch (t.width) {
    case 1: return ((const uint8_t *)t.data)[i];
    case 2: return ((const uint16_t *)t.data)[i];
    default: return ((const uint32_t *)t.data)[i];
    }
}

/* Whether d[0:64] holds a surrogate: loops with no exit, which the compiler can vectorize. */
static int surrogate_in_64_uint16(const uint16_t *d) {
    int found = 0;
    for (size_t i = 0; i < 64; i++) found |= (uint32_t)(d[i] - 0xD800u) < 0x800u;
    return found;
}

static int surrogate_in_64_uint32(const uint32_t *d) {
    int found = 0;
    for (size_t i = 0; i < 64; i++) found |= d[i] - 0xD800u < 0x800u;
    return found;
}

size_t first_surrogate(units t) {
    if (t.width == 1) return t.n; /* a 1-byte unit is below U+0100 */
    size_t i = 0;
    if (t.width == 2) {
        while (i + 64 <= t.n && !surrogate_in_64_uint16((const uint16_t *)t.data + i)) i += 64;
    } else {
        while (i + 64 <= t.n && !surrogate_in_64_uint32((const uint32_t *)t.data + i)) i += 64;
    }
    for (; i < t.n; i++) { /* in the block that has one, or the last few */
        uint32_t c = unit_at(t, i);
        if (c >= 0xD800 && c <= 0xDFFF) return i;
    }
    return t.n;
}

/* text[from:to] appended to b as code points; *max is set to the largest of them. */
static int widen(units t, size_t from, size_t to, cpbuf *b, uint32_t *max) {
    size_t n = to - from;
    if (cpbuf_reserve(b, n)) return -1;
    uint32_t *out = b->data + b->len, m = 0;
    if (t.width == 1) {
        const uint8_t *d = (const uint8_t *)t.data + from;
        for (size_t i = 0; i < n; i++) out[i] = d[i], m = d[i] > m ? d[i] : m;
    } else if (t.width == 2) {
        const uint16_t *d = (const uint16_t *)t.data + from;
        for (size_t i = 0; i < n; i++) out[i] = d[i], m = d[i] > m ? d[i] : m;
    } else {
        const uint32_t *d = (const uint32_t *)t.data + from;
        for (size_t i = 0; i < n; i++) out[i] = d[i], m = d[i] > m ? d[i] : m;
    }
    b->len += n;
    *max = m;
    return 0;
}

/* At least `want` more code points of the normalized text into the window (fewer at the end of
 * the text), after dropping what has been encoded. Under NFC the new part ends before a stable
 * code point, so that no span of 4.4 is cut. */
static int refill(source *s, size_t want) {
    size_t keep = s->window.len - s->at;
    if (keep) memmove(s->window.data, s->window.data + s->at, keep * sizeof *s->window.data);
    s->window.len = keep;
    s->at = 0;
    size_t n = s->text.n, end = n - s->read > want ? s->read + want : n;
    if (s->normalize)
        while (end < n && !nfc_stable(unit_at(s->text, end))) end++;
    uint32_t max;
    if (widen(s->text, s->read, end, &s->window, &max)) return -1;
    size_t from = keep;
    s->read = end;
    if (!s->normalize || max < FIRST_UNSTABLE) return 0;
    s->changed.len = 0;
    int stable = nfc(s->window.data + from, s->window.len - from, &s->changed);
    if (stable < 0) return -1;
    if (stable == 1) return 0;
    s->window.len = from;
    return cpbuf_extend(&s->window, s->changed.data, s->changed.len);
}

/* Whether piece_end's answer for the piece window[at:end] is the one the whole text gives: every
 * code point it looked at is inside the window. It looks one past the end of a piece (two past
 * its start for a contraction), and a piece starting with whitespace looks to the end of the
 * whitespace run (5: \s*[\r\n]+ and \s+(?!\S)). At the end of the text, the window is the text. */
static int decided(const source *s, size_t end) {
    const cpbuf *w = &s->window;
    if (s->read == s->text.n) return 1;
    if (end + 2 > w->len) return 0;
    if (ucd_class(w->data[s->at]) != CLASS_W || ucd_class(w->data[s->at + 1]) != CLASS_W) return 1;
    size_t e = end; /* two whitespace code points start a piece of whitespace only: the run goes on from its end */
    while (e < w->len && ucd_class(w->data[e]) == CLASS_W) e++;
    return e < w->len;
}

int encode_units(units text, int normalize, int max_digits, int cfg, stream_sink sink, void *context) {
    source s = {text, 0, normalize, {0}, 0, {0}};
    cpbuf out, group, slots; /* a chunk of the stream; scratch for encode_piece_with */
    cpbuf_init(&s.window);
    cpbuf_init(&s.changed);
    cpbuf_init(&out);
    cpbuf_init(&group);
    cpbuf_init(&slots);
    int failed = cpbuf_reserve(&out, text.n < WINDOW ? text.n + 64 : 2 * WINDOW); /* a short text: no big buffer */
    while (!failed) {
        if (s.at == s.window.len) {
            if (s.read == text.n) break;
            failed = refill(&s, WINDOW);
            continue;
        }
        const uint32_t *p = s.window.data + s.at;
        size_t end = piece_end(s.window.data, s.at, s.window.len, max_digits), n = end - s.at;
        if (!decided(&s, end)) { /* the piece may go on: twice the window, so a long one costs linear time */
            size_t left = s.window.len - s.at;
            failed = refill(&s, left > WINDOW ? left : WINDOW);
            continue;
        }
        if (piece_changes(p, n, cfg)) {
            failed = encode_piece_with(p, n, cfg, &out, &group, &slots);
        } else if (n <= out.cap - out.len) { /* most pieces: a few code points, as they are */
            for (size_t k = 0; k < n; k++) out.data[out.len + k] = p[k];
            out.len += n;
        } else {
            failed = cpbuf_extend(&out, p, n);
        }
        s.at = end;
        if (!failed && out.len >= WINDOW) {
            failed = sink(context, out.data, out.len);
            out.len = 0;
        }
    }
    if (!failed && out.len) failed = sink(context, out.data, out.len);
    cpbuf_free(&s.window);
    cpbuf_free(&s.changed);
    cpbuf_free(&out);
    cpbuf_free(&group);
    cpbuf_free(&slots);
    return failed ? -1 : 0;
}
