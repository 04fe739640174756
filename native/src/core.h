/* The functok C core: the codec of spec/SPEC.md over code points, with no Python in it (the
 * CPython binding is module.c), so that a fuzzer or another binding can link it alone.
 *
 * Code points are uint32_t; text is an array of them (a Python str is one already). Every
 * function that can fail returns -1 with errno-free meaning "out of memory" and leaves its output
 * buffer valid (possibly partly filled); 0 means success. */
#ifndef FUNCTOK_CORE_H
#define FUNCTOK_CORE_H

#include <stddef.h>
#include <stdint.h>

/* --- A growable buffer of code points ---------------------------------------------------- */

typedef struct {
    uint32_t *data;
    size_t len, cap;
} cpbuf;

void cpbuf_init(cpbuf *b);
void cpbuf_free(cpbuf *b);
int cpbuf_reserve(cpbuf *b, size_t more);             /* room for `more` more code points */
int cpbuf_push(cpbuf *b, uint32_t cp);
int cpbuf_extend(cpbuf *b, const uint32_t *cps, size_t n);

/* Token ids are uint32_t as well (spec 14.3: an id is below 2^32), kept in
 * the same growable buffer under a name that says what it holds (the cpbuf_* functions take it). */
typedef cpbuf idbuf;

/* --- Spec 3: the pinned character data (ucd.c) -------------------------------------------- */

enum { CLASS_OTHER = 0, CLASS_L = 1, CLASS_N = 2, CLASS_W = 3 };

void ucd_init(void);                                  /* once, before anything below */
int ucd_class_astral(uint32_t cp);
int ucd_ccc_astral(uint32_t cp);
int ucd_quick_check_astral(uint32_t cp);
int64_t ucd_lower(uint32_t cp);                       /* 3.3: the lower member of cp's pair, or -1 */
int ucd_has_upper(uint32_t cp);                       /* 3.3: cp is the lower member of a pair */

/* The Basic Multilingual Plane's lookups, inline on the hot paths (filled by ucd_init). */
extern uint8_t ucd_class_bmp[0x10000], ucd_ccc_bmp[0x10000], ucd_quick_check_bmp[0x10000];
/* For each BMP code point, what can make a piece holding it encode to something else:
 * SPECIAL_CASE (a pair's upper member), SPECIAL_MARKS (a decomposition over the 13 marks),
 * SPECIAL_ESCAPE (U+E000..U+EFFF, escaped in a base), SPECIAL_UNSTABLE (NFC may change it). */
extern uint8_t ucd_special_bmp[0x10000];
enum { SPECIAL_CASE = 1, SPECIAL_MARKS = 2, SPECIAL_ESCAPE = 4, SPECIAL_UNSTABLE = 8 };

static inline int ucd_class(uint32_t cp) {             /* 3.2 */
    return cp < 0x10000 ? ucd_class_bmp[cp] : ucd_class_astral(cp);
}
static inline int ucd_ccc(uint32_t cp) {               /* 3.5 Canonical_Combining_Class */
    return cp < 0x10000 ? ucd_ccc_bmp[cp] : ucd_ccc_astral(cp);
}
static inline int ucd_quick_check(uint32_t cp) {       /* 3.5 NFC_Quick_Check: 0 Y, 1 N, 2 M */
    return cp < 0x10000 ? ucd_quick_check_bmp[cp] : ucd_quick_check_astral(cp);
}
/* 3.4: {composed, base, count, mark index, mark index, mark index} for cp, or NULL. */
const int32_t *ucd_mark_decomposition(uint32_t cp);
/* 3.5: cp's one-level canonical mapping {cp, first, second or -1}, or NULL. */
const int32_t *ucd_nfc_decomposition(uint32_t cp);
int64_t ucd_compose(uint32_t first, uint32_t second); /* the primary composite, or -1 */
extern const uint32_t *UCD_MARKS;                     /* the 13 marks, in opcode order */

/* --- Spec 4: NFC (normalize.c) ----------------------------------------------------------- */

/* Stable (4.4): canonical combining class 0 and NFC_Quick_Check Yes. NFC never changes a stable
 * code point, nor combines it with what comes before it, so a text cut before one normalizes
 * as its two halves do. */
enum { FIRST_UNSTABLE = 0x300 }; /* every code point below it is stable */
static inline int nfc_stable(uint32_t cp) {
    if (cp < 0x10000) return !(ucd_special_bmp[cp] & SPECIAL_UNSTABLE);
    return ucd_ccc_astral(cp) == 0 && ucd_quick_check_astral(cp) == 0;
}

/* NFC of in[0:n] appended to out; 1 (out untouched) when in is stable throughout, so NFC
 * already, which most text is; -1 when memory runs out. */
int nfc(const uint32_t *in, size_t n, cpbuf *out);

/* --- Spec 5: the splitters (split.c) ------------------------------------------------------ */

/* The end of the piece that starts at pos < n. max_digits is 3 (llama3) or 1 (paper). */
size_t piece_end(const uint32_t *s, size_t pos, size_t n, int max_digits);

/* --- Spec 6: the encoder (encode.c) ------------------------------------------------------- */

/* An encoder configuration, as in js/src/encode.mjs: the features, the fold option and the
 * case option of spec 6.6 in one integer. */
enum {
    CFG_CASE = 1, CFG_MARKS = 2, CFG_REPEAT = 4,  /* the features */
    CFG_FOLD_NO_WHITESPACE = 8, CFG_FOLD_NONE = 16, /* fold: neither bit is "all" */
    CFG_CASE_RANGE = 32                            /* case: "range"; clear: "capitalize" */
};

/* The group (opcodes and argument code points) and the slots of one piece (6.1, 6.2, 6.4). */
int analyse_piece(const uint32_t *p, size_t n, int cfg, cpbuf *group, cpbuf *slots);
/* One piece in its stream form (group, then the escaped base: 6.3, 6.4), appended to out;
 * group and slots are scratch buffers, reused across pieces. */
int encode_piece_with(const uint32_t *p, size_t n, int cfg, cpbuf *out, cpbuf *group, cpbuf *slots);
/* Whether a piece can encode to anything but itself under cfg (the encoder's fast check). */
int piece_changes(const uint32_t *p, size_t n, int cfg);
/* The stream of already normalized text, piece by piece, appended to out. */
int encode_text(const uint32_t *text, size_t n, int max_digits, int cfg, cpbuf *out);

/* --- Spec 6 over a text held as code units, window by window (stream.c) ------------------- */

/* A text as a binding holds it: n code units of `width` bytes (1, 2 or 4: a CPython str's kinds,
 * each unit one code point). */
typedef struct {
    const void *data;
    size_t n;
    int width;
} units;

/* Where the stream goes, chunk by chunk: 0 to go on, -1 to stop (out of memory). */
typedef int (*stream_sink)(void *context, const uint32_t *chunk, size_t n);

/* The index of the first surrogate code point (U+D800..U+DFFF) of text, or text.n if none. */
size_t first_surrogate(units text);
/* The stream of text (normalized first when normalize is set: 4.2), given to sink in chunks.
 * Only a window of the text is held as code points at a time, so memory beyond the sink's is
 * bounded by the longest piece (or NFC span), not by the text. */
int encode_units(units text, int normalize, int max_digits, int cfg, stream_sink sink, void *context);

/* --- Spec 9: pre-tokens (pretokens.c) ---------------------------------------------------- */

enum { FUSE_NONE = 0, FUSE_ALL = 1, FUSE_FREQUENT = 2 };

/* A growable list of offsets (where each pre-token ends in the stream). */
typedef struct {
    size_t *data;
    size_t len, cap;
} offsets;

void offsets_init(offsets *o);
void offsets_free(offsets *o);

/* The stream of normalized text appended to out, and where each pre-token of the fuse mode
 * ends in it appended to ends: 9.1 (none), 9.2 (all), 9.4 (frequent). */
int pretokens(const uint32_t *text, size_t n, int max_digits, int cfg, int fuse, cpbuf *out, offsets *ends);

/* --- Training's pre-token counts (count.c) ------------------------------------------------ */

/* A key's code points are keys.data[start:start + len]; a chain's key also has its segments'
 * ends (all but the last, relative to its start) at cuts.data[cuts_at:cuts_at + ncuts]. */
typedef struct {
    size_t start, len, cuts_at, ncuts;
    uint64_t hash, count;
} count_entry;

/* How often each key was added, the keys in the order first added (entries[0:len]). */
typedef struct {
    cpbuf keys;
    offsets cuts;
    count_entry *entries;
    size_t len, cap;
    uint64_t *slots;           /* open addressing: hash bits and an entry's index + 1, or 0 */
    size_t slot_count;
    uint64_t seed;             /* of the hash: set it (at random) before the first key */
} counter;

void counter_init(counter *c);
void counter_free(counter *c);
/* Counts key[0:n] once more; the first time, its segment ends cuts[0:ncuts] (a chain's; none
 * for a pre-token) are kept with it. */
int counter_add(counter *c, const uint32_t *key, size_t n, const size_t *cuts, size_t ncuts);
/* The pre-tokens of text under fuse counted into words, as functok's training counts them; with
 * chains, the pre-tokens are those of "none" and each chain of 9.4 of two segments or more is
 * counted into chains as well. */
int count_pretokens(const uint32_t *text, size_t n, int max_digits, int cfg, int fuse, counter *words,
                    counter *chains);

#endif
