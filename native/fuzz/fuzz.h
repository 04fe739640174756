/* What every fuzz target shares: turning the fuzzer's bytes into text, reading an encoder
 * configuration from them, and aborting on a broken invariant. A target is one file,
 * native/fuzz/fuzz_NAME.c, that includes this header and defines LLVMFuzzerTestOneInput;
 * scripts/fuzz.sh finds it by that name and links it with the core (native/core/ without the
 * CPython binding). The same file, linked with replay.c instead of libFuzzer, is the leak
 * check's driver (scripts/leakcheck.sh). */
#ifndef FUNCTOK_FUZZ_H
#define FUNCTOK_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"

/* A broken invariant: say which and where, then abort, which libFuzzer reports as a crash and
 * keeps the input that caused it. */
#define CHECK(cond)                                                                           \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "invariant broken: %s (%s:%d)\n", #cond, __FILE__, __LINE__);     \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

/* Out of memory is a typed failure of the core (-1), not a bug; under the fuzzer's input sizes
 * it does not happen, so a -1 is a finding too. */
#define OK(call) CHECK((call) >= 0)

/* What a byte that does not start well-formed UTF-8 becomes. Bytes 0x80..0xBF (a stray
 * continuation byte) become the combining marks U+0300..U+033F; 0xC0..0xFF become the code
 * points where the codec is most intricate: the format's instructions and arguments (private use,
 * U+E000..U+EFFF), Hangul jamo and syllables, case pairs and marks outside the BMP, the last
 * code point, and marks of unusual classes that canonical ordering moves. */
static const uint32_t FALLBACK_HIGH[64] = {
    0xE000, 0xE001, 0xE002, 0xE003, 0xE0FE, 0xE0FF, 0xE100, 0xE101, /* ARG, CAPITALIZE, marks */
    0xE102, 0xE103, 0xE104, 0xE105, 0xE106, 0xE107, 0xE108, 0xE109,
    0xE10A, 0xE10B, 0xE10C, 0xE10D, 0xE10E, 0xE110, 0xE111, 0xE200, /* UPPERCASE, REPEAT */
    0xE201, 0xE202, 0xEFFE, 0xEFFF, 0xE800, 0xF000, 0x1100, 0x1161, /* MULTIREPEAT, ESCAPE; L, V */
    0x11A8, 0xAC00, 0xAC01, 0xD7A3, 0x10400, 0x10428, 0x1E900, 0x1E922, /* T, LV, LVT; astral pairs */
    0x1D165, 0x1D16E, 0x1D15E, 0x0344, 0x0F73, 0x0F81, 0x0591, 0x05B0, /* astral marks, non-starters */
    0x0345, 0x1DCE, 0x302A, 0x0E48, 0x0041, 0x0130, 0x0049, 0x017F, /* İ, ſ */
    0x00DF, 0x1E9E, 0x0660, 0x1D7CE, 0x10FFFF, 0xFFFD, 0x2126, 0x0027, /* digits in other planes */
};

/* Bytes -> code points: UTF-8 where the bytes are well-formed, one FALLBACK code point for each
 * byte where they are not. UTF-8 keeps the vectors' seeds readable and lets libFuzzer's
 * comparison-guided mutations write any code point of any plane (four bytes reach planes 1-16,
 * three the private use area); a strict decoder would throw most mutated inputs away, so every
 * byte string is text here, and damage lands on marks and instructions. Overlong forms are not
 * well-formed. Surrogates (ED A0..BF xx) are well-formed only with `surrogates` set: the encoder's
 * entry points reject them before the core runs (spec 4.3), but split (5) and the decoder (8)
 * take a str that may hold them. Returns a malloc'ed array. */
static inline uint32_t *fuzz_text(const uint8_t *b, size_t n, int surrogates, size_t *len) {
    uint32_t *t = malloc((n ? n : 1) * sizeof *t);
    if (!t) abort();
    size_t i = 0, k = 0;
    while (i < n) {
        uint32_t c = b[i], cp = 0;
        size_t need = c < 0x80                ? 0
                      : c >= 0xC2 && c <= 0xDF ? 1
                      : c >= 0xE0 && c <= 0xEF ? 2
                      : c >= 0xF0 && c <= 0xF4 ? 3
                                               : 4;
        int ok = need < 4 && i + need < n;
        if (ok) {
            cp = need == 0 ? c : need == 1 ? c & 0x1F : need == 2 ? c & 0x0F : c & 0x07;
            for (size_t m = 1; m <= need && ok; m++) {
                ok = (b[i + m] & 0xC0) == 0x80;
                cp = (cp << 6) | (b[i + m] & 0x3F);
            }
            uint32_t least[] = {0, 0x80, 0x800, 0x10000};
            ok = ok && cp >= least[need] && cp <= 0x10FFFF && (surrogates || cp < 0xD800 || cp > 0xDFFF);
        }
        if (ok) {
            t[k++] = cp;
            i += need + 1;
        } else {
            t[k++] = c < 0xC0 ? 0x0300 + (c - 0x80) : FALLBACK_HIGH[c - 0xC0];
            i++;
        }
    }
    *len = k;
    return t;
}

/* An encoder configuration from one byte: bits 0-2 the features (case, marks, repeat), bits 3-4
 * the fold (all, no-whitespace, none; the fourth value is all again), bit 5 the case option
 * (range), bit 6 the splitter (max_digits 1, paper; else 3, llama3), bit 7 normalize (NFC first,
 * as the binding does; else the text as it is, normalize=None). Every byte is a valid
 * configuration, so the fuzzer explores all 2 x 2 x 3 x 2 x 8 of them. */
typedef struct {
    int cfg, max_digits, normalize;
} fuzz_config;

static inline fuzz_config fuzz_read_config(uint8_t byte) {
    static const int FOLDS[4] = {0, CFG_FOLD_NO_WHITESPACE, CFG_FOLD_NONE, 0};
    fuzz_config c;
    c.cfg = (byte & (CFG_CASE | CFG_MARKS | CFG_REPEAT | CFG_CASE_RANGE)) | FOLDS[(byte >> 3) & 3];
    c.max_digits = byte & 0x40 ? 1 : 3;
    c.normalize = (byte & 0x80) != 0;
    return c;
}

/* The text the encoder sees: NFC of t[0:n] when normalize is on, else t itself (in *buf). */
static inline const uint32_t *fuzz_normalized(const uint32_t *t, size_t n, int normalize, cpbuf *buf,
                                              size_t *len) {
    *len = n;
    if (!normalize) return t;
    int r = nfc(t, n, buf);
    OK(r);
    if (r == 1) return t;
    *len = buf->len;
    return buf->data;
}

static inline int fuzz_same(const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

/* libFuzzer calls this once before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    ucd_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
