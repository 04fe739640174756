/* Fuzz target (seeds: text): NFC (spec 4.2, normalize.c). Invariants checked: NFC is idempotent;
 * its output holds no code point whose NFC_Quick_Check is No and is in canonical order (no mark
 * follows one of a higher combining class); it grows the text at most threefold (UAX #15's bound
 * for NFC); and "stable throughout" (1) means exactly that every code point is stable. */
#include "fuzz.h"

static int stable(uint32_t cp) { return ucd_ccc(cp) == 0 && ucd_quick_check(cp) == 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t n;
    uint32_t *text = fuzz_text(data, size, 0, &n);
    cpbuf out, again;
    cpbuf_init(&out);
    cpbuf_init(&again);

    int r = nfc(text, n, &out);
    OK(r);
    int all_stable = 1;
    for (size_t k = 0; k < n; k++) all_stable &= stable(text[k]);
    CHECK((r == 1) == all_stable);
    CHECK(r == 1 ? out.len == 0 : out.len <= 3 * n);
    const uint32_t *y = r == 1 ? text : out.data;
    size_t ny = r == 1 ? n : out.len;

    for (size_t k = 0; k < ny; k++) {
        CHECK(ucd_quick_check(y[k]) != 1);
        if (k > 0 && ucd_ccc(y[k]) != 0) CHECK(ucd_ccc(y[k - 1]) <= ucd_ccc(y[k]));
    }
    int r2 = nfc(y, ny, &again); /* idempotent: stable, or the same text again */
    OK(r2);
    CHECK(r2 == 1 || fuzz_same(again.data, again.len, y, ny));

    cpbuf_free(&out);
    cpbuf_free(&again);
    free(text);
    return 0;
}
