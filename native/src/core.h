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

/* --- Spec 10: optimal segmentation (segment.c) -------------------------------------------- */

/* The candidate tokens of spec 10 (no special tokens, no byte-fallback tokens), built once and
 * then read only, so that threads may segment with one segmenter at once. A word (a pre-token
 * spelled in the vocabulary's symbols: code points, or bytes 0..255) is segmented exactly as
 * python/functok/tokenizer/segment.py does under "leftmost-longest"; "prefer-greedy" is that
 * result unless the greedy ids are as few, which the caller compares. */
typedef struct segmenter segmenter;

segmenter *segmenter_new(void);                        /* NULL when memory runs out */
void segmenter_free(segmenter *s);
/* Add a candidate token (its symbols, each <= 0x10FFFF) and its id; a token added twice keeps
 * the last id. -1 when memory runs out. */
int segmenter_add(segmenter *s, const uint32_t *token, size_t n, uint32_t id);
/* Byte fallback (spec 10.1): a symbol that is not a candidate token becomes the tokens of its
 * UTF-8 bytes, byte_id[b] where has_byte[b]; a symbol with a byte missing cannot be spelled. */
void segmenter_set_byte_fallback(segmenter *s, const uint32_t byte_id[256], const uint8_t has_byte[256]);
int segmenter_has_fallback(const segmenter *s);
int segmenter_is_token(const segmenter *s, uint32_t symbol); /* the one-symbol word is a token */
/* 1 and *id when the whole word is one candidate token, else 0. */
int segmenter_whole(const segmenter *s, const uint32_t *word, size_t n, uint32_t *id);

enum { SEGMENT_OK = 0, SEGMENT_NO_MEMORY = -1, SEGMENT_NO_TOKEN = -2, SEGMENT_NO_FALLBACK = -3 };
/* The ids of the leftmost-longest optimal segmentation of word[0:n], appended to out.
 * SEGMENT_NO_FALLBACK: the symbol at *at is not a token and byte fallback cannot spell it (the
 * rightmost such symbol, where the reference's fallback raises first). SEGMENT_NO_TOKEN: with
 * no byte fallback, some symbol is in no token, so nothing spells the word. Time is O(n x the
 * longest token prefix matched); memory 12 bytes per symbol. On failure out may be partly
 * filled. */
int segment_word(const segmenter *s, const uint32_t *word, size_t n, idbuf *out, size_t *at);

#endif
