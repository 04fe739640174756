/* Greedy BPE (spec 14.5): Hugging Face tokenizers' merge rule, as python/functok/tokenizer/bpe.py
 * ports it (BPE: Word::merge_all, with its priority queue and its check for stale entries), so
 * that vocabularies where several merges make the same token still give identical ids. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define NONE UINT32_MAX /* no symbol: the end of the linked list */

/* A queued merge: the pair at `pos` (and the symbol after it) makes `value`, merge index `rank`.
 * The queue pops the lowest (rank, pos, value), as Python's heapq does with these tuples. */
struct bpe_queued {
    uint32_t rank, pos, value;
};

void bpe_model_init(bpe_model *m) {
    pairmap_init(&m->chars);
    pairmap_init(&m->merges);
    memset(m->bytes, 0, sizeof m->bytes);
    memset(m->has_byte, 0, sizeof m->has_byte);
}

void bpe_model_free(bpe_model *m) {
    pairmap_free(&m->chars);
    pairmap_free(&m->merges);
}

void bpe_scratch_init(bpe_scratch *s) {
    cpbuf_init(&s->symbols);
    s->next = s->prev = NULL;
    s->alive = NULL;
    s->queue = NULL;
    s->cap = s->queue_cap = 0;
}

void bpe_scratch_free(bpe_scratch *s) {
    cpbuf_free(&s->symbols);
    core_free(s->next);
    core_free(s->prev);
    core_free(s->alive);
    core_free(s->queue);
    bpe_scratch_init(s);
}

/* Resizes *p to `count` items of `size` bytes (core_realloc_array); -1, *p unchanged, on failure. */
static int resize(void **p, size_t count, size_t size) {
    void *q = core_realloc_array(*p, count, size);
    if (!q) return -1;
    *p = q;
    return 0;
}

/* The linked list's room for n symbols, and the queue's for n entries (it grows if need be). */
static int scratch_reserve(bpe_scratch *s, size_t n) {
    if (n >= NONE) return -1; /* positions are uint32_t */
    if (n > s->cap) {
        size_t cap = n < 64 ? 64 : n;
        if (resize((void **)&s->next, cap, sizeof(uint32_t)) || resize((void **)&s->prev, cap, sizeof(uint32_t)) ||
            resize((void **)&s->alive, cap, 1))
            return -1;
        s->cap = cap;
    }
    if (n > s->queue_cap) {
        if (resize((void **)&s->queue, n, sizeof(struct bpe_queued))) return -1;
        s->queue_cap = n;
    }
    return 0;
}

static int before(const struct bpe_queued *a, const struct bpe_queued *b) {
    if (a->rank != b->rank) return a->rank < b->rank;
    if (a->pos != b->pos) return a->pos < b->pos;
    return a->value < b->value;
}

/* Move q[at] down to its place in the heap q[0:n]. */
static void sift_down(struct bpe_queued *q, size_t n, size_t at) {
    struct bpe_queued item = q[at];
    for (;;) {
        size_t child = 2 * at + 1;
        if (child >= n) break;
        if (child + 1 < n && before(&q[child + 1], &q[child])) child++;
        if (!before(&q[child], &item)) break;
        q[at] = q[child];
        at = child;
    }
    q[at] = item;
}

/* Push onto the heap (*queue)[0:*len], growing it: there are fewer than 3 entries a symbol
 * (n - 1 pairs at first, then at most 2 a merge), so it rarely grows. */
static int queue_push(struct bpe_queued **queue, size_t *cap, size_t *len, struct bpe_queued item) {
    if (core_grow((void **)queue, cap, *len + 1, sizeof(struct bpe_queued), 64)) return -1;
    struct bpe_queued *q = *queue;
    size_t at = (*len)++;
    while (at > 0) {
        size_t parent = (at - 1) / 2;
        if (!before(&item, &q[parent])) break;
        q[at] = q[parent];
        at = parent;
    }
    q[at] = item;
    return 0;
}

static struct bpe_queued queue_pop(struct bpe_queued *q, size_t *len) {
    struct bpe_queued top = q[0];
    q[0] = q[--*len];
    if (*len) sift_down(q, *len, 0);
    return top;
}

static const pair_entry *merge_of(const bpe_model *m, uint32_t left, uint32_t right) {
    return pairmap_get(&m->merges, ((uint64_t)left << 32) | right);
}

/* One symbol per code point, as BPE::merge_word builds the word: its token, or the byte
 * tokens of its UTF-8 (none when a byte token is missing, as bpe.py's _fallback gives). */
static int word_symbols(const bpe_model *m, const uint32_t *word, size_t n, idbuf *out) {
    out->len = 0;
    if (cpbuf_reserve(out, n)) return -1;
    for (size_t k = 0; k < n; k++) {
        const pair_entry *known = pairmap_get(&m->chars, word[k]);
        if (known) {
            if (cpbuf_push(out, known->value)) return -1;
            continue;
        }
        uint32_t cp = word[k];
        uint8_t utf8[4];
        size_t len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (len == 1) utf8[0] = (uint8_t)cp;
        else {
            for (size_t b = len - 1; b > 0; b--) { utf8[b] = (uint8_t)(0x80 | (cp & 0x3F)); cp >>= 6; }
            utf8[0] = (uint8_t)((0xF00 >> len) | cp); /* 0xC0, 0xE0 or 0xF0, and the high bits */
        }
        int all = 1;
        for (size_t b = 0; b < len; b++) all &= m->has_byte[utf8[b]];
        for (size_t b = 0; all && b < len; b++)
            if (cpbuf_push(out, m->bytes[utf8[b]])) return -1;
    }
    return 0;
}

int bpe_word(const bpe_model *m, bpe_scratch *s, const uint32_t *word, size_t n, idbuf *out) {
    if (word_symbols(m, word, n, &s->symbols)) return -1;
    size_t count = s->symbols.len, queued = 0;
    if (scratch_reserve(s, count)) return -1;
    uint32_t *sym = s->symbols.data, *next = s->next, *prev = s->prev;
    uint8_t *alive = s->alive;
    for (size_t pos = 0; pos + 1 < count; pos++) {
        const pair_entry *e = merge_of(m, sym[pos], sym[pos + 1]);
        if (e) s->queue[queued++] = (struct bpe_queued){e->rank, (uint32_t)pos, e->value};
    }
    if (!queued) return cpbuf_extend(out, sym, count);
    for (size_t k = queued / 2; k-- > 0;) sift_down(s->queue, queued, k); /* heapify */
    for (size_t k = 0; k < count; k++) {
        next[k] = k + 1 < count ? (uint32_t)(k + 1) : NONE;
        prev[k] = k ? (uint32_t)(k - 1) : NONE;
        alive[k] = 1;
    }
    while (queued) {
        struct bpe_queued top = queue_pop(s->queue, &queued);
        uint32_t pos = top.pos, right = next[pos];
        if (!alive[pos] || right == NONE) continue;
        const pair_entry *e = merge_of(m, sym[pos], sym[right]);
        if (!e || e->value != top.value) continue; /* a stale entry */
        sym[pos] = top.value;
        alive[right] = 0;
        uint32_t after = next[right], ahead = prev[pos];
        next[pos] = after;
        if (after != NONE) prev[after] = pos;
        if (ahead != NONE && (e = merge_of(m, sym[ahead], top.value)) &&
            queue_push(&s->queue, &s->queue_cap, &queued, (struct bpe_queued){e->rank, ahead, e->value}))
            return -1;
        if (after != NONE && (e = merge_of(m, top.value, sym[after])) &&
            queue_push(&s->queue, &s->queue_cap, &queued, (struct bpe_queued){e->rank, pos, e->value}))
            return -1;
    }
    for (uint32_t k = 0; k != NONE; k = next[k]) /* symbol 0 is never merged away */
        if (cpbuf_push(out, sym[k])) return -1;
    return 0;
}

/* --- tiktoken's rule (bpe.py's TiktokenBPE, a port of tiktoken's _byte_pair_merge) ------------ */

#define NEVER UINT64_MAX /* no rank: the joined bytes are not a token */

void tiktoken_scratch_init(tiktoken_scratch *s) {
    s->next = s->prev = NULL;
    s->rank = NULL;
    s->queue = NULL;
    s->cap = s->queue_cap = 0;
}

void tiktoken_scratch_free(tiktoken_scratch *s) {
    core_free(s->next);
    core_free(s->prev);
    core_free(s->rank);
    core_free(s->queue);
    tiktoken_scratch_init(s);
}

static uint64_t rank_of(const bytemap *ranks, const uint8_t *bytes, size_t n) {
    uint32_t rank;
    return bytemap_get(ranks, bytes, n, &rank) ? rank : NEVER;
}

/* tiktoken scans for the lowest rank, leftmost first, after each merge (quadratic on a long
 * piece); a queue of (rank, first byte) pops the same pair in n log n. An entry is stale when its
 * part is gone or its rank is no longer the part's. */
int tiktoken_piece(const bytemap *ranks, tiktoken_scratch *s, const uint8_t *piece, size_t n, idbuf *out,
                   size_t *missing_at) {
    uint32_t whole;
    if (bytemap_get(ranks, piece, n, &whole)) return cpbuf_push(out, whole); /* a token: itself */
    if (n == 0) return 0;
    if (n >= NONE) return -1;
    if (n > s->cap) {
        if (resize((void **)&s->next, n, sizeof(uint32_t)) || resize((void **)&s->prev, n, sizeof(uint32_t)) ||
            resize((void **)&s->rank, n, sizeof(uint64_t)))
            return -1;
        s->cap = n;
    }
    uint32_t *next = s->next, *prev = s->prev;
    uint64_t *rank = s->rank;
    size_t queued = 0;
    for (size_t k = 0; k < n; k++) {
        next[k] = k + 1 < n ? (uint32_t)(k + 1) : NONE;
        prev[k] = k ? (uint32_t)(k - 1) : NONE;
        rank[k] = k + 1 < n ? rank_of(ranks, piece + k, 2) : NEVER;
        if (rank[k] != NEVER && queue_push(&s->queue, &s->queue_cap, &queued, (struct bpe_queued){(uint32_t)rank[k], (uint32_t)k, 0}))
            return -1;
    }
    while (queued) {
        struct bpe_queued top = queue_pop(s->queue, &queued);
        uint32_t k = top.pos;
        if (rank[k] != top.rank) continue; /* stale: the part is gone (NEVER) or its pair changed */
        uint32_t joined = next[k], after = next[joined];
        next[k] = after;
        if (after != NONE) prev[after] = k;
        rank[joined] = NEVER;
        size_t end = after == NONE ? n : after;
        rank[k] = after == NONE ? NEVER : rank_of(ranks, piece + k, (next[after] == NONE ? n : next[after]) - k);
        if (rank[k] != NEVER && queue_push(&s->queue, &s->queue_cap, &queued, (struct bpe_queued){(uint32_t)rank[k], k, 0}))
            return -1;
        uint32_t p = prev[k];
        if (p != NONE) {
            rank[p] = rank_of(ranks, piece + p, end - p);
            if (rank[p] != NEVER && queue_push(&s->queue, &s->queue_cap, &queued, (struct bpe_queued){(uint32_t)rank[p], p, 0}))
                return -1;
        }
    }
    for (uint32_t k = 0; k != NONE; k = next[k]) {
        size_t end = next[k] == NONE ? n : next[k];
        uint32_t id;
        if (!bytemap_get(ranks, piece + k, end - k, &id)) { *missing_at = k; return -2; }
        if (cpbuf_push(out, id)) return -1;
    }
    return 0;
}
