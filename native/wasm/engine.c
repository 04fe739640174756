/* The tokenizer engine of the WebAssembly build: flat functions over the C core (native/core/)
 * for functok for JavaScript's engine seam (js/src/engine/wasm.mjs), as the CPython binding's
 * GreedyEncoder, Segmenter and TiktokenMerger drive the core (native/python/bind_*.c).
 *
 * One `engine` is one vocabulary made once: its merge rule (Hugging Face BPE with byte fallback,
 * or tiktoken's byte-pair merge over ranks), its alphabet (code points, or UTF-8 bytes), how it
 * cuts text into pre-tokens (the codec's pre-tokens of spec 9, a splitter of spec 5, GPT-2's
 * pattern, or pre-tokens the glue cut itself), and, on first use, its optimal segmenters. Each
 * encode call takes a whole text or batch (stretches one after the other, with where each ends)
 * and answers every id at once, with where each stretch's ids end: one boundary crossing per
 * call, never one per pre-token.
 *
 * Errors: the engine does not word them. Where the reference would raise (a pre-token nothing
 * spells, a lone surrogate, an id the table does not know, bytes that are not UTF-8, a format
 * error), the call returns FK_ASK_REFERENCE or FK_SURROGATE and the glue runs the reference,
 * which raises its own error with its own offsets and id indexes (detokenize.c's rule).
 *
 * Memory: each engine keeps its bounded caches (pretoken_cache, one per mode) and working
 * buffers; a buffer above KEEP_LIMIT entries is given back at the next call, so a long-lived
 * page holds the caches' bound plus what its largest recent call needed. */
#include <stdlib.h>
#include <string.h>

#include "glue.h"

enum { ALPHABET_CHARACTERS = 0, ALPHABET_BYTES = 1 };
enum { CUT_CODEC = 0, CUT_LLAMA3 = 1, CUT_PAPER = 2, CUT_GPT2 = 3, CUT_GIVEN = 4 };
enum { RULE_HF = 0, RULE_TIKTOKEN = 1 };
/* The segmentation modes, each with a cache of its own (as TokenVocabulary keeps one per mode). */
enum {
    MODE_GREEDY = 0, MODE_OPTIMAL = 1, MODE_PREFER_GREEDY = 2,
    MODE_OPTIMAL_REACHABLE = 3, MODE_PREFER_GREEDY_REACHABLE = 4, MODES = 5
};

#define KEEP_LIMIT ((size_t)1 << 20)
#define RESERVE_FROM ((size_t)1 << 18) /* input units from which a call reserves its memory first */

/* What an encode call answered, read by the glue at the engine's address. */
typedef struct {
    uint32_t *ids;
    size_t n_ids;
    size_t *ends; /* where each stretch's ids end in ids */
    size_t n_ends;
} engine_answer;

typedef struct {
    engine_answer answer;                 /* first: the glue reads it at the engine's pointer */
    int alphabet, cut, rule, normalize, max_digits, cfg, fuse, ignore_merges;
    bpe_model bpe;                        /* RULE_HF */
    bytemap ranks;                        /* RULE_TIKTOKEN: bytes -> rank; RULE_HF with ignore_merges: a token's UTF-8 -> id */
    segmenter *seg[2];                    /* optimal: every candidate, the reachable ones */
    pretoken_cache cache[MODES];
    bpe_scratch scratch;
    tiktoken_scratch tscratch;
    cpbuf text;                           /* a stretch after NFC */
    cpbuf stream;                         /* a stretch's pre-tokens, one after the other */
    offsets pretoken_ends;
    idbuf ids;                            /* the answer's ids */
    offsets id_ends;                      /* the answer's stretch ends */
    idbuf greedy;                         /* prefer-greedy: the greedy ids to compare */
    cpbuf symbols;                        /* a pre-token's UTF-8 bytes as symbols */
    uint8_t *utf8;
    size_t utf8_cap;
} engine;

engine *fk_engine_new(int alphabet, int cut, int rule, int normalize, int max_digits, int cfg, int fuse,
                      int ignore_merges, int cache_limit) {
    engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->alphabet = alphabet;
    e->cut = cut;
    e->rule = rule;
    e->normalize = normalize;
    e->max_digits = max_digits;
    e->cfg = cfg;
    e->fuse = fuse;
    e->ignore_merges = ignore_merges;
    bpe_model_init(&e->bpe);
    bytemap_init(&e->ranks);
    for (int m = 0; m < MODES; m++) pretoken_cache_init(&e->cache[m], (size_t)cache_limit);
    bpe_scratch_init(&e->scratch);
    tiktoken_scratch_init(&e->tscratch);
    cpbuf_init(&e->text);
    cpbuf_init(&e->stream);
    offsets_init(&e->pretoken_ends);
    cpbuf_init(&e->ids);
    offsets_init(&e->id_ends);
    cpbuf_init(&e->greedy);
    cpbuf_init(&e->symbols);
    return e;
}

void fk_engine_clear_caches(engine *e) {
    for (int m = 0; m < MODES; m++) {
        size_t limit = e->cache[m].limit;
        pretoken_cache_free(&e->cache[m]);
        pretoken_cache_init(&e->cache[m], limit);
    }
}

void fk_engine_free(engine *e) {
    if (!e) return;
    bpe_model_free(&e->bpe);
    bytemap_free(&e->ranks);
    for (int k = 0; k < 2; k++) segmenter_free(e->seg[k]);
    for (int m = 0; m < MODES; m++) pretoken_cache_free(&e->cache[m]);
    bpe_scratch_free(&e->scratch);
    tiktoken_scratch_free(&e->tscratch);
    cpbuf_free(&e->text);
    cpbuf_free(&e->stream);
    offsets_free(&e->pretoken_ends);
    cpbuf_free(&e->ids);
    offsets_free(&e->id_ends);
    cpbuf_free(&e->greedy);
    cpbuf_free(&e->symbols);
    free(e->utf8);
    free(e);
}

/* --- Loading: flat arrays the glue wrote, one call per table ------------------------------ */

/* The one-code-point tokens: pairs (code point, id). */
int fk_engine_chars(engine *e, const uint32_t *pairs, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (pairmap_put(&e->bpe.chars, pairs[2 * k], 0, pairs[2 * k + 1])) return FK_NO_MEMORY;
    return FK_OK;
}

/* The merges: quadruples (left id, right id, rank, new id), as the reference's Map holds them
 * (bpe.mjs's BPE.merges: a later duplicate of a pair already replaced the earlier one there). */
int fk_engine_merges(engine *e, const uint32_t *quads, size_t n) {
    for (size_t k = 0; k < n; k++) {
        uint64_t pair = (uint64_t)quads[4 * k] << 32 | quads[4 * k + 1];
        if (pairmap_put(&e->bpe.merges, pair, quads[4 * k + 2], quads[4 * k + 3])) return FK_NO_MEMORY;
    }
    return FK_OK;
}

/* The byte-fallback ids <0x00>..<0xFF> (has[b] 0 where the vocabulary lacks one). */
void fk_engine_bytes(engine *e, const uint32_t *ids, const uint8_t *has) {
    memcpy(e->bpe.bytes, ids, sizeof e->bpe.bytes);
    memcpy(e->bpe.has_byte, has, sizeof e->bpe.has_byte);
}

/* Byte strings and their ranks (tiktoken) or ids (a Hugging Face vocabulary's tokens in UTF-8,
 * for ignore_merges): the k-th key is keys[ends[k-1]:ends[k]]. */
int fk_engine_ranks(engine *e, const uint8_t *keys, const uint32_t *ends, const uint32_t *values, size_t n) {
    for (size_t k = 0, start = 0; k < n; start = ends[k++])
        if (bytemap_put(&e->ranks, keys + start, ends[k] - start, values[k])) return FK_NO_MEMORY;
    return FK_OK;
}

/* An optimal segmenter (reachable: 0 every candidate, 1 the reachable ones): the k-th candidate's
 * symbols are symbols[ends[k-1]:ends[k]], its id ids[k]; byte fallback when has_byte is not NULL. */
int fk_engine_segmenter(engine *e, int reachable, const uint32_t *symbols, const uint32_t *ends,
                        const uint32_t *ids, size_t n, const uint32_t *byte_ids, const uint8_t *has_byte) {
    segmenter *s = segmenter_new();
    if (!s) return FK_NO_MEMORY;
    for (size_t k = 0, start = 0; k < n; start = ends[k++]) {
        if (ends[k] == start) continue; /* the empty token is never a candidate of the DP */
        if (segmenter_add(s, symbols + start, ends[k] - start, ids[k])) { segmenter_free(s); return FK_NO_MEMORY; }
    }
    if (has_byte) segmenter_set_byte_fallback(s, byte_ids, has_byte);
    segmenter_free(e->seg[reachable != 0]);
    e->seg[reachable != 0] = s;
    return FK_OK;
}

/* --- One pre-token's ids ---------------------------------------------------------------- */

/* The UTF-8 of p[0:n] in e->utf8 (*len bytes); -1 when memory runs out. */
static int utf8_of(engine *e, const uint32_t *p, size_t n, size_t *len) {
    if (n > SIZE_MAX / 4) return -1;
    if (4 * n > e->utf8_cap) {
        uint8_t *bigger = realloc(e->utf8, 4 * n);
        if (!bigger) return -1;
        e->utf8 = bigger;
        e->utf8_cap = 4 * n;
    }
    uint8_t *out = e->utf8;
    size_t j = 0;
    for (size_t k = 0; k < n; k++) j += (size_t)utf8_encode(p[k], 1, out + j); /* a surrogate as surrogatepass writes it */
    *len = j;
    return 0;
}

/* Greedy: Hugging Face BPE (bpe.mjs's BPE.tokenize) or tiktoken's merge (TiktokenBPE.tokenize). */
static int greedy_ids(engine *e, const uint32_t *p, size_t n, idbuf *out) {
    if (n == 0) return FK_OK;
    if (e->rule == RULE_TIKTOKEN || e->ignore_merges) {
        size_t len, missing;
        if (utf8_of(e, p, n, &len)) return FK_NO_MEMORY;
        if (e->rule == RULE_TIKTOKEN) {
            int rc = tiktoken_piece(&e->ranks, &e->tscratch, e->utf8, len, out, &missing);
            return rc == -2 ? FK_ASK_REFERENCE : rc ? FK_NO_MEMORY : FK_OK;
        }
        uint32_t whole;
        if (bytemap_get(&e->ranks, e->utf8, len, &whole)) return cpbuf_push(out, whole) ? FK_NO_MEMORY : FK_OK;
    }
    return bpe_word(&e->bpe, &e->scratch, p, n, out) ? FK_NO_MEMORY : FK_OK;
}

/* Optimal (spec 10): the segmenter's ids over the pre-token's symbols (code points or bytes). */
static int optimal_ids(engine *e, const segmenter *s, const uint32_t *p, size_t n, idbuf *out) {
    if (n == 0) return FK_OK;
    const uint32_t *symbols = p;
    if (e->alphabet == ALPHABET_BYTES) {
        size_t len;
        if (utf8_of(e, p, n, &len) || cpbuf_reserve(&e->symbols, len)) return FK_NO_MEMORY;
        for (size_t k = 0; k < len; k++) e->symbols.data[k] = e->utf8[k];
        e->symbols.len = len;
        symbols = e->symbols.data;
        n = len;
    }
    size_t at;
    int rc = segment_word(s, symbols, n, out, &at);
    return rc == SEGMENT_OK ? FK_OK : rc == SEGMENT_NO_MEMORY ? FK_NO_MEMORY : FK_ASK_REFERENCE;
}

/* One pre-token's ids under mode, computed (no cache). */
static int compute_ids(engine *e, int mode, const uint32_t *p, size_t n, idbuf *out) {
    if (mode == MODE_GREEDY) return greedy_ids(e, p, n, out);
    const segmenter *s = e->seg[mode >= MODE_OPTIMAL_REACHABLE];
    if (!s) return FK_ASK_REFERENCE; /* the glue makes it before the first call in this mode */
    size_t from = out->len;
    int rc = optimal_ids(e, s, p, n, out);
    if (rc || mode == MODE_OPTIMAL || mode == MODE_OPTIMAL_REACHABLE) return rc;
    /* prefer-greedy: the greedy ids when they are as few (vocabulary.mjs's _computer) */
    e->greedy.len = 0;
    if ((rc = greedy_ids(e, p, n, &e->greedy))) return rc;
    if (e->greedy.len != out->len - from) return FK_OK;
    memcpy(out->data + from, e->greedy.data, e->greedy.len * sizeof *out->data);
    return FK_OK;
}

/* One pre-token's ids under mode, from the mode's cache or computed and cached. */
static int pretoken_ids(engine *e, int mode, const uint32_t *p, size_t n, idbuf *out) {
    size_t count;
    const uint32_t *cached = pretoken_cache_get(&e->cache[mode], p, n, &count);
    if (cached) return cpbuf_extend(out, cached, count) ? FK_NO_MEMORY : FK_OK;
    size_t from = out->len;
    int rc = compute_ids(e, mode, p, n, out);
    if (rc) return rc;
    return pretoken_cache_put(&e->cache[mode], p, n, out->data + from, out->len - from) ? FK_NO_MEMORY : FK_OK;
}

/* --- Cutting a stretch into pre-tokens ---------------------------------------------------- */

static size_t run_of(const uint32_t *s, size_t i, size_t n, int cls) {
    while (i < n && ucd_class(s[i]) == cls) i++;
    return i;
}

/* The end of GPT-2's piece at pos < n: js/src/tokenizer/gpt2.mjs's gpt2PieceEnd over code points,
 * the pattern 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+ over the
 * pinned classes of spec 3.2. */
static size_t gpt2_piece_end(const uint32_t *s, size_t pos, size_t n) {
    uint32_t c = s[pos];
    if (c == '\'' && pos + 1 < n) {
        uint32_t a = s[pos + 1], b = pos + 2 < n ? s[pos + 2] : 0;
        if (a == 's' || a == 't' || a == 'm' || a == 'd') return pos + 2;
        if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return pos + 3;
    }
    size_t start = pos;
    if (c == ' ' && pos + 1 < n && ucd_class(s[pos + 1]) != CLASS_W) start = pos + 1; /* the optional space */
    int cls = ucd_class(s[start]);
    if (start > pos || cls != CLASS_W) return run_of(s, start, n, cls);
    size_t e = run_of(s, pos, n, CLASS_W); /* \s+(?!\S) gives back the last one; else \s+ */
    if (e == n) return e;
    return e - 1 > pos ? e - 1 : e;
}

/* The ids of one stretch (text between special tokens, or one given pre-token) appended to e->ids. */
static int encode_stretch(engine *e, const uint32_t *text, size_t n, int mode, int given) {
    if (given || e->cut == CUT_GIVEN) return pretoken_ids(e, mode, text, n, &e->ids);
    /* room for what the stretch makes, at once: a long text's buffers otherwise grow by doubling,
     * and each realloc copies (a tenth of a cold 1 MB call's time in the NFC buffer alone) */
    if (cpbuf_reserve(&e->ids, n / 2)) return FK_NO_MEMORY;
    if (e->normalize) {
        e->text.len = 0;
        if (cpbuf_reserve(&e->text, n)) return FK_NO_MEMORY;
        int stable = nfc(text, n, &e->text);
        if (stable < 0) return FK_NO_MEMORY;
        if (!stable) { text = e->text.data; n = e->text.len; }
    }
    int rc = FK_OK;
    if (e->cut == CUT_CODEC) {
        e->stream.len = e->pretoken_ends.len = 0;
        if (cpbuf_reserve(&e->stream, n + n / 8)) return FK_NO_MEMORY;
        if (pretokens(text, n, e->max_digits, e->cfg, e->fuse, &e->stream, &e->pretoken_ends)) return FK_NO_MEMORY;
        for (size_t k = 0, start = 0; !rc && k < e->pretoken_ends.len; start = e->pretoken_ends.data[k++])
            rc = pretoken_ids(e, mode, e->stream.data + start, e->pretoken_ends.data[k] - start, &e->ids);
        return rc;
    }
    for (size_t pos = 0, end; !rc && pos < n; pos = end) {
        end = e->cut == CUT_GPT2 ? gpt2_piece_end(text, pos, n) : piece_end(text, pos, n, e->max_digits);
        rc = pretoken_ids(e, mode, text + pos, end - pos, &e->ids);
    }
    return rc;
}

/* Give back what one large call left in a buffer the engine keeps. */
static void trim(engine *e) {
    if (e->text.cap > KEEP_LIMIT) cpbuf_free(&e->text);
    if (e->stream.cap > KEEP_LIMIT) cpbuf_free(&e->stream);
    if (e->pretoken_ends.cap > KEEP_LIMIT) offsets_free(&e->pretoken_ends);
    if (e->ids.cap > KEEP_LIMIT) cpbuf_free(&e->ids);
    if (e->id_ends.cap > KEEP_LIMIT) offsets_free(&e->id_ends);
    if (e->greedy.cap > KEEP_LIMIT) cpbuf_free(&e->greedy);
    if (e->symbols.cap > KEEP_LIMIT) cpbuf_free(&e->symbols);
    if (e->utf8_cap > 4 * KEEP_LIMIT) { free(e->utf8); e->utf8 = NULL; e->utf8_cap = 0; }
    if (e->scratch.cap > KEEP_LIMIT || e->scratch.symbols.cap > KEEP_LIMIT || e->scratch.queue_cap > KEEP_LIMIT)
        bpe_scratch_free(&e->scratch);
    if (e->tscratch.cap > KEEP_LIMIT || e->tscratch.queue_cap > KEEP_LIMIT) tiktoken_scratch_free(&e->tscratch);
}

/* Encode n code units of `width` (UTF8 or UTF16) under mode: stretches ending at the UTF-16
 * offsets stretch_ends[0:n_stretches] (none: the whole text is one stretch), each encoded on its
 * own (given: each stretch is one pre-token, cut by the glue). The ids and where each stretch's
 * end are in the answer when the call returns FK_OK. */
int fk_engine_encode(engine *e, const void *input, size_t n, int width, const uint32_t *stretch_ends,
                     size_t n_stretches, int mode, int given) {
    if (mode < 0 || mode >= MODES) return FK_ASK_REFERENCE;
    trim(e);
    /* what a long call's buffers take at most (code points, NFC, pre-tokens and their ends, 4
     * bytes each per unit, and the ids), in one memory.grow rather than many (alloc.c); only a
     * hint: the call goes on without it */
    if (n > RESERVE_FROM && n < SIZE_MAX / 18) (void)heap_reserve(18 * n);
    e->ids.len = e->id_ends.len = 0;
    e->answer = (engine_answer){0};
    uint32_t *cps;
    size_t count;
    int rc = to_code_points(input, n, width, 0, &cps, &count);
    if (rc) return rc;
    size_t start = 0;
    if (n_stretches == 0) {
        rc = encode_stretch(e, cps, count, mode, given);
        if (!rc && offsets_push(&e->id_ends, e->ids.len)) rc = FK_NO_MEMORY;
    }
    /* UTF-16 ends to code point ends, one pass over both */
    for (size_t k = 0, at = 0, units = 0; !rc && k < n_stretches; k++) {
        while (at < count && units < stretch_ends[k]) units += cps[at++] >= 0x10000 ? 2 : 1;
        rc = encode_stretch(e, cps + start, at - start, mode, given);
        if (!rc && offsets_push(&e->id_ends, e->ids.len)) rc = FK_NO_MEMORY;
        start = at;
    }
    free(cps);
    if (rc) return rc;
    e->answer = (engine_answer){e->ids.data, e->ids.len, e->id_ends.data, e->id_ends.len};
    return FK_OK;
}

/* --- Decoding ids (spec 14.6): detokenize.c's fast road ---------------------------------- */

/* A tokenizer's ids, count of them: what each stands for (TOKEN_* of core.h), its byte, and its
 * text (a token or a special token's) as UTF-16 units text[ends[id-1]:ends[id]]. */
token_table *fk_table_new(const uint16_t *text, size_t n_units, const uint32_t *ends, const uint8_t *kinds,
                          const uint8_t *bytes, size_t count) {
    token_table *t = malloc(sizeof *t);
    uint32_t *cps = NULL;
    size_t n_cps;
    if (!t) return NULL;
    if (token_table_init(t, count) || to_code_points(text, n_units, UTF16, 1, &cps, &n_cps)) goto fail;
    for (size_t id = 0, units = 0, at = 0; id < count; id++) {
        size_t from = at;
        while (units < ends[id]) units += cps[at++] >= 0x10000 ? 2 : 1;
        if (kinds[id] != TOKEN_UNKNOWN && token_table_set(t, id, kinds[id], cps + from, at - from, bytes[id])) goto fail;
    }
    free(cps);
    return t;
fail:
    free(cps);
    token_table_free(t);
    free(t);
    return NULL;
}

void fk_table_free(token_table *t) {
    if (t) token_table_free(t);
    free(t);
}

/* The text of ids[0:n] into answer.units: FK_OK; FK_ASK_REFERENCE where detokenize.c has a
 * question (an unknown id, bytes that are not UTF-8, a strict format error). */
int fk_table_decode(const token_table *t, const uint32_t *ids, size_t n, int strict, int skip_special,
                    uint64_t max_output) {
    fk_answer_free();
    uint64_t *wide = malloc((n ? n : 1) * sizeof *wide);
    if (!wide) return FK_NO_MEMORY;
    for (size_t k = 0; k < n; k++) wide[k] = ids[k];
    cpbuf out;
    cpbuf_init(&out);
    int rc = detokenize(t, wide, n, strict, skip_special, max_output, &out);
    free(wide);
    rc = rc < 0 ? FK_NO_MEMORY : rc == 0 ? FK_ASK_REFERENCE : units_in_place(&out);
    cpbuf_free(&out);
    return rc;
}
