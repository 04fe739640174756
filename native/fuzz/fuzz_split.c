/* Fuzz target (seeds: text): the splitters (spec 5, splitting.c), llama3 (max_digits 3) and paper (1),
 * on the text as it comes (surrogates too: split takes any str) and on its NFC. Invariants checked:
 * the pieces cover the text, each non-empty and in order; a piece that starts with a number is 1 to
 * max_digits numbers; a letter piece is letters only; a code point after a line break in a piece
 * is a line break, unless the piece is all whitespace (5: \s*[\r\n]+ may hold spaces between
 * line breaks). */
#include "fuzz.h"

static void check_pieces(const uint32_t *s, size_t n, int max_digits) {
    size_t pieces = 0;
    for (size_t pos = 0; pos < n; pieces++) {
        size_t end = piece_end(s, pos, n, max_digits);
        CHECK(end > pos && end <= n);
        int cls = ucd_class(s[pos]);
        if (cls == CLASS_N) CHECK(end - pos <= (size_t)max_digits);
        int whitespace = 1, broken = 0; /* all whitespace; a line break then something else */
        for (size_t k = pos; k < end; k++) {
            if (cls == CLASS_N || cls == CLASS_L) CHECK(ucd_class(s[k]) == cls);
            whitespace &= ucd_class(s[k]) == CLASS_W;
            if (k > pos && (s[k - 1] == '\n' || s[k - 1] == '\r') && s[k] != '\n' && s[k] != '\r') broken = 1;
        }
        CHECK(!broken || whitespace);
        pos = end;
    }
    CHECK(pieces <= n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t n, m;
    uint32_t *text = fuzz_text(data, size, 1, &n);
    cpbuf buf;
    cpbuf_init(&buf);
    const uint32_t *normalized = fuzz_normalized(text, n, 1, &buf, &m);
    for (int max_digits = 1; max_digits <= 3; max_digits += 2) {
        check_pieces(text, n, max_digits);
        check_pieces(normalized, m, max_digits);
    }
    cpbuf_free(&buf);
    free(text);
    return 0;
}
