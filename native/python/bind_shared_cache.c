/* The pre-token cache that all the threads of one GreedyEncoder share (bind_tokenizer.c), so that
 * a word one thread has merged is a hit for the others. With a cache per thread, each thread
 * missed the words the other had met: on the standard library's source, 2 threads missed 21%
 * more pre-tokens than 1 (measured), and the BPE of those misses capped encode_batch's scaling.
 *
 * Lookups take no lock; inserts take one. A generation (functok/cache.py's policy, as core.h's
 * pretoken_cache: at most `limit` entries in two generations, the older half dropped when the
 * young one is full) never moves what it has published: an entry is written first, then
 * published by storing where it is into its slot with release order, which a reader loads with
 * acquire order, and a published entry never changes.
 *
 * Each call writes its entries into blocks of its own, so that the words one thread meets lie
 * together, apart from the other threads' words, as in a cache of its own (which kept each core's
 * share of the table in its own cache memory: with one shared table, 2 threads do 1-7% more CPU
 * work than 1 on a warm pass, where private caches did none; measured on a loaded machine, so
 * what the blocks win back is not shown).
 *
 * A generation is freed only when no call reads it: each call pins the two generations it reads
 * (a shared_view) and moves its pins to the cache's current ones at each insert it makes, so a
 * dropped generation lives at most until the calls that were reading it miss once or end. Memory
 * stays bounded: two generations, plus at most two pinned per call in flight. It comes from
 * PyMem_Raw* (callable without the GIL), so that tracemalloc counts it as it counts the core's. */
#include "binding.h"

#include <pythread.h>
#include <stdatomic.h>
#include <string.h>

/* Entries go in blocks of this many uint32_t; a generation holds at most BLOCKS_MAX of them
 * (16 MB, as pretoken_cache's arena), and an entry always fits one block. An entry: the key's
 * hash (hash_key's low half), key_len << 16 | id_count, the key, its ids. */
enum { BLOCK = 1 << 16, BLOCKS_MAX = 64, HEADER = 2 };

/* Open addressing, at most half full: a slot holds where its entry is + 1 (block << 16 | offset),
 * 0 when empty.
 * A fuller generation gets a table twice as large; the older tables stay (readers may still
 * probe them: they miss only the entries added since) until the generation goes. */
typedef struct slot_table {
    struct slot_table *older;
    size_t mask;
    _Atomic uint32_t slots[];
} slot_table;

struct shared_generation {
    _Atomic(slot_table *) table;   /* the newest, stored (release) once filled */
    uint32_t *blocks[BLOCKS_MAX];  /* read only where published */
    size_t used[BLOCKS_MAX];       /* the writers': under the cache's lock */
    size_t block_count, len, cap;
    uint64_t *directory;           /* hash << 32 | where, of each entry: regrowing reads these in
                                    * order (walking the blocks cost a cache miss an entry) */
    size_t serial;                 /* which generation of the cache: a view's block is in it */
    size_t pins;                   /* the calls reading it, and 1 while the cache holds it */
};

struct shared_cache {
    PyThread_type_lock lock;       /* guards writes, generations and pins */
    shared_generation *young, *old;
    size_t limit, serial;
};

static uint64_t hash_key(const uint32_t *key, size_t n) { /* vocab.c's */
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
    for (size_t k = 0; k < n; k++) h = (h ^ key[k]) * 0x100000001B3ULL;
    return h ^ (h >> 29);
}

static void generation_free(shared_generation *g) {
    for (size_t k = 0; k < g->block_count; k++) PyMem_RawFree(g->blocks[k]);
    for (slot_table *t = atomic_load_explicit(&g->table, memory_order_relaxed), *older; t; t = older) {
        older = t->older;
        PyMem_RawFree(t);
    }
    PyMem_RawFree(g->directory);
    PyMem_RawFree(g);
}

static const uint32_t *entry_at(const shared_generation *g, uint32_t at) {
    return g->blocks[at >> 16] + (at & 0xFFFF);
}

/* Publishes the entry at `at` in t: in the first empty slot from its hash on. */
static void table_put(slot_table *t, uint32_t hash, uint32_t at) {
    size_t k = hash & t->mask;
    while (atomic_load_explicit(&t->slots[k], memory_order_relaxed)) k = (k + 1) & t->mask;
    atomic_store_explicit(&t->slots[k], at + 1, memory_order_release);
}

/* A table of `size` slots (a power of 2) with g's entries, published as g's newest: 0, or -1
 * when memory ran out (under the lock). */
static int generation_regrow(shared_generation *g, size_t size) {
    slot_table *t = PyMem_RawCalloc(1, sizeof *t + size * sizeof t->slots[0]); /* a zero is an atomic 0 */
    if (!t) return -1;
    t->mask = size - 1;
    t->older = atomic_load_explicit(&g->table, memory_order_relaxed);
    for (size_t k = 0; k < g->len; k++) table_put(t, (uint32_t)(g->directory[k] >> 32), (uint32_t)g->directory[k]);
    atomic_store_explicit(&g->table, t, memory_order_release);
    return 0;
}

/* An empty generation of at most cap entries, held by the cache (pins 1); NULL when memory ran
 * out. */
static shared_generation *generation_new(size_t cap, size_t serial) {
    shared_generation *g = PyMem_RawCalloc(1, sizeof *g);
    if (!g) return NULL;
    atomic_init(&g->table, NULL);
    g->directory = PyMem_RawMalloc(cap * sizeof *g->directory); /* its pages touched only as it fills */
    if (!g->directory || generation_regrow(g, 1024)) {
        generation_free(g);
        return NULL;
    }
    g->cap = cap;
    g->serial = serial;
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
    shared_cache *c = PyMem_RawCalloc(1, sizeof *c);
    if (!c) return NULL;
    if (!(c->lock = PyThread_allocate_lock())) {
        PyMem_RawFree(c);
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
    PyMem_RawFree(c);
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

void shared_view_init(shared_view *view) {
    *view = (shared_view){NULL, NULL, NULL, 0, 0}; /* serials start at 1: no block yet */
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
static const uint32_t *generation_find(const shared_generation *g, uint32_t hash, const uint32_t *key, size_t n) {
    const slot_table *t = atomic_load_explicit(&g->table, memory_order_acquire);
    for (size_t k = hash & t->mask;; k = (k + 1) & t->mask) {
        uint32_t at = atomic_load_explicit(&t->slots[k], memory_order_acquire);
        if (!at) return NULL;
        const uint32_t *e = entry_at(g, at - 1);
        if (e[0] == hash && e[1] >> 16 == n && !memcmp(e + HEADER, key, n * sizeof *key)) return e;
    }
}

const uint32_t *shared_view_get(void *context, const uint32_t *key, size_t n, size_t *count) {
    const shared_view *view = context;
    if (n > CACHE_MAX_KEY) return NULL;
    uint32_t hash = (uint32_t)hash_key(key, n);
    const uint32_t *e = view->young ? generation_find(view->young, hash, key, n) : NULL;
    if (!e && view->old) e = generation_find(view->old, hash, key, n);
    if (!e) return NULL;
    *count = e[1] & 0xFFFF;
    return e + HEADER + n;
}

/* A new young generation; the old one goes (under the lock). NULL when memory ran out. */
static shared_generation *rotate(shared_cache *c) {
    /* each entry takes at least 4 uint32_t (its header, a key and an id): no more fit the blocks */
    size_t cap = c->limit / 2 < BLOCK * BLOCKS_MAX / 4 ? c->limit / 2 : BLOCK * BLOCKS_MAX / 4;
    shared_generation *fresh = generation_new(cap, ++c->serial);
    if (!fresh) return NULL;
    unpin(c->old);
    c->old = c->young;
    c->young = fresh;
    return fresh;
}

/* Where an entry of `need` uint32_t goes: in the view's own block of the young generation, a new
 * block when it has no room, a new generation when the young one is full. 0 with *young and *at
 * set (the room is the caller's to take), or -1 when memory ran out (under the lock). */
static int view_room(shared_view *view, size_t need, shared_generation **young, uint32_t *at) {
    shared_cache *c = view->cache;
    shared_generation *g = c->young;
    if ((!g || g->len == g->cap) && !(g = rotate(c))) return -1;
    if (view->block_serial != g->serial || g->used[view->block] + need > BLOCK) {
        if (g->block_count == BLOCKS_MAX && !(g = rotate(c))) return -1;
        if (!(g->blocks[g->block_count] = PyMem_RawMalloc(BLOCK * sizeof *g->blocks[0]))) return -1;
        view->block = g->block_count++;
        view->block_serial = g->serial;
        g->used[view->block] = 0;
    }
    *young = g;
    *at = (uint32_t)(view->block << 16 | g->used[view->block]);
    return 0;
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
    shared_generation *g = c->young;
    uint32_t at;
    if (g && generation_find(g, hash, key, n)) {
        /* there already: another thread merged it since this one looked */
    } else if (view_room(view, HEADER + n + count, &g, &at)) {
        failed = -1;
    } else {
        size_t slots = atomic_load_explicit(&g->table, memory_order_relaxed)->mask + 1;
        if ((g->len + 1) * 2 > slots && generation_regrow(g, 2 * slots)) {
            failed = -1;
        } else {
            uint32_t *entry = g->blocks[at >> 16] + (at & 0xFFFF);
            entry[0] = hash;
            entry[1] = (uint32_t)(n << 16 | count);
            memcpy(entry + HEADER, key, n * sizeof *key);
            memcpy(entry + HEADER + n, ids, count * sizeof *ids);
            g->used[at >> 16] += HEADER + n + count;
            g->directory[g->len++] = (uint64_t)hash << 32 | at;
            table_put(atomic_load_explicit(&g->table, memory_order_relaxed), hash, at);
        }
    }
    view_take(view);
    PyThread_release_lock(c->lock);
    return failed;
}
