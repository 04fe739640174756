/* The pre-token cache that all the threads of one GreedyEncoder share (bind_tokenizer.c), so that
 * a word one thread has merged is a hit for the others. With a cache per thread, each thread
 * missed the words the other had met: on the standard library's source, 2 threads missed 21%
 * more pre-tokens than 1 (measured), and the BPE of those misses capped encode_batch's scaling.
 *
 * Lookups take no lock; inserts take one. A generation (functok/cache.py's policy, as core.h's
 * pretoken_cache: at most `limit` entries in two generations, the older half dropped when the
 * young one is full) never moves what it has published: an entry and its code points are
 * written first, then published by storing the entry's index into its slot with release order,
 * which a reader loads with acquire order, and a published entry never changes.
 *
 * A generation is freed only when no call reads it: each call pins the two generations it reads
 * (a shared_view) and moves its pins to the cache's current ones at each insert it makes, so a
 * dropped generation lives at most until the calls that were reading it miss once or end. Memory
 * stays bounded: two generations, plus at most two pinned per call in flight. */
#include "binding.h"

#include <pythread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Keys and ids go in blocks of this many code points; a generation holds at most BLOCKS_MAX of
 * them (16 MB, as pretoken_cache's arena), and a key (CACHE_MAX_KEY code points) with its ids
 * always fits one block. */
enum { BLOCK = 1 << 16, BLOCKS_MAX = 64 };

/* 12 bytes: the table a thread reads is small, so that more of it stays in its core's cache. */
struct shared_entry {
    uint32_t hash;              /* the key's hash_key, its low half */
    uint32_t at;                /* the key: block at >> 16, from at & 0xFFFF; its ids follow it */
    uint16_t key_len, id_count; /* at most CACHE_MAX_KEY, and 4 ids (byte tokens) a code point */
};

/* Open addressing, at most half full: a slot holds an index + 1 into the entries, 0 when empty.
 * A fuller generation gets a table twice as large; the older tables stay (readers may still
 * probe them: they miss only the entries added since) until the generation goes. */
typedef struct slot_table {
    struct slot_table *older;
    size_t mask;
    _Atomic uint32_t slots[];
} slot_table;

struct shared_generation {
    _Atomic(slot_table *) table;   /* the newest, stored (release) once filled */
    struct shared_entry *entries;  /* read only once published */
    size_t len, cap;               /* the writer's: under the cache's lock */
    uint32_t *blocks[BLOCKS_MAX];
    size_t block_count, block_used;
    size_t pins;                   /* the calls reading it, and 1 while the cache holds it */
};

struct shared_cache {
    PyThread_type_lock lock;       /* guards writes, generations and pins */
    shared_generation *young, *old;
    size_t limit;
};

static uint64_t hash_key(const uint32_t *key, size_t n) { /* vocab.c's */
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
    for (size_t k = 0; k < n; k++) h = (h ^ key[k]) * 0x100000001B3ULL;
    return h ^ (h >> 29);
}

static void generation_free(shared_generation *g) {
    for (size_t k = 0; k < g->block_count; k++) free(g->blocks[k]);
    for (slot_table *t = atomic_load_explicit(&g->table, memory_order_relaxed), *older; t; t = older) {
        older = t->older;
        free(t);
    }
    free(g->entries);
    free(g);
}

static const uint32_t *entry_key(const shared_generation *g, const struct shared_entry *e) {
    return g->blocks[e->at >> 16] + (e->at & 0xFFFF);
}

/* The slot where entry `index` goes in t: the first empty one from its hash on. */
static void table_put(slot_table *t, uint32_t hash, uint32_t index) {
    size_t at = hash & t->mask;
    while (atomic_load_explicit(&t->slots[at], memory_order_relaxed)) at = (at + 1) & t->mask;
    atomic_store_explicit(&t->slots[at], index + 1, memory_order_release);
}

/* A table of `size` slots (a power of 2) with g's entries, published as g's newest: 0, or -1
 * when memory ran out (under the lock). */
static int generation_regrow(shared_generation *g, size_t size) {
    slot_table *t = calloc(1, sizeof *t + size * sizeof t->slots[0]); /* a zero is an atomic 0 */
    if (!t) return -1;
    t->mask = size - 1;
    t->older = atomic_load_explicit(&g->table, memory_order_relaxed);
    for (size_t k = 0; k < g->len; k++) table_put(t, g->entries[k].hash, (uint32_t)k);
    atomic_store_explicit(&g->table, t, memory_order_release);
    return 0;
}

/* An empty generation of at most cap entries, held by the cache (pins 1); NULL when memory ran
 * out. The entries' array is reserved whole, but its pages are touched only as it fills. */
static shared_generation *generation_new(size_t cap) {
    shared_generation *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    atomic_init(&g->table, NULL);
    g->entries = malloc(cap * sizeof *g->entries);
    if (!g->entries || generation_regrow(g, 1024)) {
        generation_free(g);
        return NULL;
    }
    g->cap = cap;
    g->pins = 1;
    return g;
}

/* One pin fewer on g (under the lock): the last one frees it. */
static void unpin(shared_generation *g) {
    if (g && --g->pins == 0) generation_free(g);
}

static void pin(shared_generation *g) {
    if (g) g->pins++;
}

shared_cache *shared_cache_new(size_t limit) {
    shared_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (!(c->lock = PyThread_allocate_lock())) {
        free(c);
        return NULL;
    }
    c->limit = limit < 2 ? 2 : limit;
    return c;
}

/* Drops both generations: calls still reading them keep them until they let go. */
void shared_cache_clear(shared_cache *c) {
    PyThread_acquire_lock(c->lock, WAIT_LOCK);
    unpin(c->young);
    unpin(c->old);
    c->young = c->old = NULL;
    PyThread_release_lock(c->lock);
}

/* With no call in flight (the encoder's dealloc). */
void shared_cache_free(shared_cache *c) {
    if (!c) return;
    shared_cache_clear(c);
    PyThread_free_lock(c->lock);
    free(c);
}

/* The cache's current generations, pinned for view (under the lock). */
static void view_take(shared_view *view) {
    shared_cache *c = view->cache;
    if (view->young == c->young && view->old == c->old) return;
    pin(c->young);
    pin(c->old);
    unpin(view->young);
    unpin(view->old);
    view->young = c->young;
    view->old = c->old;
}

void shared_view_open(shared_view *view, shared_cache *c) {
    view->cache = c;
    view->young = view->old = NULL;
    PyThread_acquire_lock(c->lock, WAIT_LOCK);
    view_take(view);
    PyThread_release_lock(c->lock);
}

void shared_view_close(shared_view *view) {
    PyThread_acquire_lock(view->cache->lock, WAIT_LOCK);
    unpin(view->young);
    unpin(view->old);
    view->young = view->old = NULL;
    PyThread_release_lock(view->cache->lock);
}

/* The entry of key in g, or NULL. Lock free: a slot read as filled (acquire) shows its entry
 * and its code points as the writer left them. */
static const struct shared_entry *generation_find(const shared_generation *g, uint32_t hash, const uint32_t *key,
                                                  size_t n) {
    const slot_table *t = atomic_load_explicit(&g->table, memory_order_acquire);
    for (size_t at = hash & t->mask;; at = (at + 1) & t->mask) {
        uint32_t index = atomic_load_explicit(&t->slots[at], memory_order_acquire);
        if (!index) return NULL;
        const struct shared_entry *e = &g->entries[index - 1];
        if (e->hash == hash && e->key_len == n && !memcmp(entry_key(g, e), key, n * sizeof *key)) return e;
    }
}

const uint32_t *shared_view_get(void *context, const uint32_t *key, size_t n, size_t *count) {
    const shared_view *view = context;
    if (n > CACHE_MAX_KEY) return NULL;
    uint32_t hash = (uint32_t)hash_key(key, n);
    const shared_generation *g = view->young;
    const struct shared_entry *e = g ? generation_find(g, hash, key, n) : NULL;
    if (!e && (g = view->old)) e = generation_find(g, hash, key, n);
    if (!e) return NULL;
    *count = e->id_count;
    return entry_key(g, e) + e->key_len;
}

/* Room for `need` code points in g's blocks: 0 with where they go in *at, or -1 when memory ran
 * out. young_with_room has checked that they fit. */
static int generation_room(shared_generation *g, size_t need, uint32_t *at) {
    if (!g->block_count || g->block_used + need > BLOCK) {
        if (!(g->blocks[g->block_count] = malloc(BLOCK * sizeof *g->blocks[0]))) return -1;
        g->block_count++;
        g->block_used = 0;
    }
    *at = (uint32_t)((g->block_count - 1) << 16 | g->block_used);
    g->block_used += need;
    return 0;
}

/* The young generation with room for an entry of `need` code points, a new one when it is full
 * (the old one goes); NULL when memory ran out (under the lock). */
static shared_generation *young_with_room(shared_cache *c, size_t need) {
    shared_generation *g = c->young;
    int full = !g || g->len == g->cap || (g->block_used + need > BLOCK && g->block_count == BLOCKS_MAX);
    if (!full) return g;
    /* each entry takes at least 2 code points (a key and an id): no more fit the blocks */
    size_t cap = c->limit / 2 < BLOCK * BLOCKS_MAX / 2 ? c->limit / 2 : BLOCK * BLOCKS_MAX / 2;
    shared_generation *fresh = generation_new(cap);
    if (!fresh) return NULL;
    unpin(c->old);
    c->old = c->young;
    c->young = fresh;
    return fresh;
}

/* Adds key's ids to the young generation unless a thread has put them there already, then
 * moves the view onto the cache's current generations. */
int shared_view_put(void *context, const uint32_t *key, size_t n, const uint32_t *ids, size_t count) {
    shared_view *view = context;
    shared_cache *c = view->cache;
    if (n > CACHE_MAX_KEY || n + count > BLOCK / 2) return 0; /* not cached: results never depend on it */
    uint32_t hash = (uint32_t)hash_key(key, n);
    int failed = 0;
    PyThread_acquire_lock(c->lock, WAIT_LOCK);
    shared_generation *g = young_with_room(c, n + count);
    if (!g) {
        failed = -1;
    } else if (!generation_find(g, hash, key, n)) {
        slot_table *t = atomic_load_explicit(&g->table, memory_order_relaxed);
        uint32_t at;
        if ((g->len + 1) * 2 > t->mask + 1 && generation_regrow(g, 2 * (t->mask + 1))) {
            failed = -1;
        } else if (generation_room(g, n + count, &at)) {
            failed = -1;
        } else {
            uint32_t *data = g->blocks[at >> 16] + (at & 0xFFFF);
            memcpy(data, key, n * sizeof *key);
            memcpy(data + n, ids, count * sizeof *ids);
            g->entries[g->len] = (struct shared_entry){hash, at, (uint16_t)n, (uint16_t)count};
            table_put(atomic_load_explicit(&g->table, memory_order_relaxed), hash, (uint32_t)g->len++);
        }
    }
    view_take(view);
    PyThread_release_lock(c->lock);
    return failed;
}
