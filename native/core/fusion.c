/* Training's fusion merges (fuse "frequent", spec 9.4): the procedure of
 * python/functok/tokenizer/fusion.py's fusion_merges, on a compact form of the chains, with the
 * same result for the same input, merge for merge.
 *
 * Each distinct chain is a linked list of symbols (token ids) with, per symbol, its owner (the
 * piece whose text it holds, FUSION_INSTRUCTION or FUSION_UNMERGEABLE) and whether a segment
 * boundary lies between it and the next one. Pair counts live in a hash table, each pair with the
 * list of chains that held it when it was counted; a heap orders the pairs by count (most
 * frequent first), ties by the pair's token strings (the smaller first, in code point order, as
 * Python compares str). An entry of the heap whose count is no longer its pair's is stale and
 * skipped, as in the reference. Time: each merge visits the chains that held its pair; memory: a
 * few dozen bytes per symbol and per distinct pair. */
#include <string.h>

#include "core.h"
#include "training.h"

enum { FUSION_INSTRUCTION = -1, FUSION_UNMERGEABLE = -2 };
#define NONE UINT32_MAX

/* Grows *data (of *cap items of size) to hold need items; -1 when it cannot. */
static int grow(void *data, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t bigger = *cap ? *cap : 64;
    while (bigger < need) {
        if (bigger > SIZE_MAX / 2 / size) return -1;
        bigger *= 2;
    }
    void *more = core_realloc(*(void **)data, bigger * size);
    if (!more) return -1;
    *(void **)data = more;
    *cap = bigger;
    return 0;
}

static uint64_t mix(uint64_t h) { /* murmur3's finalizer */
    h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdu;
    h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53u;
    return h ^ (h >> 33);
}

typedef struct {
    uint64_t count, before; /* before: the count when this merge step first changed it */
    uint32_t a, b, step, where; /* where: the head of its chains' list (an index + 1), or 0 */
} pair;

typedef struct {
    uint64_t count;
    uint32_t pair;
} heap_entry;

typedef struct {
    uint32_t chain, next; /* next: an index + 1, or 0 */
} note;

typedef struct {
    uint64_t seed;
    /* tokens: their code points, text.data[ends[i-1]:ends[i]], and a table from text to id */
    cpbuf text;
    size_t *ends, ntokens, ends_cap;
    uint32_t *token_slots;
    size_t token_slot_count;
    /* symbols: one array each, linked per chain by next */
    uint32_t *sym, *next;
    int32_t *owner;
    uint8_t *cross;
    uint32_t *first;
    const uint64_t *n;
    size_t nchains;
    /* pairs */
    pair *pairs;
    size_t npairs, pairs_cap;
    uint32_t *pair_slots;
    size_t pair_slot_count;
    note *notes;
    size_t nnotes, notes_cap;
    heap_entry *heap;
    size_t nheap, heap_cap;
    uint32_t *touched;
    size_t ntouched, touched_cap;
    uint32_t step;
    int overflow;
} fusion_state;

/* --- tokens ------------------------------------------------------------------------------- */

static const uint32_t *token_text(const fusion_state *s, uint32_t id, size_t *len) {
    size_t start = id ? s->ends[id - 1] : 0;
    *len = s->ends[id] - start;
    return s->text.data + start;
}

static uint64_t text_hash(uint64_t seed, const uint32_t *cps, size_t n) {
    uint64_t h = seed ^ 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < n; i++) h = mix(h ^ cps[i]);
    return mix(h ^ n);
}

/* Rebuilds the token table at the least power of two (1024 at least) that holds twice the tokens. */
static int rehash_tokens(fusion_state *s) {
    size_t size = 1024;
    while (size < 2 * s->ntokens + 2)
        if ((size *= 2) > SIZE_MAX / sizeof(uint32_t)) return -1;
    uint32_t *slots = core_realloc(NULL, size * sizeof *slots);
    if (!slots) return -1;
    memset(slots, 0, size * sizeof *slots);
    for (size_t id = 0; id < s->ntokens; id++) {
        size_t len;
        const uint32_t *cps = token_text(s, (uint32_t)id, &len);
        size_t at = (size_t)text_hash(s->seed, cps, len) & (size - 1);
        while (slots[at]) at = (at + 1) & (size - 1);
        slots[at] = (uint32_t)id + 1;
    }
    core_free(s->token_slots);
    s->token_slots = slots;
    s->token_slot_count = size;
    return 0;
}

/* The id of the token a + b (the text of both), added when new; -1 when out of room. */
static int64_t joined_token(fusion_state *s, uint32_t a, uint32_t b) {
    size_t la, lb;
    token_text(s, a, &la);
    token_text(s, b, &lb);
    if (cpbuf_reserve(&s->text, la + lb)) return -1;
    /* the joined text is written past the end first; kept only when it is new */
    const uint32_t *ta = token_text(s, a, &la), *tb = token_text(s, b, &lb);
    uint32_t *joined = s->text.data + s->text.len;
    memcpy(joined, ta, la * sizeof *joined);
    memcpy(joined + la, tb, lb * sizeof *joined);
    size_t n = la + lb;
    uint64_t h = text_hash(s->seed, joined, n);
    size_t at = (size_t)h & (s->token_slot_count - 1);
    for (; s->token_slots[at]; at = (at + 1) & (s->token_slot_count - 1)) {
        size_t len;
        const uint32_t *cps = token_text(s, s->token_slots[at] - 1, &len);
        if (len == n && !memcmp(cps, joined, n * sizeof *cps)) return s->token_slots[at] - 1;
    }
    if (s->ntokens >= NONE - 1) s->overflow = 1;
    if (s->ntokens >= NONE - 1 || grow(&s->ends, &s->ends_cap, s->ntokens + 1, sizeof *s->ends)) return -1;
    s->text.len += n;
    s->ends[s->ntokens] = s->text.len;
    s->token_slots[at] = (uint32_t)++s->ntokens;
    if (2 * s->ntokens > s->token_slot_count && rehash_tokens(s)) return -1;
    return (int64_t)s->ntokens - 1;
}

/* Python's order of str: code point by code point, a prefix first. */
static int compare_tokens(const fusion_state *s, uint32_t x, uint32_t y) {
    size_t lx, ly;
    const uint32_t *tx = token_text(s, x, &lx), *ty = token_text(s, y, &ly);
    for (size_t i = 0; i < lx && i < ly; i++)
        if (tx[i] != ty[i]) return tx[i] < ty[i] ? -1 : 1;
    return lx < ly ? -1 : lx > ly;
}

/* --- pairs and their heap ------------------------------------------------------------------ */

static size_t pair_hash(const fusion_state *s, uint32_t a, uint32_t b) {
    return (size_t)mix(s->seed ^ mix(((uint64_t)a << 32 | b) + 0x9e3779b97f4a7c15u));
}

static int rehash_pairs(fusion_state *s) {
    size_t size = s->pair_slot_count ? s->pair_slot_count * 2 : 1024;
    if (size > SIZE_MAX / sizeof(uint32_t)) return -1;
    uint32_t *slots = core_realloc(NULL, size * sizeof *slots);
    if (!slots) return -1;
    memset(slots, 0, size * sizeof *slots);
    for (size_t p = 0; p < s->npairs; p++) {
        size_t at = pair_hash(s, s->pairs[p].a, s->pairs[p].b) & (size - 1);
        while (slots[at]) at = (at + 1) & (size - 1);
        slots[at] = (uint32_t)p + 1;
    }
    core_free(s->pair_slots);
    s->pair_slots = slots;
    s->pair_slot_count = size;
    return 0;
}

/* The index of pair (a, b), added with count 0 when new; -1 when out of room. */
static int64_t pair_of(fusion_state *s, uint32_t a, uint32_t b) {
    size_t at = pair_hash(s, a, b) & (s->pair_slot_count - 1);
    for (; s->pair_slots[at]; at = (at + 1) & (s->pair_slot_count - 1)) {
        const pair *p = &s->pairs[s->pair_slots[at] - 1];
        if (p->a == a && p->b == b) return s->pair_slots[at] - 1;
    }
    if (s->npairs >= NONE - 1) s->overflow = 1;
    if (s->npairs >= NONE - 1 || grow(&s->pairs, &s->pairs_cap, s->npairs + 1, sizeof *s->pairs)) return -1;
    s->pairs[s->npairs] = (pair){0, 0, a, b, 0, 0};
    s->pair_slots[at] = (uint32_t)++s->npairs;
    if (2 * s->npairs > s->pair_slot_count && rehash_pairs(s)) return -1;
    return (int64_t)s->npairs - 1;
}

/* Whether heap entry x comes out before y: the larger count, then the smaller pair of strings. */
static int before(const fusion_state *s, heap_entry x, heap_entry y) {
    if (x.count != y.count) return x.count > y.count;
    const pair *p = &s->pairs[x.pair], *q = &s->pairs[y.pair];
    int c = p->a == q->a ? 0 : compare_tokens(s, p->a, q->a);
    if (!c) c = p->b == q->b ? 0 : compare_tokens(s, p->b, q->b);
    return c < 0;
}

static int heap_push(fusion_state *s, uint32_t p) {
    if (grow(&s->heap, &s->heap_cap, s->nheap + 1, sizeof *s->heap)) return -1;
    heap_entry e = {s->pairs[p].count, p};
    size_t i = s->nheap++;
    while (i && before(s, e, s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = e;
    return 0;
}

static heap_entry heap_pop(fusion_state *s) {
    heap_entry top = s->heap[0], last = s->heap[--s->nheap];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= s->nheap) break;
        if (child + 1 < s->nheap && before(s, s->heap[child + 1], s->heap[child])) child++;
        if (!before(s, s->heap[child], last)) break;
        s->heap[i] = s->heap[child];
        i = child;
    }
    if (s->nheap) s->heap[i] = last;
    return top;
}

/* Lists chain k under pair p, unless it was the last listed (the reference's _note). */
static int note_chain(fusion_state *s, uint32_t p, uint32_t k) {
    uint32_t head = s->pairs[p].where;
    if (head && s->notes[head - 1].chain == k) return 0;
    if (s->nnotes >= NONE - 1) s->overflow = 1;
    if (s->nnotes >= NONE - 1 || grow(&s->notes, &s->notes_cap, s->nnotes + 1, sizeof *s->notes)) return -1;
    s->notes[s->nnotes++] = (note){k, head};
    s->pairs[p].where = (uint32_t)s->nnotes;
    return 0;
}

/* Moves the count of pair (a, b) by delta times n, noting chain k under it when it gains; the
 * pair is remembered as touched by this step. -1 when out of room or past 64 bits. */
static int change(fusion_state *s, uint32_t a, uint32_t b, uint64_t n, int gain, uint32_t k) {
    int64_t found = pair_of(s, a, b);
    if (found < 0) return -1;
    pair *p = &s->pairs[found];
    if (p->step != s->step) {
        if (grow(&s->touched, &s->touched_cap, s->ntouched + 1, sizeof *s->touched)) return -1;
        s->touched[s->ntouched++] = (uint32_t)found;
        p->step = s->step;
        p->before = p->count;
    }
    if (gain) {
        if (p->count > UINT64_MAX - n) {
            s->overflow = 1;
            return -1;
        }
        p->count += n;
        return note_chain(s, (uint32_t)found, k);
    }
    p->count = p->count >= n ? p->count - n : 0; /* never below: every loss was counted before */
    return 0;
}

/* --- the chains --------------------------------------------------------------------------- */

static int legal(const fusion_state *s, uint32_t x) {
    uint32_t y = s->next[x];
    int32_t a = s->owner[x], b = s->owner[y];
    return s->cross[x] && a != FUSION_UNMERGEABLE && b != FUSION_UNMERGEABLE && (a < 0 || b < 0 || a == b);
}

/* Applies merge (a, b) -> ab to chain k, left to right (the reference's _Word.merge). */
static int merge_chain(fusion_state *s, uint32_t k, uint32_t a, uint32_t b, uint32_t ab) {
    uint64_t n = s->n[k];
    uint32_t prev = NONE;
    for (uint32_t x = s->first[k]; x != NONE && s->next[x] != NONE; prev = x, x = s->next[x]) {
        uint32_t y = s->next[x];
        if (s->sym[x] != a || s->sym[y] != b || !legal(s, x)) continue;
        uint32_t z = s->next[y];
        if (prev != NONE && legal(s, prev) && change(s, s->sym[prev], a, n, 0, k)) return -1;
        if (z != NONE && legal(s, y) && change(s, b, s->sym[z], n, 0, k)) return -1;
        if (change(s, a, b, n, 0, k)) return -1;
        s->sym[x] = ab;
        if (s->owner[y] > s->owner[x]) s->owner[x] = s->owner[y];
        s->cross[x] = s->cross[y];
        s->next[x] = z;
        if (prev != NONE && legal(s, prev) && change(s, s->sym[prev], ab, n, 1, k)) return -1;
        if (z != NONE && legal(s, x) && change(s, ab, s->sym[z], n, 1, k)) return -1;
    }
    return 0;
}

/* Lays out each chain's symbols (its segments' tokens) and counts its legal pairs. */
static int build_chains(fusion_state *s, const fusion_input *in) {
    size_t total = 0;
    for (size_t k = 0; k < in->nchains; k++)
        for (int64_t j = in->chain_starts[k]; j < in->chain_starts[k + 1]; j++) {
            int32_t seg = in->chain_segments[j];
            total += (size_t)(in->segment_starts[seg + 1] - in->segment_starts[seg]);
            if (total >= NONE) { /* a symbol's index is 32 bits */
                s->overflow = 1;
                return -1;
            }
        }
    s->sym = core_realloc(NULL, (total ? total : 1) * sizeof *s->sym);
    s->next = core_realloc(NULL, (total ? total : 1) * sizeof *s->next);
    s->owner = core_realloc(NULL, (total ? total : 1) * sizeof *s->owner);
    s->cross = core_realloc(NULL, total ? total : 1);
    s->first = core_realloc(NULL, (in->nchains ? in->nchains : 1) * sizeof *s->first);
    if (!s->sym || !s->next || !s->owner || !s->cross || !s->first) return -1;
    uint32_t at = 0;
    for (size_t k = 0; k < in->nchains; k++) {
        s->first[k] = NONE;
        int32_t piece = 0;
        for (int64_t j = in->chain_starts[k]; j < in->chain_starts[k + 1]; j++) {
            int32_t seg = in->chain_segments[j];
            int instruction = in->instruction[seg];
            if (!instruction) piece++;
            for (int64_t t = in->segment_starts[seg]; t < in->segment_starts[seg + 1]; t++) {
                uint32_t token = (uint32_t)in->segment_tokens[t];
                if (s->first[k] == NONE) s->first[k] = at;
                else {
                    s->next[at - 1] = at;
                    s->cross[at - 1] = t == in->segment_starts[seg];
                }
                s->sym[at] = token;
                s->owner[at] = in->unmergeable[token] ? FUSION_UNMERGEABLE : instruction ? FUSION_INSTRUCTION : piece;
                s->next[at] = NONE;
                s->cross[at] = 0;
                at++;
            }
        }
        for (uint32_t x = s->first[k]; x != NONE && s->next[x] != NONE; x = s->next[x])
            if (legal(s, x) && change(s, s->sym[x], s->sym[s->next[x]], s->n[k], 1, (uint32_t)k)) return -1;
    }
    return 0;
}

/* Checks the input's indices (every one in range, every run in order); 0 when they hold. */
static int valid_input(const fusion_input *in) {
    if (in->ntokens >= NONE - 1 || in->nchains >= NONE || in->nsegments >= (size_t)INT32_MAX) return 0;
    for (size_t i = 0; i < in->ntokens; i++)
        if (in->token_ends[i] < (i ? in->token_ends[i - 1] : 0)) return 0;
    if (in->segment_starts[0] != 0) return 0;
    for (size_t i = 0; i < in->nsegments; i++)
        if (in->segment_starts[i + 1] < in->segment_starts[i]) return 0;
    for (int64_t t = 0; t < in->segment_starts[in->nsegments]; t++)
        if (in->segment_tokens[t] < 0 || (size_t)in->segment_tokens[t] >= in->ntokens) return 0;
    if (in->chain_starts[0] != 0) return 0;
    for (size_t k = 0; k < in->nchains; k++)
        if (in->chain_starts[k + 1] < in->chain_starts[k] || in->counts[k] == 0) return 0;
    for (int64_t j = 0; j < in->chain_starts[in->nchains]; j++)
        if (in->chain_segments[j] < 0 || (size_t)in->chain_segments[j] >= in->nsegments) return 0;
    return 1;
}

static void state_free(fusion_state *s) {
    core_free(s->ends);
    core_free(s->token_slots);
    core_free(s->sym);
    core_free(s->next);
    core_free(s->owner);
    core_free(s->cross);
    core_free(s->first);
    core_free(s->pairs);
    core_free(s->pair_slots);
    core_free(s->notes);
    core_free(s->heap);
    core_free(s->touched);
}

/* Ends the merge step: each pair it changed goes back on the heap with its new count (or, down to
 * 0, stays off it), as the reference pushes each pair of its `changed`. */
static int end_step(fusion_state *s) {
    for (size_t i = 0; i < s->ntouched; i++) {
        pair *p = &s->pairs[s->touched[i]];
        if (p->count != p->before && p->count > 0 && heap_push(s, s->touched[i])) return -1;
    }
    s->ntouched = 0;
    return 0;
}

static int run(fusion_state *s, const fusion_input *in, size_t limit, uint64_t min_count, fusion_result *out) {
    s->n = in->counts;
    s->nchains = in->nchains;
    if (cpbuf_extend(&s->text, in->text, in->ntokens ? in->token_ends[in->ntokens - 1] : 0)) return -1;
    if (grow(&s->ends, &s->ends_cap, in->ntokens ? in->ntokens : 1, sizeof *s->ends)) return -1;
    memcpy(s->ends, in->token_ends, in->ntokens * sizeof *s->ends);
    s->ntokens = in->ntokens;
    if (rehash_tokens(s)) return -1;
    if (rehash_pairs(s) || build_chains(s, in)) return -1;
    for (size_t p = 0; p < s->npairs; p++)
        if (s->pairs[p].count && heap_push(s, (uint32_t)p)) return -1;
    s->ntouched = 0;
    while (s->nheap && out->len < limit) {
        heap_entry top = heap_pop(s);
        pair *p = &s->pairs[top.pair];
        if (p->count != top.count) continue; /* stale */
        if (top.count < min_count) break;
        uint32_t a = p->a, b = p->b, head = p->where;
        int64_t ab = joined_token(s, a, b);
        if (ab < 0 || grow(&out->merges, &out->cap, 2 * (out->len + 1), sizeof *out->merges)) return -1;
        out->merges[2 * out->len] = a;
        out->merges[2 * out->len + 1] = b;
        out->len++;
        s->pairs[top.pair].where = 0;
        s->step++;
        for (uint32_t at = head; at; at = s->notes[at - 1].next)
            if (merge_chain(s, s->notes[at - 1].chain, a, b, (uint32_t)ab)) return -1;
        if (end_step(s)) return -1;
        s->pairs[top.pair].count = 0;
    }
    out->text = s->text; /* handed over, with the ends */
    out->ends = s->ends;
    out->ntokens = s->ntokens;
    cpbuf_init(&s->text);
    s->ends = NULL;
    return 0;
}

int fusion_merges(const fusion_input *in, size_t limit, uint64_t min_count, uint64_t seed, fusion_result *out) {
    memset(out, 0, sizeof *out);
    if (!valid_input(in)) return FUSION_INVALID;
    fusion_state s;
    memset(&s, 0, sizeof s);
    cpbuf_init(&s.text);
    s.seed = seed;
    int failed = run(&s, in, limit, min_count, out);
    int overflow = s.overflow;
    cpbuf_free(&s.text);
    state_free(&s);
    if (failed) {
        fusion_result_free(out);
        return overflow ? FUSION_OVERFLOW : -1;
    }
    return 0;
}

void fusion_result_free(fusion_result *out) {
    cpbuf_free(&out->text);
    core_free(out->ends);
    core_free(out->merges);
    memset(out, 0, sizeof *out);
}
