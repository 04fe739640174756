/* Fuzz target (seeds: byte+text): the encoder (spec 6, encoding.c) under every configuration: the
 * first byte is the configuration (fuzz_read_config), the rest the text. Invariants checked,
 * piece by piece of the splitter's pieces:
 * - a piece that piece_changes calls unchanged encodes to itself (the fast check is sound);
 * - with no feature on, a piece encodes to itself with U+E000..U+EFFF escaped (6.3);
 * - each encoded piece is a group of well-formed instructions (2.2: a known opcode and its
 *   arguments, each U+E000 + 0..255) whose slots lie inside the base, then a non-empty base in
 *   which every private-use code point follows ESCAPE (6.3, 6.4);
 * - encode_text's stream is the pieces' encodings one after another, at most 10 code points for
 *   each one of the text (memory stays linear). */
#include "fuzz.h"

enum { ARG = 0xE000, CAPITALIZE = 0xE100, FIRST_MARK = 0xE101, LAST_MARK = 0xE10D, UPPERCASE = 0xE110,
       REPEAT = 0xE200, MULTIREPEAT = 0xE201, ESCAPE = 0xEFFF };

static int is_arg(uint32_t c) { return c >= ARG && c <= ARG + 255; }
static int is_private(uint32_t c) { return c >= 0xE000 && c <= 0xEFFF; }

/* p[0:n] is one encoded piece: check its group against its base. */
static void check_encoded_piece(const uint32_t *p, size_t n) {
    size_t g = 0; /* the group's end */
    while (g < n && is_private(p[g]) && p[g] != ESCAPE) {
        uint32_t op = p[g];
        size_t args = op == UPPERCASE || op == REPEAT ? 2 : op == MULTIREPEAT ? 3 : 1;
        CHECK(op == CAPITALIZE || (op >= FIRST_MARK && op <= LAST_MARK) || op == UPPERCASE || op == REPEAT ||
              op == MULTIREPEAT);
        CHECK(g + args < n);
        for (size_t a = 1; a <= args; a++) CHECK(is_arg(p[g + a]));
        g += 1 + args;
    }
    size_t slots = 0;
    for (size_t k = g; k < n; k++, slots++) {
        if (p[k] == ESCAPE) {
            CHECK(k + 1 < n && is_private(p[k + 1]));
            k++;
        } else {
            CHECK(!is_private(p[k]));
        }
    }
    CHECK(slots > 0);
    for (size_t k = 0; k < g;) { /* every slot an instruction names is in the base */
        uint32_t op = p[k], a = p[k + 1] - ARG, b = k + 2 < g ? p[k + 2] - ARG : 0;
        if (op == UPPERCASE) CHECK(a + 2 <= b && b <= slots);
        else if (op == REPEAT) CHECK(a < slots && b >= 3);
        else if (op == MULTIREPEAT) CHECK(a + 2 <= b && b - a <= 8 && b <= slots && p[k + 3] - ARG >= 3);
        else CHECK(a < slots);
        k += 1 + (op == UPPERCASE || op == REPEAT ? 2 : op == MULTIREPEAT ? 3 : 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    fuzz_config c = fuzz_read_config(data[0]);
    size_t raw_n, n;
    uint32_t *raw = fuzz_text(data + 1, size - 1, 0, &raw_n);
    cpbuf normalized, stream, pieces, group, slots;
    cpbuf_init(&normalized);
    cpbuf_init(&stream);
    cpbuf_init(&pieces);
    cpbuf_init(&group);
    cpbuf_init(&slots);
    const uint32_t *text = fuzz_normalized(raw, raw_n, c.normalize, &normalized, &n);

    OK(encode_text(text, n, c.max_digits, c.cfg, &stream));
    CHECK(stream.len <= 10 * n);
    for (size_t start = 0; start < n;) {
        size_t end = piece_end(text, start, n, c.max_digits), from = pieces.len;
        OK(encode_piece_with(text + start, end - start, c.cfg, &pieces, &group, &slots));
        const uint32_t *piece = pieces.data + from;
        size_t len = pieces.len - from;
        check_encoded_piece(piece, len);
        if (!piece_changes(text + start, end - start, c.cfg))
            CHECK(fuzz_same(piece, len, text + start, end - start));
        if ((c.cfg & (CFG_CASE | CFG_MARKS | CFG_REPEAT)) == 0) {
            size_t at = 0;
            for (size_t k = start; k < end; k++) {
                if (is_private(text[k])) CHECK(at < len && piece[at++] == ESCAPE);
                CHECK(at < len && piece[at++] == text[k]);
            }
            CHECK(at == len);
        }
        start = end;
    }
    CHECK(fuzz_same(stream.data, stream.len, pieces.data, pieces.len));

    cpbuf_free(&normalized);
    cpbuf_free(&stream);
    cpbuf_free(&pieces);
    cpbuf_free(&group);
    cpbuf_free(&slots);
    free(raw);
    return 0;
}
