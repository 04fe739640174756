/* The tokenizer's hash maps (core.h): pairmap, from a merge's pair of ids or a code point to
 * (rank, id), and pretoken_cache, the bounded cache of ids per pre-token. Both use open
 * addressing with linear probing in a power-of-two table kept at most half full. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

static size_t mix64(uint64_t key) {
    key ^= key >> 33;
    key *= 0xFF51AFD7ED558CCDULL;
    key ^= key >> 33;
    key *= 0xC4CEB9FE1A85EC53ULL;
    return (size_t)(key ^ (key >> 33));
}

/* --- pairmap ------------------------------------------------------------------------------ */

void pairmap_init(pairmap *m) { m->slots = NULL; m->cap = m->len = 0; }

void pairmap_free(pairmap *m) { core_free(m->slots); pairmap_init(m); }

static pair_entry *pairmap_slot(const pairmap *m, uint64_t key) {
    size_t mask = m->cap - 1;
    for (size_t at = mix64(key) & mask;; at = (at + 1) & mask) {
        pair_entry *e = &m->slots[at];
        if (e->rank == UINT32_MAX || e->key == key) return e;
    }
}

static int pairmap_grow(pairmap *m) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    pair_entry *slots = core_realloc_array(NULL, cap, sizeof *slots);
    if (!slots) return -1;
    for (size_t k = 0; k < cap; k++) slots[k].rank = UINT32_MAX;
    pairmap old = *m;
    m->slots = slots;
    m->cap = cap;
    for (size_t k = 0; k < old.cap; k++)
        if (old.slots[k].rank != UINT32_MAX) *pairmap_slot(m, old.slots[k].key) = old.slots[k];
    core_free(old.slots);
    return 0;
}

int pairmap_put(pairmap *m, uint64_t key, uint32_t rank, uint32_t value) {
    if (rank == UINT32_MAX) return -1;
    if ((m->len + 1) * 2 > m->cap && pairmap_grow(m)) return -1;
    pair_entry *e = pairmap_slot(m, key);
    if (e->rank == UINT32_MAX) m->len++;
    e->key = key;
    e->rank = rank;
    e->value = value;
    return 0;
}

const pair_entry *pairmap_get(const pairmap *m, uint64_t key) {
    if (!m->cap) return NULL;
    const pair_entry *e = pairmap_slot(m, key);
    return e->rank == UINT32_MAX ? NULL : e;
}

/* --- pretoken_cache ------------------------------------------------------------------------ */

struct cache_entry {
    uint64_t hash;
    uint32_t at, key_len, id_count; /* the key at arena[at], its ids after it */
};

static uint64_t hash_key(const uint32_t *key, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
    for (size_t k = 0; k < n; k++) h = (h ^ key[k]) * 0x100000001B3ULL;
    return h ^ (h >> 29);
}

static void generation_init(cache_generation *g) {
    g->entries = NULL;
    g->slots = NULL;
    g->len = g->cap = g->slot_cap = 0;
    cpbuf_init(&g->arena);
}

static void generation_free(cache_generation *g) {
    core_free(g->entries);
    core_free(g->slots);
    cpbuf_free(&g->arena);
    generation_init(g);
}

static void generation_clear(cache_generation *g) {
    g->len = 0;
    g->arena.len = 0;
    if (g->slot_cap) memset(g->slots, 0, g->slot_cap * sizeof *g->slots);
}

/* The slot of key in g: the one holding it, or the empty one where it would go. */
static uint32_t *generation_slot(const cache_generation *g, uint64_t hash, const uint32_t *key, size_t n) {
    size_t mask = g->slot_cap - 1;
    for (size_t at = (size_t)hash & mask;; at = (at + 1) & mask) {
        uint32_t *slot = &g->slots[at];
        if (!*slot) return slot;
        const struct cache_entry *e = &g->entries[*slot - 1];
        if (e->hash == hash && e->key_len == n && !memcmp(g->arena.data + e->at, key, n * sizeof *key)) return slot;
    }
}

static const uint32_t *generation_get(const cache_generation *g, uint64_t hash, const uint32_t *key, size_t n,
                                      size_t *count) {
    if (!g->len) return NULL;
    uint32_t slot = *generation_slot(g, hash, key, n);
    if (!slot) return NULL;
    const struct cache_entry *e = &g->entries[slot - 1];
    *count = e->id_count;
    return g->arena.data + e->at + e->key_len;
}

/* The cache's generations and the bytemap keep their entries in insertion order and index them
 * from an array of slots twice as long (an entry's index plus one; 0: empty). Doubles both: the
 * entries keep their places, the slots start empty for the caller to refill. -1, with nothing
 * changed, when memory runs out or the indexes would pass 32 bits. */
static int grow_indexed(void **entries, size_t entry_size, size_t *cap, uint32_t **slots, size_t *slot_cap) {
    size_t more_slots = *slot_cap ? *slot_cap * 2 : 1024, more = more_slots / 2;
    if (more >= UINT32_MAX) return -1;
    uint32_t *fresh = core_calloc(more_slots, sizeof *fresh);
    void *bigger = fresh ? core_realloc_array(*entries, more, entry_size) : NULL;
    if (!bigger) { core_free(fresh); return -1; }
    *entries = bigger;
    *cap = more;
    core_free(*slots);
    *slots = fresh;
    *slot_cap = more_slots;
    return 0;
}

static int generation_grow(cache_generation *g) {
    if (grow_indexed((void **)&g->entries, sizeof *g->entries, &g->cap, &g->slots, &g->slot_cap)) return -1;
    for (size_t k = 0; k < g->len; k++) {
        const struct cache_entry *e = &g->entries[k];
        *generation_slot(g, e->hash, g->arena.data + e->at, e->key_len) = (uint32_t)(k + 1);
    }
    return 0;
}

void pretoken_cache_init(pretoken_cache *c, size_t limit) {
    generation_init(&c->young);
    generation_init(&c->old);
    c->limit = limit < 2 ? 2 : limit > UINT32_MAX / 2 ? UINT32_MAX / 2 : limit;
}

void pretoken_cache_free(pretoken_cache *c) {
    generation_free(&c->young);
    generation_free(&c->old);
}

const uint32_t *pretoken_cache_get(const pretoken_cache *c, const uint32_t *key, size_t n, size_t *count) {
    if (n > CACHE_MAX_KEY) return NULL;
    uint64_t hash = hash_key(key, n);
    const uint32_t *found = generation_get(&c->young, hash, key, n, count);
    return found ? found : generation_get(&c->old, hash, key, n, count);
}

/* A generation's arena holds at most this many code points (keys and ids): 16 MB, some 40 times
 * what 2^17 pre-tokens of natural text take. */
#define ARENA_LIMIT ((size_t)1 << 22)

int pretoken_cache_put(pretoken_cache *c, const uint32_t *key, size_t n, const uint32_t *ids, size_t count) {
    if (n > CACHE_MAX_KEY || count > ARENA_LIMIT / 2) return 0; /* not cached: results never depend on it */
    cache_generation *g = &c->young;
    if (g->len >= c->limit / 2 || g->arena.len + n + count > ARENA_LIMIT) { /* the older half goes */
        cache_generation dropped = c->old;
        c->old = c->young;
        c->young = dropped;
        generation_clear(g);
    }
    if (g->len == g->cap && generation_grow(g)) return -1;
    uint64_t hash = hash_key(key, n);
    uint32_t *slot = generation_slot(g, hash, key, n);
    if (*slot) return 0; /* there already */
    size_t at = g->arena.len;
    if (cpbuf_extend(&g->arena, key, n) || cpbuf_extend(&g->arena, ids, count)) return -1;
    g->entries[g->len] = (struct cache_entry){hash, (uint32_t)at, (uint32_t)n, (uint32_t)count};
    *slot = (uint32_t)++g->len;
    return 0;
}

/* --- bytemap ------------------------------------------------------------------------------- */

struct bytemap_entry {
    uint64_t hash;
    size_t at, len;
    uint32_t rank;
};

static uint64_t hash_bytes(const uint8_t *key, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
    for (size_t k = 0; k < n; k++) h = (h ^ key[k]) * 0x100000001B3ULL;
    return h ^ (h >> 29);
}

void bytemap_init(bytemap *m) {
    m->entries = NULL;
    m->slots = NULL;
    m->len = m->cap = m->slot_cap = 0;
    m->arena = NULL;
    m->arena_len = m->arena_cap = 0;
}

void bytemap_free(bytemap *m) {
    core_free(m->entries);
    core_free(m->slots);
    core_free(m->arena);
    bytemap_init(m);
}

static uint32_t *bytemap_slot(const bytemap *m, uint64_t hash, const uint8_t *key, size_t n) {
    size_t mask = m->slot_cap - 1;
    for (size_t at = (size_t)hash & mask;; at = (at + 1) & mask) {
        uint32_t *slot = &m->slots[at];
        if (!*slot) return slot;
        const struct bytemap_entry *e = &m->entries[*slot - 1];
        if (e->hash == hash && e->len == n && !memcmp(m->arena + e->at, key, n)) return slot;
    }
}

static int bytemap_grow(bytemap *m) {
    if (grow_indexed((void **)&m->entries, sizeof *m->entries, &m->cap, &m->slots, &m->slot_cap)) return -1;
    for (size_t k = 0; k < m->len; k++) {
        const struct bytemap_entry *e = &m->entries[k];
        *bytemap_slot(m, e->hash, m->arena + e->at, e->len) = (uint32_t)(k + 1);
    }
    return 0;
}

int bytemap_put(bytemap *m, const uint8_t *key, size_t n, uint32_t rank) {
    if (m->len == m->cap && bytemap_grow(m)) return -1;
    uint64_t hash = hash_bytes(key, n);
    uint32_t *slot = bytemap_slot(m, hash, key, n);
    if (*slot) { m->entries[*slot - 1].rank = rank; return 0; }
    if (n > SIZE_MAX - m->arena_len || core_grow((void **)&m->arena, &m->arena_cap, m->arena_len + n, 1, 4096))
        return -1;
    if (n) memcpy(m->arena + m->arena_len, key, n);
    m->entries[m->len] = (struct bytemap_entry){hash, m->arena_len, n, rank};
    m->arena_len += n;
    *slot = (uint32_t)++m->len;
    return 0;
}

int bytemap_get(const bytemap *m, const uint8_t *key, size_t n, uint32_t *rank) {
    if (!m->len) return 0;
    uint32_t slot = *bytemap_slot(m, hash_bytes(key, n), key, n);
    if (!slot) return 0;
    *rank = m->entries[slot - 1].rank;
    return 1;
}
