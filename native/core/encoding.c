/* Spec 6: the encoder, one piece at a time: fold (6.1), marks and case (6.2), escape (6.3) and
 * the group in canonical order (6.4), as js/src/encoding.mjs does it. */
#include "core.h"
#include "opcodes.h"

static int is_whitespace(uint32_t c) { return ucd_class(c) == CLASS_W; }

static int whitespace_only(const uint32_t *p, size_t n) {
    for (size_t m = 0; m < n; m++)
        if (!is_whitespace(p[m])) return 0;
    return 1;
}

static int same_run(const uint32_t *p, size_t a, size_t b, size_t n) {
    for (size_t m = 0; m < n; m++)
        if (p[a + m] != p[b + m]) return 0;
    return 1;
}

static int push3(cpbuf *b, uint32_t x, uint32_t y, uint32_t z) {
    return cpbuf_push(b, x) || cpbuf_push(b, y) || cpbuf_push(b, z);
}

/* Whether p[0:n] holds a unit of 1..8 code points three times in a row: a unit of length L at k
 * repeats three times exactly when p[m] == p[m + L] for the 2L positions m from k. */
static int has_repeat(const uint32_t *p, size_t n) {
    for (size_t unit = 1; unit <= 8 && 3 * unit <= n; unit++) {
        size_t run = 0;
        for (size_t m = 0; m + unit < n; m++) {
            if (p[m] == p[m + unit]) {
                if (++run >= 2 * unit) return 1;
            } else if (n - unit - m - 1 < 2 * unit) { /* too few positions left for 2 * unit matches */
                break;
            } else {
                run = 0;
            }
        }
    }
    return 0;
}

/* where[0:n] = from, from + 1, ...: where n slots, one code point each, start; nothing when
 * where is NULL (only offsets ask where slots start). */
static int starts_at(cpbuf *where, size_t from, size_t n) {
    if (!where) return 0;
    if (cpbuf_reserve(where, n)) return -1;
    for (size_t k = 0; k < n; k++) where->data[where->len++] = (uint32_t)(from + k);
    return 0;
}

/* 6.1: the slots of p, and the repeats (in fold order) appended to group; where each slot starts
 * in p appended to starts, unless it is NULL. */
static int fold(const uint32_t *p, size_t n, int cfg, cpbuf *group, cpbuf *slots, cpbuf *starts) {
    int repeats = (cfg & CFG_REPEAT) && !(cfg & CFG_FOLD_NONE);
    int keep_whitespace = (cfg & CFG_FOLD_NO_WHITESPACE) != 0;
    if (!repeats || n < 3 || !has_repeat(p, n)) /* nothing folds: one slot each */
        return cpbuf_extend(slots, p, n) || starts_at(starts, 0, n);
    size_t i = 0;
    while (i < n) {
        uint32_t c = p[i];
        if (repeats) {
            size_t run = 1;
            while (i + run < n && p[i + run] == c) run++;
            if (run >= 3 && keep_whitespace && is_whitespace(c)) { /* fold "no-whitespace": literal */
                if (cpbuf_reserve(slots, run) || starts_at(starts, i, run)) return -1;
                for (size_t k = 0; k < run; k++) slots->data[slots->len++] = c;
                i += run;
                continue;
            }
            if (run >= 3) { /* 1. runs: REPEAT first, in chunks of at most 255 */
                for (size_t left = run; left > 0;) {
                    size_t chunk = left < MAX_ARGUMENT ? left : MAX_ARGUMENT, s = slots->len, at = i + run - left;
                    if (chunk >= 3 && s <= MAX_ARGUMENT) {
                        if (push3(group, REPEAT, ARGUMENT_FIRST + (uint32_t)s, ARGUMENT_FIRST + (uint32_t)chunk) || cpbuf_push(slots, c) ||
                            starts_at(starts, at, 1))
                            return -1;
                    } else {
                        if (cpbuf_reserve(slots, chunk) || starts_at(starts, at, chunk)) return -1;
                        for (size_t k = 0; k < chunk; k++) slots->data[slots->len++] = c;
                    }
                    left -= chunk;
                }
                i += run;
                continue;
            }
            /* 2. units of 2..8 code points, the shortest first */
            size_t s = slots->len, folded = 0;
            for (size_t unit = 2; unit <= 8 && i + unit <= n && s + unit <= MAX_ARGUMENT; unit++) {
                if (keep_whitespace && whitespace_only(p + i, unit)) continue;
                size_t k = 1;
                while (k < MAX_ARGUMENT && i + (k + 1) * unit <= n && same_run(p, i, i + k * unit, unit)) k++;
                if (k >= 3) {
                    if (cpbuf_push(group, MULTIREPEAT) ||
                        push3(group, ARGUMENT_FIRST + (uint32_t)s, ARGUMENT_FIRST + (uint32_t)(s + unit), ARGUMENT_FIRST + (uint32_t)k) ||
                        cpbuf_extend(slots, p + i, unit) || starts_at(starts, i, unit))
                        return -1;
                    i += unit * k;
                    folded = 1;
                    break;
                }
            }
            if (folded) continue;
        }
        if (cpbuf_push(slots, c) || starts_at(starts, i, 1)) return -1; /* 3. one literal slot */
        i++;
    }
    return 0;
}

/* 6.2, the range rule (case "range"): a maximal run of slots among 0..254, each a capital or
 * caseless, with at least 2 capitals, is one UPPERCASE(first, last + 1); any other capital gets
 * CAPITALIZE. slots are lowered already; caps[0:ncaps] the capital slots in order. */
static int range_case(const uint32_t *slots, size_t last, const uint32_t *caps, size_t ncaps, cpbuf *group) {
    size_t limit = last < MAX_ARGUMENT ? last : MAX_ARGUMENT, ci = 0, s = 0;
    while (s < limit) {
        if ((ci >= ncaps || caps[ci] != s) && ucd_has_upper(slots[s])) { s++; continue; } /* lower */
        size_t first = ci, e = s;
        for (; e < limit; e++) {
            if (ci < ncaps && caps[ci] == e) ci++;
            else if (ucd_has_upper(slots[e])) break;
        }
        if (ci - first >= 2) {
            if (push3(group, UPPERCASE, ARGUMENT_FIRST + (uint32_t)s, ARGUMENT_FIRST + (uint32_t)e)) return -1;
        } else if (ci > first) {
            if (cpbuf_push(group, CAPITALIZE) || cpbuf_push(group, ARGUMENT_FIRST + caps[first])) return -1;
        }
        s = e;
    }
    if (ci < ncaps && (cpbuf_push(group, CAPITALIZE) || cpbuf_push(group, ARGUMENT_FIRST + caps[ci]))) return -1;
    return 0; /* slot 255, the only one left */
}

int analyse_piece(const uint32_t *p, size_t n, int cfg, cpbuf *group, cpbuf *slots) {
    return analyse_piece_at(p, n, cfg, group, slots, NULL);
}

int analyse_piece_at(const uint32_t *p, size_t n, int cfg, cpbuf *group, cpbuf *slots, cpbuf *starts) {
    group->len = slots->len = 0;
    if (starts) starts->len = 0;
    if (fold(p, n, cfg, group, slots, starts)) return -1;
    /* 6.2 marks and case, on slots 0..255; the group takes the mark instructions by slot (in
     * decomposition order), then the case family by start slot (6.4) */
    int do_case = cfg & CFG_CASE, do_marks = cfg & CFG_MARKS;
    size_t last = slots->len <= MAX_ARGUMENT ? slots->len : MAX_ARGUMENT + 1, ncaps = 0;
    uint32_t caps[MAX_ARGUMENT + 1];
    for (size_t s = 0; s < last; s++) {
        uint32_t c = slots->data[s];
        const int32_t *d = do_marks && (c >= 0x10000 || ucd_special_bmp[c] & SPECIAL_MARKS) ? ucd_mark_decomposition(c) : NULL;
        if (d) {
            for (int32_t m = 0; m < d[2]; m++)
                if (cpbuf_push(group, FIRST_MARK + (uint32_t)d[3 + m]) || cpbuf_push(group, ARGUMENT_FIRST + (uint32_t)s))
                    return -1;
            c = (uint32_t)d[1];
        }
        int64_t lower = do_case && (c >= 0x10000 || ucd_special_bmp[c] & SPECIAL_CASE) ? ucd_lower(c) : -1;
        if (lower >= 0) {
            caps[ncaps++] = (uint32_t)s;
            c = (uint32_t)lower;
        }
        slots->data[s] = c;
    }
    if ((cfg & CFG_CASE_RANGE) && ncaps >= 2) return range_case(slots->data, last, caps, ncaps, group);
    for (size_t k = 0; k < ncaps; k++)
        if (cpbuf_push(group, CAPITALIZE) || cpbuf_push(group, ARGUMENT_FIRST + caps[k])) return -1;
    return 0;
}

int encode_piece_with(const uint32_t *p, size_t n, int cfg, cpbuf *out, cpbuf *group, cpbuf *slots) {
    if (analyse_piece(p, n, cfg, group, slots) || cpbuf_extend(out, group->data, group->len) ||
        cpbuf_reserve(out, 2 * slots->len))
        return -1;
    for (size_t s = 0; s < slots->len; s++) { /* 6.3: escape U+E000..U+EFFF */
        uint32_t c = slots->data[s];
        if (c >= GROUP_FIRST && c <= ESCAPE) out->data[out->len++] = ESCAPE;
        out->data[out->len++] = c;
    }
    return 0;
}


int piece_changes(const uint32_t *p, size_t n, int cfg) {
    int mask = SPECIAL_ESCAPE | (cfg & CFG_CASE ? SPECIAL_CASE : 0) | (cfg & CFG_MARKS ? SPECIAL_MARKS : 0);
    uint32_t all = 0; /* the code points or'ed: above U+FFFF when one is */
    int special = 0;
    for (size_t k = 0; k < n; k++) { /* no branch: pieces are short, and most do not change */
        all |= p[k];
        special |= ucd_special_bmp[p[k] & 0xFFFF]; /* for an astral one, a guess checked below */
    }
    if (all > 0xFFFF) {
        special = 0;
        for (size_t k = 0; k < n; k++) {
            uint32_t c = p[k];
            if (c < 0x10000) special |= ucd_special_bmp[c];
            else if (((cfg & CFG_CASE) && ucd_lower(c) >= 0) || ((cfg & CFG_MARKS) && ucd_mark_decomposition(c)))
                return 1;
        }
    }
    if (special & mask) return 1;
    return (cfg & CFG_REPEAT) && !(cfg & CFG_FOLD_NONE) && n >= 3 && has_repeat(p, n);
}

int encode_text(const uint32_t *text, size_t n, int max_digits, int cfg, cpbuf *out) {
    cpbuf group, slots; /* scratch for encode_piece_with */
    cpbuf_init(&group);
    cpbuf_init(&slots);
    int failed = cpbuf_reserve(out, n + n / 8 + 16);
    for (size_t start = 0; start < n && !failed;) {
        size_t end = piece_end(text, start, n, max_digits);
        failed = piece_changes(text + start, end - start, cfg)
                     ? encode_piece_with(text + start, end - start, cfg, out, &group, &slots)
                     : cpbuf_extend(out, text + start, end - start);
        start = end;
    }
    cpbuf_free(&group);
    cpbuf_free(&slots);
    return failed ? -1 : 0;
}
