/* Training's pre-token counts (functok train, Tokenizer.train): how often each pre-token of spec 9
 * occurs, and under fuse "frequent" how often each chain of 9.4 does (as the sequence of its
 * segments), counted in a hash map with the keys in the order they were first seen, which is the
 * order a Python Counter would keep (the trainer is fed in that order). */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "opcodes.h"

void counter_init(counter *c) { memset(c, 0, sizeof *c); }

void counter_free(counter *c) {
    cpbuf_free(&c->keys);
    offsets_free(&c->cuts);
    core_free(c->entries);
    core_free(c->slots);
    counter_init(c);
}

/* The hash of a key under the counter's seed. Each step folds the high bits back into the low
 * ones (a plain multiply-xor hash such as FNV keeps its low bits a function of the inputs' low
 * bits, so that U+0061 and U+100061 would collide in the table, and a corpus of such twins would
 * make counting quadratic); the seed, random per process, keeps collisions from being chosen. */
static uint64_t hash_of(uint64_t seed, const uint32_t *key, size_t n) {
    uint64_t h = seed ^ 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ key[i]) * 0x9e3779b97f4a7c15u;
        h ^= h >> 29;
    }
    h ^= n; /* murmur3's finalizer */
    h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdu;
    h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53u;
    return h ^ (h >> 33);
}

/* A slot: the high 32 bits of an entry's hash, then its index plus one (0: empty), so that a
 * probe compares hashes without reading the entry. The table is rebuilt at twice the size when
 * half full. */
static uint64_t slot_of(uint64_t hash, size_t entry) { return (hash >> 32) << 32 | (uint64_t)(entry + 1); }

static int grow_slots(counter *c) {
    size_t size = c->slot_count ? c->slot_count * 2 : 1024;
    if (size > SIZE_MAX / sizeof *c->slots) return -1;
    uint64_t *slots = core_calloc(size, sizeof *slots);
    if (!slots) return -1;
    for (size_t e = 0; e < c->len; e++) {
        size_t at = (size_t)c->entries[e].hash & (size - 1);
        while (slots[at]) at = (at + 1) & (size - 1);
        slots[at] = slot_of(c->entries[e].hash, e);
    }
    core_free(c->slots);
    c->slots = slots;
    c->slot_count = size;
    return 0;
}

/* A key is its code points: a chain's segments follow from them (spec 2.2: an instruction's
 * length is its opcode's, and a base runs to the next code point of the group range), so its cuts
 * are only kept to give the segments back. */
static int same_key(const counter *c, const count_entry *e, const uint32_t *key, size_t n) {
    if (e->len != n) return 0;
    const uint32_t *mine = c->keys.data + e->start;
    for (size_t k = 0; k < n; k++) /* most keys are a few code points: no call to memcmp */
        if (mine[k] != key[k]) return 0;
    return 1;
}

int counter_add(counter *c, const uint32_t *key, size_t n, const size_t *cuts, size_t ncuts) {
    size_t index;
    return counter_index(c, key, n, cuts, ncuts, &index);
}

int counter_index(counter *c, const uint32_t *key, size_t n, const size_t *cuts, size_t ncuts, size_t *index) {
    if (2 * (c->len + 1) > c->slot_count && grow_slots(c)) return -1;
    if (c->len >= UINT32_MAX - 1) return -1; /* a slot holds the index in 32 bits */
    uint64_t h = hash_of(c->seed, key, n);
    size_t at = (size_t)h & (c->slot_count - 1);
    for (; c->slots[at]; at = (at + 1) & (c->slot_count - 1)) {
        if (c->slots[at] >> 32 != h >> 32) continue;
        count_entry *e = &c->entries[(c->slots[at] & UINT32_MAX) - 1];
        if (e->hash == h && same_key(c, e, key, n)) {
            e->count++;
            *index = (size_t)(e - c->entries);
            return 0;
        }
    }
    if (core_grow((void **)&c->entries, &c->cap, c->len + 1, sizeof *c->entries, 1024)) return -1;
    count_entry e = {c->keys.len, n, c->cuts.len, ncuts, h, 1};
    if (cpbuf_extend(&c->keys, key, n)) return -1;
    for (size_t k = 0; k < ncuts; k++)
        if (offsets_push(&c->cuts, cuts[k])) return -1;
    c->entries[c->len] = e;
    *index = c->len;
    c->slots[at] = slot_of(h, c->len++);
    return 0;
}

/* The grammar's group range (spec 2.2): a pre-token that starts in it is an instruction. */
static int is_instruction(uint32_t first) { return first >= GROUP_FIRST && first <= GROUP_LAST; }

/* Spec 9.4's chains of the "none" pre-tokens stream[0:ends[count-1]]: a piece is its instructions
 * and the base that ends it; a piece with instructions joins the chain before it, any other
 * starts one. Each chain of two segments or more is counted, with the segments' ends as cuts. */
static int count_chains(const cpbuf *stream, const offsets *ends, counter *chains, offsets *cuts) {
    size_t chain_from = 0, chain_start = 0; /* the chain's first pre-token, and where it starts */
    size_t piece_from = 0;                  /* the current piece's first pre-token */
    for (size_t k = 0; k < ends->len; k++) {
        size_t start = k ? ends->data[k - 1] : 0;
        if (is_instruction(stream->data[start])) continue; /* the piece goes on to its base */
        int grouped = k > piece_from;
        if (!grouped && piece_from > chain_from) { /* an ungrouped piece ends the chain before it */
            if (piece_from - chain_from >= 2) {
                cuts->len = 0;
                for (size_t j = chain_from; j + 1 < piece_from; j++)
                    if (offsets_push(cuts, ends->data[j] - chain_start)) return -1;
                if (counter_add(chains, stream->data + chain_start, ends->data[piece_from - 1] - chain_start,
                                cuts->data, cuts->len))
                    return -1;
            }
            chain_from = piece_from;
            chain_start = piece_from ? ends->data[piece_from - 1] : 0;
        }
        piece_from = k + 1;
    }
    if (piece_from - chain_from >= 2) { /* the last chain */
        cuts->len = 0;
        for (size_t j = chain_from; j + 1 < piece_from; j++)
            if (offsets_push(cuts, ends->data[j] - chain_start)) return -1;
        if (counter_add(chains, stream->data + chain_start, ends->data[piece_from - 1] - chain_start, cuts->data,
                        cuts->len))
            return -1;
    }
    return 0;
}

int count_pretokens(const uint32_t *text, size_t n, int max_digits, int cfg, int fuse, counter *words,
                    counter *chains) {
    cpbuf stream;
    offsets ends, cuts;
    cpbuf_init(&stream);
    offsets_init(&ends);
    offsets_init(&cuts);
    int failed = pretokens(text, n, max_digits, cfg, chains ? FUSE_NONE : fuse, &stream, &ends);
    for (size_t k = 0, start = 0; !failed && k < ends.len; k++) {
        failed = counter_add(words, stream.data + start, ends.data[k] - start, NULL, 0);
        start = ends.data[k];
    }
    if (!failed && chains) failed = count_chains(&stream, &ends, chains, &cuts);
    cpbuf_free(&stream);
    offsets_free(&ends);
    offsets_free(&cuts);
    return failed ? -1 : 0;
}
