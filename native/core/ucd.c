/* Spec 3: the pinned character data, looked up. The Basic Multilingual Plane is served by arrays
 * filled once from the generated ranges (ucd_tables.h); code points above it by binary search. */
#include <stdlib.h>

#include "core.h"
#include "ucd_tables.h"

const uint32_t *UCD_MARKS = MARK_CODE_POINTS;

uint8_t ucd_class_bmp[0x10000], ucd_ccc_bmp[0x10000], ucd_quick_check_bmp[0x10000], ucd_special_bmp[0x10000];
static uint16_t lower_bmp[0x10000], upper_bmp[0x10000]; /* 0: no pair (U+0000 is in none) */

/* The composition pairs (first << 21 | second -> composite), sorted, built from the one-level
 * mappings of two code points that are not excluded (UAX #15's primary composites). */
typedef struct { uint64_t key; uint32_t composite; } pair;
static pair compositions[NFC_DECOMPOSITIONS_COUNT];
static size_t composition_count;

static int64_t astral_lowers[CASE_PAIRS_COUNT]; /* the astral lower members, sorted */
static size_t astral_lower_count;
static int64_t astral_uppers[CASE_PAIRS_COUNT]; /* lower << 21 | upper of the astral pairs, sorted */

/* 3.4 inverted, for the decoder (7.6): (base, its marks) as mark_key makes it -> composed, sorted. */
typedef struct { uint64_t key; uint32_t composed; } mark_composition;
static mark_composition mark_compositions[MARK_DECOMPOSITIONS_COUNT];

static void fill(uint8_t *bmp, const int32_t (*ranges)[3], size_t count) {
    for (size_t k = 0; k < count; k++)
        for (int32_t cp = ranges[k][0]; cp <= ranges[k][1] && cp < 0x10000; cp++) bmp[cp] = (uint8_t)ranges[k][2];
}

/* The row of a sorted table of (first, last, ...) ranges that holds cp, or NULL. */
static const int32_t *range_row(const int32_t *rows, size_t count, size_t width, uint32_t cp) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const int32_t *row = rows + mid * width;
        if (cp < (uint32_t)row[0]) hi = mid;
        else if (cp > (uint32_t)row[1]) lo = mid + 1;
        else return row;
    }
    return NULL;
}

static int in_ranges(const int32_t (*ranges)[2], size_t count, uint32_t cp) {
    return range_row(&ranges[0][0], count, 2, cp) != NULL;
}

static int range_value(const int32_t (*ranges)[3], size_t count, uint32_t cp) {
    const int32_t *row = range_row(&ranges[0][0], count, 3, cp);
    return row ? row[2] : 0;
}

static int by_key(const void *a, const void *b) { /* pair and mark_composition alike: the key first */
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int by_value(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The key of a base and up to 3 mark indexes (no composition has more):
 * base << 16 | count << 12 | the indexes, 4 bits each, the first lowest. */
static uint64_t mark_key(uint32_t base, const int32_t *marks, size_t count) {
    uint64_t key = (uint64_t)base << 16 | (uint64_t)count << 12;
    for (size_t k = 0; k < count && k < 3; k++) key |= (uint64_t)(marks[k] & 15) << (4 * k);
    return key;
}

void ucd_init(void) {
    static int done;
    if (done) return;
    fill(ucd_class_bmp, CLASS_RANGES, CLASS_RANGES_COUNT);
    fill(ucd_ccc_bmp, CCC_RANGES, CCC_RANGES_COUNT);
    fill(ucd_quick_check_bmp, QUICK_CHECK_RANGES, QUICK_CHECK_RANGES_COUNT);
    for (size_t k = 0; k < CASE_PAIRS_COUNT; k++) {
        uint32_t upper = (uint32_t)CASE_PAIRS[k][0], lower = (uint32_t)CASE_PAIRS[k][1];
        if (upper < 0x10000) {
            lower_bmp[upper] = (uint16_t)lower;
            upper_bmp[lower] = (uint16_t)upper;
            ucd_special_bmp[upper] |= SPECIAL_CASE;
        } else {
            astral_uppers[astral_lower_count] = (int64_t)lower << 21 | upper;
            astral_lowers[astral_lower_count++] = lower;
        }
    }
    qsort(astral_lowers, astral_lower_count, sizeof astral_lowers[0], by_value);
    qsort(astral_uppers, astral_lower_count, sizeof astral_uppers[0], by_value);
    for (size_t k = 0; k < MARK_DECOMPOSITIONS_COUNT; k++) {
        const int32_t *d = MARK_DECOMPOSITIONS[k];
        mark_compositions[k].key = mark_key((uint32_t)d[1], d + 3, (size_t)d[2]);
        mark_compositions[k].composed = (uint32_t)d[0];
    }
    qsort(mark_compositions, MARK_DECOMPOSITIONS_COUNT, sizeof mark_compositions[0], by_key);
    for (size_t k = 0; k < MARK_DECOMPOSITIONS_COUNT; k++)
        if (MARK_DECOMPOSITIONS[k][0] < 0x10000) ucd_special_bmp[MARK_DECOMPOSITIONS[k][0]] |= SPECIAL_MARKS;
    for (uint32_t cp = 0xE000; cp <= 0xEFFF; cp++) ucd_special_bmp[cp] |= SPECIAL_ESCAPE;
    for (uint32_t cp = FIRST_UNSTABLE; cp < 0x10000; cp++)
        if (ucd_ccc_bmp[cp] || ucd_quick_check_bmp[cp]) ucd_special_bmp[cp] |= SPECIAL_UNSTABLE;
    for (size_t k = 0; k < NFC_DECOMPOSITIONS_COUNT; k++) {
        const int32_t *d = NFC_DECOMPOSITIONS[k];
        if (d[2] < 0 || in_ranges(EXCLUSION_RANGES, EXCLUSION_RANGES_COUNT, (uint32_t)d[0])) continue;
        compositions[composition_count].key = (uint64_t)d[1] << 21 | (uint64_t)d[2];
        compositions[composition_count++].composite = (uint32_t)d[0];
    }
    qsort(compositions, composition_count, sizeof compositions[0], by_key);
    done = 1;
}

int ucd_class_astral(uint32_t cp) { return range_value(CLASS_RANGES, CLASS_RANGES_COUNT, cp); }

int ucd_ccc_astral(uint32_t cp) { return range_value(CCC_RANGES, CCC_RANGES_COUNT, cp); }

int ucd_quick_check_astral(uint32_t cp) { return range_value(QUICK_CHECK_RANGES, QUICK_CHECK_RANGES_COUNT, cp); }

int64_t ucd_lower(uint32_t cp) {
    if (cp < 0x10000) return lower_bmp[cp] ? lower_bmp[cp] : -1;
    size_t lo = 0, hi = CASE_PAIRS_COUNT;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cp < (uint32_t)CASE_PAIRS[mid][0]) hi = mid;
        else if (cp > (uint32_t)CASE_PAIRS[mid][0]) lo = mid + 1;
        else return CASE_PAIRS[mid][1];
    }
    return -1;
}

int ucd_has_upper(uint32_t cp) {
    if (cp < 0x10000) return upper_bmp[cp] != 0;
    int64_t key = cp;
    return bsearch(&key, astral_lowers, astral_lower_count, sizeof astral_lowers[0], by_value) != NULL;
}

static const int32_t *row_of(const int32_t *rows, size_t count, size_t width, uint32_t cp) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint32_t key = (uint32_t)rows[mid * width];
        if (cp < key) hi = mid;
        else if (cp > key) lo = mid + 1;
        else return rows + mid * width;
    }
    return NULL;
}

const int32_t *ucd_mark_decomposition(uint32_t cp) {
    return row_of(&MARK_DECOMPOSITIONS[0][0], MARK_DECOMPOSITIONS_COUNT, 6, cp);
}

const int32_t *ucd_nfc_decomposition(uint32_t cp) {
    return row_of(&NFC_DECOMPOSITIONS[0][0], NFC_DECOMPOSITIONS_COUNT, 3, cp);
}

int64_t ucd_compose(uint32_t first, uint32_t second) {
    pair key = {(uint64_t)first << 21 | second, 0};
    const pair *found = bsearch(&key, compositions, composition_count, sizeof key, by_key);
    return found ? (int64_t)found->composite : -1;
}

uint32_t ucd_upper(uint32_t cp) {
    if (cp < 0x10000) return upper_bmp[cp] ? upper_bmp[cp] : cp;
    size_t lo = 0, hi = astral_lower_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint32_t lower = (uint32_t)(astral_uppers[mid] >> 21);
        if (cp < lower) hi = mid;
        else if (cp > lower) lo = mid + 1;
        else return (uint32_t)(astral_uppers[mid] & 0x1FFFFF);
    }
    return cp;
}

int64_t ucd_compose_marks(uint32_t base, const uint8_t *marks, size_t count) {
    if (count == 0 || count > 3) return -1;
    int32_t indexes[3];
    for (size_t k = 0; k < count; k++) indexes[k] = marks[k];
    mark_composition key = {mark_key(base, indexes, count), 0};
    const mark_composition *found = bsearch(&key, mark_compositions, MARK_DECOMPOSITIONS_COUNT, sizeof key, by_key);
    return found ? (int64_t)found->composed : -1;
}
