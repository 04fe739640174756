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

/* --- The core's allocator ------------------------------------------------------------------ */

/* realloc and free, unless a binding sets its own before any call: the CPython binding sets
 * PyMem_RawRealloc and PyMem_RawFree, so that tracemalloc counts the core's memory as it counts
 * the pure path's (tests/codec/test_decoding_memory.py). Every allocation of the core goes through these. */
extern void *(*core_realloc)(void *, size_t);
extern void (*core_free)(void *);

/* core_realloc of an array of `count` items of `size` bytes, or NULL where count * size overflows
 * or memory runs out (data is then unchanged). */
void *core_realloc_array(void *data, size_t count, size_t size);

/* A new array of `count` zeroed items of `size` bytes (calloc through core_realloc), or NULL. */
void *core_calloc(size_t count, size_t size);

/* Room for `need` items in the growable array *data of *cap items of `size` bytes: the capacity
 * doubles (from `first` when it is 0) until it holds them, so that n pushes cost O(n) copying.
 * 0 on success; -1 when out of memory or past SIZE_MAX, with *data and *cap unchanged. Every
 * growable array of the core grows through this. */
int core_grow(void **data, size_t *cap, size_t need, size_t size, size_t first);

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

/* --- UTF-8, one code point at a time --------------------------------------------------------- */

/* The UTF-8 of cp in out: its length, or 0 where cp has none (past U+10FFFF; a surrogate unless
 * `surrogates`, as Python's "surrogatepass" writes them). */
static inline int utf8_encode(uint32_t cp, int surrogates, uint8_t out[4]) {
    if (cp < 0x80) { out[0] = (uint8_t)cp; return 1; }
    if (cp < 0x800) { out[0] = (uint8_t)(0xC0 | cp >> 6); out[1] = (uint8_t)(0x80 | (cp & 0x3F)); return 2; }
    if (cp >= 0xD800 && cp <= 0xDFFF && !surrogates) return 0;
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | cp >> 12);
        out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp > 0x10FFFF) return 0;
    out[0] = (uint8_t)(0xF0 | cp >> 18);
    out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/* The code point that well-formed UTF-8 at s[0:n] (n >= 1) begins with, and its length in *len;
 * 0 where the bytes are not well-formed: a stray or missing continuation byte, a sequence cut
 * short, an overlong form, past U+10FFFF, or a surrogate unless `surrogates`. */
static inline int utf8_decode(const uint8_t *s, size_t n, int surrogates, uint32_t *cp, size_t *len) {
    uint32_t b = s[0], c, min;
    size_t more;
    if (b < 0x80) { c = b; more = 0; min = 0; }
    else if (b >= 0xC2 && b <= 0xDF) { c = b & 0x1F; more = 1; min = 0x80; }
    else if (b >= 0xE0 && b <= 0xEF) { c = b & 0x0F; more = 2; min = 0x800; }
    else if (b >= 0xF0 && b <= 0xF4) { c = b & 0x07; more = 3; min = 0x10000; }
    else return 0;
    if (more > n - 1) return 0;
    for (size_t k = 1; k <= more; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0;
        c = c << 6 | (s[k] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (!surrogates && c >= 0xD800 && c <= 0xDFFF)) return 0;
    *cp = c;
    *len = more + 1;
    return 1;
}

/* --- Spec 3: the pinned character data (ucd.c) -------------------------------------------- */

enum { CLASS_OTHER = 0, CLASS_L = 1, CLASS_N = 2, CLASS_W = 3 };

void ucd_init(void);                                  /* once, before anything below */
int ucd_class_astral(uint32_t cp);
int ucd_ccc_astral(uint32_t cp);
int ucd_quick_check_astral(uint32_t cp);
int64_t ucd_lower(uint32_t cp);                       /* 3.3: the lower member of cp's pair, or -1 */
int ucd_has_upper(uint32_t cp);                       /* 3.3: cp is the lower member of a pair */
uint32_t ucd_upper(uint32_t cp);                      /* 3.3: the upper member of cp's pair, or cp */

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
/* 3.4 read backwards (7.6): the code point that decomposes to base and exactly these marks
 * (indexes into UCD_MARKS, in order), or -1. */
int64_t ucd_compose_marks(uint32_t base, const uint8_t *marks, size_t count);

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

/* --- Spec 5: the splitters (splitting.c) -------------------------------------------------- */

/* The end of the piece that starts at pos < n. max_digits is 3 (llama3) or 1 (paper). */
size_t piece_end(const uint32_t *s, size_t pos, size_t n, int max_digits);

/* --- Spec 6: the encoder (encoding.c) ----------------------------------------------------- */

/* An encoder configuration, as in js/src/encoding.mjs: the features, the fold option and the
 * case option of spec 6.6 in one integer. */
enum {
    CFG_CASE = 1, CFG_MARKS = 2, CFG_REPEAT = 4,  /* the features */
    CFG_FOLD_NO_WHITESPACE = 8, CFG_FOLD_NONE = 16, /* fold: neither bit is "all" */
    CFG_CASE_RANGE = 32                            /* case: "range"; clear: "capitalize" */
};

/* The group (opcodes and argument code points) and the slots of one piece (6.1, 6.2, 6.4). */
int analyse_piece(const uint32_t *p, size_t n, int cfg, cpbuf *group, cpbuf *slots);
/* analyse_piece, and where each slot starts in p (Python's Piece.slot_starts) in starts. */
int analyse_piece_at(const uint32_t *p, size_t n, int cfg, cpbuf *group, cpbuf *slots, cpbuf *starts);
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
int offsets_push(offsets *o, size_t at);

/* The stream of normalized text appended to out, and where each pre-token of the fuse mode
 * ends in it appended to ends: 9.1 (none), 9.2 (all), 9.4 (frequent). */
int pretokens(const uint32_t *text, size_t n, int max_digits, int cfg, int fuse, cpbuf *out, offsets *ends);

/* --- Where each code point of the stream comes from (spans.c) ------------------------------ */

/* For each code point of the stream of text[0:n] (the text as given: normalized first when
 * normalize is set), the span [start, end) of the given text it stands for, appended to
 * starts and ends (Encoding.offsets, python/functok/tokenizer/codec_pretokenizer.py's spans):
 * a base code point spans its slot, both code points of an escape pair the same slot, and
 * every code point of an instruction the slots it changes (a MULTIREPEAT its unit, an
 * UPPERCASE its range). A slot spans the given text its code points come from through NFC
 * (4.4: a span NFC changed maps wholly to each code point it gives). */
int stream_spans(const uint32_t *text, size_t n, int normalize, int max_digits, int cfg, offsets *starts,
                 offsets *ends);

/* --- Spec 7 and 8: the decoder (decoding.c) ------------------------------------------------- */

/* The error kinds of spec 8.1, in the order of spec/opcodes.json; 0 is no error. */
enum {
    DECODE_OK = 0, DECODE_UNKNOWN_OPCODE, DECODE_TRUNCATED_INSTRUCTION, DECODE_STRAY_ARGUMENT,
    DECODE_BAD_COUNT, DECODE_BAD_RANGE, DECODE_POSITION_OUT_OF_RANGE, DECODE_DANGLING_GROUP,
    DECODE_ESCAPE_AT_END, DECODE_OUTPUT_TOO_LARGE, DECODE_LONE_SURROGATE
};

/* The error a strict decoder raises (8.2): its kind, its offset in the stream, and the pure
 * path's message for it (functok/decoding.py words them; the message is not normative). */
typedef struct {
    int kind;
    size_t offset;
    char message[128];
} decode_error;

const char *decode_error_name(int kind);              /* spec 8.1's name of a DECODE_* kind */

/* Decode the stream s[0:n] (spec 7), appending the text to out. The stream's code points are
 * `width` bytes each (1, 2 or 4: a Python str's own storage, read in place). Lenient (strict == 0, 8.3): every error's
 * lenient action is taken and error->kind is DECODE_OK. Strict (8.2): error->kind is the first
 * error by offset and precedence, or DECODE_OK (out then holds the text; after an error it holds
 * a partial text). max_output bounds the code points repeats may produce (7.8). Returns -1 when
 * memory runs out, else 0. Time and memory are linear in n plus the output. */
int decode_stream(const void *s, int width, size_t n, int strict, uint64_t max_output, cpbuf *out, decode_error *error);

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

/* --- Spec 14.4, 14.5: greedy BPE and the tokenizer's encode (vocab.c, bpe.c, tokenizer.c) ------- */

/* A hash map from a 64-bit key to (rank, value): a merge's pair of ids (left << 32 | right) to
 * its rank and the id it makes, or a code point to its token's id. rank UINT32_MAX marks an
 * empty slot, so a rank is below it. */
typedef struct {
    uint64_t key;
    uint32_t rank, value;
} pair_entry;

typedef struct {
    pair_entry *slots;
    size_t cap, len;                                  /* cap: 0 or a power of two */
} pairmap;

void pairmap_init(pairmap *m);
void pairmap_free(pairmap *m);
int pairmap_put(pairmap *m, uint64_t key, uint32_t rank, uint32_t value); /* replaces */
const pair_entry *pairmap_get(const pairmap *m, uint64_t key);            /* NULL: absent */

/* A merge model: Hugging Face tokenizers' BPE (model.rs) with byte fallback and nothing else
 * (no prefix, suffix or unk: a functok tokenizer's file has none, spec 14.3). */
typedef struct {
    pairmap chars;                                    /* code point -> the id of its one-character token */
    pairmap merges;                                   /* left << 32 | right -> (merge index, new id) */
    uint32_t bytes[256];                              /* <0xXX> ids, for characters missing from chars */
    uint8_t has_byte[256];
} bpe_model;

void bpe_model_init(bpe_model *m);
void bpe_model_free(bpe_model *m);

/* What one greedy merge needs, reused from word to word. */
typedef struct {
    idbuf symbols;
    uint32_t *next, *prev;
    uint8_t *alive;
    size_t cap;                                       /* of next, prev and alive */
    struct bpe_queued *queue;                         /* the priority queue of Word::merge_all */
    size_t queue_cap;
} bpe_scratch;

void bpe_scratch_init(bpe_scratch *s);
void bpe_scratch_free(bpe_scratch *s);

/* The greedy ids of one pre-token (a "word": its code points), appended to out: one symbol per
 * code point (its byte tokens when it has none), then Word::merge_all (bpe.c). */
int bpe_word(const bpe_model *m, bpe_scratch *s, const uint32_t *word, size_t n, idbuf *out);

/* A bounded cache of ids per pre-token, with functok/cache.py's policy: at most `limit`
 * entries, and when full the older half goes. It holds two generations of limit/2 entries;
 * a full young one becomes the old one and the old one is dropped. Pre-tokens longer than
 * CACHE_MAX_KEY code points are not cached (they rarely repeat), so memory stays bounded. */
enum { CACHE_MAX_KEY = 256 };

typedef struct {
    struct cache_entry *entries;
    uint32_t *slots;                                  /* index + 1 into entries; 0: empty */
    size_t len, cap, slot_cap;
    cpbuf arena;                                      /* keys and ids, one after the other */
} cache_generation;

typedef struct {
    cache_generation young, old;
    size_t limit;
} pretoken_cache;

void pretoken_cache_init(pretoken_cache *c, size_t limit);
void pretoken_cache_free(pretoken_cache *c);
/* The cached ids of key[0:n] (*count of them), or NULL. */
const uint32_t *pretoken_cache_get(const pretoken_cache *c, const uint32_t *key, size_t n, size_t *count);
int pretoken_cache_put(pretoken_cache *c, const uint32_t *key, size_t n, const uint32_t *ids, size_t count);

/* tiktoken's merge rule (bpe.py's TiktokenBPE): a byte string's rank is its id; a piece that is
 * a token is that token, else its bytes merge, lowest rank of the joined pair first, leftmost on
 * ties. `bytemap` maps byte strings to ranks. */
typedef struct {
    struct bytemap_entry *entries;
    uint32_t *slots;                                  /* index + 1 into entries; 0: empty */
    size_t len, cap, slot_cap;
    uint8_t *arena;
    size_t arena_len, arena_cap;
} bytemap;

void bytemap_init(bytemap *m);
void bytemap_free(bytemap *m);
int bytemap_put(bytemap *m, const uint8_t *key, size_t n, uint32_t rank);         /* replaces */
int bytemap_get(const bytemap *m, const uint8_t *key, size_t n, uint32_t *rank);  /* 1: found */

/* What tiktoken_piece needs, reused from piece to piece. */
typedef struct {
    uint32_t *next, *prev;                            /* the parts, by their first byte */
    uint64_t *rank;                                   /* each part's rank joined with the next one */
    struct bpe_queued *queue;
    size_t cap, queue_cap;
} tiktoken_scratch;

void tiktoken_scratch_init(tiktoken_scratch *s);
void tiktoken_scratch_free(tiktoken_scratch *s);
/* The ids of one piece's bytes appended to out: 0; -1 out of memory; -2 a part that is not a
 * token (a rank file without every single byte), its first byte in *missing_at. */
int tiktoken_piece(const bytemap *ranks, tiktoken_scratch *s, const uint8_t *piece, size_t n, idbuf *out,
                   size_t *missing_at);

/* A tokenizer's greedy encode: the codec's options (spec 9) and the merge model. */
typedef struct {
    bpe_model bpe;
    int max_digits, cfg, fuse;
} greedy_tokenizer;

/* A cache that greedy_encode reads and fills in place of the workspace's own, where `get` is
 * set: the CPython binding's, which all of an encoder's threads share (bind_shared_cache.c).
 * get: the cached ids of key[0:n] (*count of them, valid until the next put) or NULL; put: as
 * pretoken_cache_put. `cache` is what both are given. */
typedef struct {
    const uint32_t *(*get)(void *cache, const uint32_t *key, size_t n, size_t *count);
    int (*put)(void *cache, const uint32_t *key, size_t n, const uint32_t *ids, size_t count);
    void *cache;
} pretoken_store;

/* One caller's working memory: the cache and the scratch buffers. A greedy_tokenizer is read
 * only, so threads share it; each thread needs a workspace of its own. */
typedef struct {
    pretoken_cache cache;
    pretoken_store shared; /* zero (greedy_workspace_init): the workspace's own cache */
    bpe_scratch scratch;
    cpbuf stream;
    offsets ends;
} greedy_workspace;

void greedy_workspace_init(greedy_workspace *w, size_t cache_limit);
void greedy_workspace_free(greedy_workspace *w);

/* 14.4: the ids of one stretch of already normalized text (between special tokens): its
 * pre-tokens (9), then each one's ids from the cache or from bpe_word, appended to out. */
int greedy_encode(const greedy_tokenizer *t, greedy_workspace *w, const uint32_t *text, size_t n, idbuf *out);

/* --- Spec 14.6: ids to text, the fast road (detokenize.c) ----------------------------------- */

/* What an id stands for: nothing (unknown), an ordinary token, a byte token, a special token. */
enum { TOKEN_UNKNOWN = 0, TOKEN_ORDINARY = 1, TOKEN_BYTE = 2, TOKEN_SPECIAL = 3 };

typedef struct {
    uint8_t kind, byte;   /* byte: a byte token's byte */
    size_t start, length; /* its code points in the table's text: the token, or a special token's text */
} token_entry;

/* A tokenizer's ids, 0..count-1, built once (token_table_set for each id that is not unknown). */
typedef struct {
    token_entry *entries;
    size_t count;
    cpbuf text;
} token_table;

int token_table_init(token_table *t, size_t count);
int token_table_set(token_table *t, size_t id, int kind, const uint32_t *cps, size_t n, uint8_t byte);
void token_table_free(token_table *t);

/* The text of ids[0:n] (spec 14.6) appended to out: 1. Or 0 where an id is unknown, a run of
 * byte tokens is not valid UTF-8, or (strict) a stream has a format error: the reference decoder
 * then decodes the ids, with its first-error rule and id indexes (out holds a partial text).
 * -1 when memory runs out. */
int detokenize(const token_table *t, const uint64_t *ids, size_t n, int strict, int skip_special,
               uint64_t max_output, cpbuf *out);

#endif
