/* Spec 5: the llama3 and paper splitters, matched by hand over the pinned classes of 3.2
 * (leftmost-first alternatives, greedy, with the one give-back of 5.3), as js/src/splitting.mjs
 * does; a code point a str may hold but no class has (a lone surrogate) is OTHER. */
#include "core.h"

static size_t run_of(const uint32_t *s, size_t i, size_t n, int cls) {
    while (i < n && ucd_class(s[i]) == cls) i++;
    return i;
}

static size_t line_breaks(const uint32_t *s, size_t i, size_t n) {
    while (i < n && (s[i] == '\n' || s[i] == '\r')) i++;
    return i;
}

static int lower_or_upper(uint32_t c, uint32_t lower) { return c == lower || c == lower - 0x20; }

size_t piece_end(const uint32_t *s, size_t pos, size_t n, int max_digits) {
    uint32_t c = s[pos];
    size_t next = pos + 1;
    int cls = ucd_class(c);
    /* 1. contractions (5.2): (?i:'s|'t|'re|'ve|'m|'ll|'d); simple case folding adds U+017F to s */
    if (c == '\'' && next < n) {
        uint32_t a = s[next], b = next + 1 < n ? s[next + 1] : 0;
        if (lower_or_upper(a, 's') || a == 0x17F || lower_or_upper(a, 't') || lower_or_upper(a, 'm') ||
            lower_or_upper(a, 'd'))
            return next + 1;
        if ((lower_or_upper(a, 'r') || lower_or_upper(a, 'v')) && lower_or_upper(b, 'e')) return next + 2;
        if (lower_or_upper(a, 'l') && lower_or_upper(b, 'l')) return next + 2;
    }
    /* 2. letters (the optional prefix cannot be a letter) */
    if (cls == CLASS_L) return run_of(s, next, n, CLASS_L);
    /* 3. numbers, 1 to max_digits */
    if (cls == CLASS_N) {
        size_t end = next;
        for (int m = 1; m < max_digits && end < n && ucd_class(s[end]) == CLASS_N; m++) end++;
        return end;
    }
    int line_break = c == '\n' || c == '\r';
    /* 2. one code point that is not CR, LF, L or N, then letters */
    if (!line_break && next < n && ucd_class(s[next]) == CLASS_L) return run_of(s, next, n, CLASS_L);
    /* 4. punctuation, symbols, marks, private use (with an optional space first); then CR/LF */
    if (cls == CLASS_OTHER) return line_breaks(s, run_of(s, next, n, CLASS_OTHER), n);
    if (c == ' ' && next < n && ucd_class(s[next]) == CLASS_OTHER)
        return line_breaks(s, run_of(s, next, n, CLASS_OTHER), n);
    /* whitespace: 5. \s*[\r\n]+, 6. \s+(?!\S), 7. \s+ */
    size_t e = run_of(s, pos, n, CLASS_W);
    for (size_t i = e; i > pos; i--)
        if (s[i - 1] == '\n' || s[i - 1] == '\r') return i;
    if (e == n) return e;
    return e - 1 > pos ? e - 1 : e;
}
