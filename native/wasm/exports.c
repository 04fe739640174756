/* The WebAssembly build's exports: flat functions over the C core (native/core/core.h) for
 * native/wasm/core.mjs. Each function takes the text as the glue wrote it into memory it got
 * from the exported malloc: UTF-8 (TextEncoder.encodeInto, the fast way out of a JavaScript
 * string) or UTF-16 code units (a string's own units, for the texts UTF-8 cannot carry: those
 * with a lone surrogate). The result, UTF-16 again (TextDecoder reads it), is left in one
 * `answer` that the glue reads and then frees with fk_answer_free. Nothing here knows the
 * options' names: the glue checks them with functok for JavaScript's own code
 * (js/src/options.mjs) and passes the core's configuration integer.
 *
 * Every function returns 0 on success, FK_NO_MEMORY when memory runs out, FK_SURROGATE when the
 * text holds a lone surrogate (spec 4.3; the glue then names it with js/src's own check), and
 * FK_REPLACEMENT when UTF-8 input holds U+FFFD, which TextEncoder also writes for a lone
 * surrogate: the glue then sends the text again as UTF-16; fk_decode returns FK_DECODE_ERROR
 * when a strict decode fails (the error is in the answer). */
#include <stdlib.h>
#include <string.h>

#include "glue.h"

answer_t answer;

answer_t *fk_answer(void) { return &answer; }

void fk_answer_free(void) {
    free(answer.units);
    free(answer.ends);
    memset(&answer, 0, sizeof answer);
}

void fk_init(void) { ucd_init(); }

/* The code points of n UTF-16 units, surrogate pairs joined. A lone surrogate is kept as the
 * surrogate code point when `allow_surrogates` (split takes any string), refused otherwise. */
static int utf16_code_points(const uint16_t *u, size_t n, int allow_surrogates, uint32_t *cps, size_t *len) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = u[i];
        if (c >= 0xD800 && c <= 0xDFFF) {
            if (c <= 0xDBFF && i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF) {
                c = 0x10000 + ((c - 0xD800) << 10) + (u[i + 1] - 0xDC00u);
                i++;
            } else if (!allow_surrogates) {
                return FK_SURROGATE;
            }
        }
        cps[k++] = c;
    }
    *len = k;
    return FK_OK;
}

/* A long input is converted a chunk at a time, each chunk a call of a function of its own: V8
 * runs a wasm function in its baseline compiler (Liftoff) until it has run for a while, and a
 * call that is running keeps its code (there is no on-stack replacement), so one call over a
 * whole 2 MB text would run unoptimized to its end; the calls after the first few chunks run the
 * optimized code. */
#define CHUNK ((size_t)1 << 14)

/* The characters of s that start in [i, stop) into cps[*k...]: the offset after the last, or
 * SIZE_MAX at U+FFFD. */
__attribute__((noinline)) static size_t utf8_chunk(const uint8_t *s, size_t i, size_t stop, uint32_t *cps, size_t *k) {
    size_t j = *k;
    while (i < stop) {
        uint32_t c = s[i];
        if (c < 0x80) i += 1;
        else if (c < 0xE0) { c = (c & 0x1F) << 6 | (s[i + 1] & 0x3F); i += 2; }
        else if (c < 0xF0) { c = (c & 0x0F) << 12 | (s[i + 1] & 0x3F) << 6 | (s[i + 2] & 0x3F); i += 3; }
        else { c = (c & 0x07) << 18 | (s[i + 1] & 0x3F) << 12 | (s[i + 2] & 0x3F) << 6 | (s[i + 3] & 0x3F); i += 4; }
        if (c == 0xFFFD) return SIZE_MAX;
        cps[j++] = c;
    }
    *k = j;
    return i;
}

/* The code points of n bytes of UTF-8 as TextEncoder writes it (well formed: the glue's own
 * output, so a character that starts in a chunk ends in the input). U+FFFD may stand for a lone
 * surrogate, which UTF-8 cannot carry: FK_REPLACEMENT. */
static int utf8_code_points(const uint8_t *s, size_t n, uint32_t *cps, size_t *len) {
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        i = utf8_chunk(s, i, n - i > CHUNK ? i + CHUNK : n, cps, &k);
        if (i == SIZE_MAX) return FK_REPLACEMENT;
    }
    *len = k;
    return FK_OK;
}

/* The code points of the input (n code units of `width` bytes: UTF8 or UTF16), in a new array. */
int to_code_points(const void *input, size_t n, int width, int allow_surrogates, uint32_t **out, size_t *len) {
    uint32_t *cps = malloc((n ? n : 1) * sizeof *cps); /* a code point per unit at most */
    if (!cps) return FK_NO_MEMORY;
    int rc = width == UTF8 ? utf8_code_points(input, n, cps, len) : utf16_code_points(input, n, allow_surrogates, cps, len);
    if (rc) { free(cps); return rc; }
    *out = cps;
    return FK_OK;
}

/* The UTF-16 units of cps[0:n] into answer.units (glue.h); ends (code point offsets into cps), if any,
 * become UTF-16 offsets in place. */
int to_units(const uint32_t *cps, size_t n, size_t *ends, size_t n_ends) {
    if (n > SIZE_MAX / 2 / sizeof(uint16_t)) return FK_NO_MEMORY;
    uint16_t *u = malloc((n ? 2 * n : 1) * sizeof *u);
    if (!u) return FK_NO_MEMORY;
    size_t j = 0, e = 0;
    for (size_t i = 0; i < n; i++) {
        while (e < n_ends && ends[e] == i) ends[e++] = j;
        uint32_t c = cps[i];
        if (c < 0x10000) u[j++] = (uint16_t)c;
        else {
            u[j++] = (uint16_t)(0xD800 + ((c - 0x10000) >> 10));
            u[j++] = (uint16_t)(0xDC00 + ((c - 0x10000) & 0x3FF));
        }
    }
    while (e < n_ends) ends[e++] = j;
    answer.units = u;
    answer.len = j;
    return FK_OK;
}

int units_in_place(cpbuf *cps) {
    uint16_t *u = (uint16_t *)(void *)cps->data;
    size_t j = 0;
    for (size_t i = 0; i < cps->len; i++) {
        /* unit j <= 2i: its bytes end before cps->data[i + 1], and cps->data[i] is read already */
        uint32_t c = cps->data[i];
        uint16_t pair[2] = {(uint16_t)c, 0};
        size_t k = 1;
        if (c >= 0x10000) {
            pair[0] = (uint16_t)(0xD800 + ((c - 0x10000) >> 10));
            pair[1] = (uint16_t)(0xDC00 + ((c - 0x10000) & 0x3FF));
            k = 2;
        }
        memcpy(u + j, pair, k * sizeof *pair);
        j += k;
    }
    answer.units = u; /* handed over: fk_answer_free frees it */
    answer.len = j;
    cpbuf_init(cps);
    return FK_OK;
}

/* The text checked (4.3) and normalized if asked (4.2): the input of 6 and 9. `text` points
 * into `given` or `normal`; free both. */
typedef struct {
    uint32_t *given;
    size_t n_given;
    cpbuf normal;
    const uint32_t *text;
    size_t n;
} prepared;

static int prepare(const void *input, size_t n, int width, int normalize, prepared *p) {
    cpbuf_init(&p->normal);
    p->given = NULL;
    int rc = to_code_points(input, n, width, 0, &p->given, &p->n_given);
    if (rc) return rc;
    int stable = normalize ? nfc(p->given, p->n_given, &p->normal) : 1;
    if (stable < 0) return FK_NO_MEMORY;
    p->text = stable ? p->given : p->normal.data; /* 1: the text as given is NFC */
    p->n = stable ? p->n_given : p->normal.len;
    return FK_OK;
}

static void release(prepared *p) {
    free(p->given);
    cpbuf_free(&p->normal);
}

static int same_text(const prepared *p, const cpbuf *out) {
    return out->len == p->n_given && (out->len == 0 || !memcmp(out->data, p->given, out->len * sizeof *out->data));
}

/* Spec 6: the stream of the text. */
int fk_encode(const void *input, size_t n, int width, int normalize, int max_digits, int cfg) {
    fk_answer_free();
    prepared p;
    cpbuf out;
    cpbuf_init(&out);
    int rc = prepare(input, n, width, normalize, &p);
    if (!rc) rc = encode_text(p.text, p.n, max_digits, cfg, &out) ? FK_NO_MEMORY : FK_OK;
    if (!rc) {
        answer.same = same_text(&p, &out);
        if (!answer.same) rc = to_units(out.data, out.len, NULL, 0);
    }
    release(&p);
    cpbuf_free(&out);
    return rc;
}

/* Spec 9: the stream and where each pre-token of the fuse mode ends in it. */
int fk_pretokens(const void *input, size_t n, int width, int normalize, int max_digits, int cfg, int fuse) {
    fk_answer_free();
    prepared p;
    cpbuf stream;
    offsets ends;
    cpbuf_init(&stream);
    offsets_init(&ends);
    int rc = prepare(input, n, width, normalize, &p);
    if (!rc) rc = pretokens(p.text, p.n, max_digits, cfg, fuse, &stream, &ends) ? FK_NO_MEMORY : FK_OK;
    if (!rc) rc = to_units(stream.data, stream.len, ends.data, ends.len);
    if (!rc) {
        answer.ends = ends.data; /* handed over: fk_answer_free frees it */
        answer.n_ends = ends.len;
        offsets_init(&ends);
    }
    release(&p);
    cpbuf_free(&stream);
    offsets_free(&ends);
    return rc;
}

/* Spec 5: where each piece of the text, as given, ends (UTF-16 offsets into the text). */
int fk_split(const void *input, size_t n_units, int width, int max_digits) {
    fk_answer_free();
    uint32_t *cps;
    size_t n;
    int rc = to_code_points(input, n_units, width, 1, &cps, &n);
    if (rc) return rc;
    size_t *ends = malloc((n ? n : 1) * sizeof *ends); /* at most one piece per code point */
    if (!ends) { free(cps); return FK_NO_MEMORY; }
    size_t k = 0;
    for (size_t start = 0; start < n; start = ends[k++]) ends[k] = piece_end(cps, start, n, max_digits);
    answer.ends = ends;
    answer.n_ends = k;
    /* code point ends to UTF-16 ends: one pass over both */
    for (size_t i = 0, j = 0, e = 0; e < k; e++) {
        for (; i < ends[e]; i++) j += cps[i] >= 0x10000 ? 2 : 1;
        ends[e] = j;
    }
    free(cps);
    return FK_OK;
}

/* Whether n UTF-16 units hold a surrogate pair (then they are not one code point each). */
static int has_pair(const uint16_t *u, size_t n) {
    for (size_t i = 0; i + 1 < n; i++)
        if (u[i] - 0xD800u < 0x400u && u[i + 1] - 0xDC00u < 0x400u) return 1;
    return 0;
}

/* Spec 7 and 8: the text of a stream. UTF-16 input without a surrogate pair is read in place,
 * two bytes a code point (decode_stream's width 2), so memory is the input, the output's code
 * points and nothing else; other input becomes code points first. Lone surrogates reach the
 * decoder as surrogate code points (it reports them, or replaces them when lenient);
 * max_output bounds what repeats produce. */
int fk_decode(const void *input, size_t n_units, int width, int strict, uint64_t max_output) {
    static decode_error error; /* its message outlives the call, for the glue to read */
    fk_answer_free();
    uint32_t *cps = NULL;
    const void *stream = input;
    size_t n = n_units;
    int w = 2, rc = FK_OK;
    if (width != UTF16 || has_pair(input, n_units)) {
        if ((rc = to_code_points(input, n_units, width, 1, &cps, &n))) return rc;
        stream = cps;
        w = 4;
    }
    int plain = 1; /* no surrogate and nothing of U+E000..U+EFFF: the text is its own decoding */
    for (size_t i = 0; i < n && plain; i++) {
        uint32_t c = w == 2 ? ((const uint16_t *)stream)[i] : cps[i];
        plain = !(c - 0xD800u < 0x800u || c - 0xE000u < 0x1000u);
    }
    cpbuf out;
    cpbuf_init(&out);
    if (plain) answer.same = 1;
    else if (decode_stream(stream, w, n, strict, max_output, &out, &error)) rc = FK_NO_MEMORY;
    else if (error.kind != DECODE_OK) {
        answer.error_kind = decode_error_name(error.kind);
        answer.error_offset = error.offset;
        answer.error_message = error.message;
        rc = FK_DECODE_ERROR;
    } else rc = units_in_place(&out);
    free(cps);
    cpbuf_free(&out);
    return rc;
}
