/* Spec 10: optimal segmentation, the fewest tokens per pre-token, as
 * python/functok/tokenizer/segment.py computes it (that file is the reference; this one follows
 * its dynamic programme step by step, so that the ids are the same, ties included).
 *
 * The candidate tokens are held in a trie whose edges live in one open-addressing hash table
 * keyed by (parent node, symbol). Why a trie and why this form of it: the DP walks, from each
 * position, the text as far as it matches a token prefix, and a trie makes each step of that
 * walk one lookup whatever the vocabulary's size (a hash of whole prefixes would hash the prefix
 * again at each step, or need rolling hashes and a collision check against the token). Symbols
 * are code points (or bytes), a sparse alphabet of up to 0x110000, so a node cannot hold an
 * array of children; one shared edge table costs about 32 bytes per token symbol (16-byte slots,
 * at most half full) and needs no per-node allocation. Only the root, where every position's walk
 * starts, has an array of children (over the BMP symbols its tokens start with: at most 256 KB). Nodes are numbered 0 (the root), 1, 2, ...; each keeps the id of the
 * token ending there, if any.
 *
 * Memory: the trie is proportional to the candidates' total length; a segmentation needs three
 * words per symbol of the pre-token. Time: O(length x the longest token prefix matched), as in
 * the reference, with no dependence on the vocabulary's size. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define NO_NODE UINT32_MAX
#define NO_COST UINT32_MAX /* the cost of a suffix that no tokens spell */

typedef struct {
    uint64_t key;   /* (parent << 21 | symbol) + 1, 0 when the slot is empty */
    uint32_t child; /* the child node; key and child side by side: one cache line per probe */
} edge;

/* The root's children below ROOT_DIRECT are an array (the first lookup at every position of the
 * DP, and most words are short): no hashing there. */
#define ROOT_DIRECT 0x10000

struct segmenter {
    uint32_t *token_of;  /* per node: the id of the token ending there */
    uint8_t *is_token;   /* per node: whether one does */
    size_t nodes, node_cap;
    edge *edges;         /* the open-addressing table of edges */
    size_t edge_count, slots; /* slots is a power of two, at most half full */
    int shift;           /* 64 - log2(slots): the hash keeps the product's high bits */
    uint32_t *root;      /* root[symbol]: the child of the root, or NO_NODE; root_len entries */
    size_t root_len;
    int has_empty;       /* the empty token is a candidate (it has no node) */
    uint32_t empty_id;
    int has_fallback;    /* byte fallback: a symbol with no token becomes its UTF-8 bytes */
    uint32_t byte_id[256];
    uint8_t has_byte[256];
};

static size_t slot_of(uint64_t key, int shift) {
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> shift);
}

static uint64_t edge_key(uint32_t node, uint32_t symbol) {
    return (((uint64_t)node << 21) | (symbol & 0x1FFFFF)) + 1;
}

/* The child of node along symbol, or NO_NODE. */
static inline uint32_t child_of(const segmenter *s, uint32_t node, uint32_t symbol) {
    if (node == 0 && symbol < s->root_len) return s->root[symbol];
    if (symbol > 0x10FFFF) return NO_NODE;
    uint64_t key = edge_key(node, symbol);
    size_t mask = s->slots - 1;
    for (size_t at = slot_of(key, s->shift);; at = (at + 1) & mask) {
        if (s->edges[at].key == key) return s->edges[at].child;
        if (s->edges[at].key == 0) return NO_NODE;
    }
}

static void put_edge(edge *edges, size_t slots, int shift, uint64_t key, uint32_t child) {
    size_t at = slot_of(key, shift);
    while (edges[at].key) at = (at + 1) & (slots - 1);
    edges[at].key = key;
    edges[at].child = child;
}

static int grow_edges(segmenter *s) {
    if (s->slots > SIZE_MAX / 2 / sizeof(edge)) return -1;
    size_t slots = s->slots * 2;
    edge *edges = core_calloc(slots, sizeof *edges);
    if (!edges) return -1;
    for (size_t k = 0; k < s->slots; k++)
        if (s->edges[k].key) put_edge(edges, slots, s->shift - 1, s->edges[k].key, s->edges[k].child);
    core_free(s->edges);
    s->edges = edges;
    s->slots = slots;
    s->shift -= 1;
    return 0;
}

static int new_node(segmenter *s, uint32_t *node) {
    if (s->nodes == s->node_cap) {
        if (s->node_cap >= NO_NODE / 2) return -1; /* node numbers stay below NO_NODE */
        size_t cap = s->node_cap * 2;
        uint32_t *token_of = core_realloc_array(s->token_of, cap, sizeof *token_of);
        if (!token_of) return -1;
        s->token_of = token_of;
        uint8_t *is_token = core_realloc(s->is_token, cap);
        if (!is_token) return -1;
        s->is_token = is_token;
        s->node_cap = cap;
    }
    s->token_of[s->nodes] = 0;
    s->is_token[s->nodes] = 0;
    *node = (uint32_t)s->nodes++;
    return 0;
}

segmenter *segmenter_new(void) {
    segmenter *s = core_calloc(1, sizeof *s);
    if (!s) return NULL;
    s->node_cap = 64;
    s->slots = 128;
    s->shift = 64 - 7;
    s->token_of = core_realloc_array(NULL, s->node_cap, sizeof *s->token_of);
    s->is_token = core_realloc(NULL, s->node_cap);
    s->edges = core_calloc(s->slots, sizeof *s->edges);
    uint32_t root;
    if (!s->token_of || !s->is_token || !s->edges || new_node(s, &root)) {
        segmenter_free(s);
        return NULL;
    }
    return s;
}

void segmenter_free(segmenter *s) {
    if (!s) return;
    core_free(s->token_of);
    core_free(s->is_token);
    core_free(s->edges);
    core_free(s->root);
    core_free(s);
}

/* Room in the root's array for symbol (below ROOT_DIRECT): -1 when memory runs out. */
static int root_room(segmenter *s, uint32_t symbol) {
    size_t len = s->root_len;
    if (core_grow((void **)&s->root, &len, (size_t)symbol + 1, sizeof *s->root, 256)) return -1;
    for (size_t k = s->root_len; k < len; k++) s->root[k] = NO_NODE;
    s->root_len = len;
    return 0;
}

int segmenter_add(segmenter *s, const uint32_t *token, size_t n, uint32_t id) {
    uint32_t node = 0;
    for (size_t k = 0; k < n; k++) {
        if (token[k] > 0x10FFFF) return -1; /* not a symbol: callers pass code points or bytes */
        uint32_t next = child_of(s, node, token[k]);
        if (next == NO_NODE) {
            if (new_node(s, &next)) return -1;
            if (node == 0 && token[k] < ROOT_DIRECT) {
                if (root_room(s, token[k])) return -1;
                s->root[token[k]] = next;
            } else {
                if ((s->edge_count + 1) * 2 > s->slots && grow_edges(s)) return -1;
                put_edge(s->edges, s->slots, s->shift, edge_key(node, token[k]), next);
                s->edge_count++;
            }
        }
        node = next;
    }
    /* As the reference's trie: the empty token has no node of its own (a one-token word is found
     * by whole-word lookup, segmenter_whole). */
    if (n == 0) {
        s->has_empty = 1;
        s->empty_id = id;
    } else {
        s->token_of[node] = id;
        s->is_token[node] = 1;
    }
    return 0;
}

void segmenter_set_byte_fallback(segmenter *s, const uint32_t byte_id[256], const uint8_t has_byte[256]) {
    s->has_fallback = 1;
    memcpy(s->byte_id, byte_id, sizeof s->byte_id);
    memcpy(s->has_byte, has_byte, sizeof s->has_byte);
}

int segmenter_has_fallback(const segmenter *s) { return s->has_fallback; }

int segmenter_whole(const segmenter *s, const uint32_t *word, size_t n, uint32_t *id) {
    if (n == 0) {
        *id = s->empty_id;
        return s->has_empty;
    }
    uint32_t node = 0;
    for (size_t k = 0; k < n && node != NO_NODE; k++) node = child_of(s, node, word[k]);
    if (node == NO_NODE || !s->is_token[node]) return 0;
    *id = s->token_of[node];
    return 1;
}

int segmenter_is_token(const segmenter *s, uint32_t symbol) {
    uint32_t node = child_of(s, 0, symbol);
    return node != NO_NODE && s->is_token[node];
}

/* The number of byte-fallback tokens of a symbol that is not a token, or 0 if some byte has no
 * token (or the symbol no UTF-8 form): the reference's fallback raises there. */
static int fallback_length(const segmenter *s, uint32_t symbol) {
    uint8_t bytes[4];
    int k = utf8_encode(symbol, 0, bytes); /* a surrogate has no UTF-8: 0 bytes */
    for (int b = 0; b < k; b++)
        if (!s->has_byte[bytes[b]]) return 0;
    return k;
}

static int append_fallback(const segmenter *s, uint32_t symbol, idbuf *out) {
    uint8_t bytes[4];
    int k = utf8_encode(symbol, 0, bytes); /* a surrogate has no UTF-8: 0 bytes */
    for (int b = 0; b < k; b++)
        if (cpbuf_push(out, s->byte_id[bytes[b]])) return -1;
    return 0;
}

/* The DP of the reference's Segmenter._costs, right to left: cost[i] is the fewest tokens for
 * word[i:], length[i] the longest first token achieving it (0: the fallback edge of the symbol
 * at i) and first[i] that token's id. Ties go to the longer token, as the reference's `c <= best`
 * with j growing does. */
static int costs(const segmenter *s, const uint32_t *word, size_t n, uint32_t *cost, uint32_t *length,
                 uint32_t *first, size_t *at) {
    cost[n] = 0;
    for (size_t i = n; i-- > 0;) {
        uint32_t best = NO_COST, pick = 0, pick_id = 0;
        uint32_t node = child_of(s, 0, word[i]);
        if ((node == NO_NODE || !s->is_token[node]) && s->has_fallback) {
            int k = fallback_length(s, word[i]);
            if (k == 0) { *at = i; return SEGMENT_NO_FALLBACK; }
            if (cost[i + 1] != NO_COST) best = cost[i + 1] + (uint32_t)k;
        }
        size_t j = i + 1;
        while (node != NO_NODE) {
            if (s->is_token[node] && cost[j] != NO_COST && cost[j] + 1 <= best) {
                best = cost[j] + 1;
                pick = (uint32_t)(j - i);
                pick_id = s->token_of[node];
            }
            if (j == n) break;
            node = child_of(s, node, word[j++]);
        }
        cost[i] = best;
        length[i] = pick;
        first[i] = pick_id;
    }
    return SEGMENT_OK;
}

/* The scratch of one segmentation: on the stack for short words, which most pre-tokens are. */
enum { SHORT_WORD = 64 };

int segment_word(const segmenter *s, const uint32_t *word, size_t n, idbuf *out, size_t *at) {
    uint32_t whole;
    if (segmenter_whole(s, word, n, &whole)) return cpbuf_push(out, whole) ? SEGMENT_NO_MEMORY : SEGMENT_OK;
    /* costs stay below 4n + 1 < NO_COST, and the scratch's size does not overflow */
    if (n >= UINT32_MAX / 8 || n + 1 > SIZE_MAX / (3 * sizeof(uint32_t))) return SEGMENT_NO_MEMORY;
    uint32_t small[3 * (SHORT_WORD + 1)];
    uint32_t *scratch = n <= SHORT_WORD ? small : core_realloc_array(NULL, 3 * (n + 1), sizeof *scratch);
    if (!scratch) return SEGMENT_NO_MEMORY;
    uint32_t *cost = scratch, *length = scratch + n + 1, *first = scratch + 2 * (n + 1);
    int result = costs(s, word, n, cost, length, first, at);
    if (result == SEGMENT_OK && cost[0] == NO_COST) { *at = 0; result = SEGMENT_NO_TOKEN; }
    for (size_t i = 0; result == SEGMENT_OK && i < n;) {
        if (length[i]) {
            if (cpbuf_push(out, first[i])) result = SEGMENT_NO_MEMORY;
            i += length[i];
        } else {
            if (append_fallback(s, word[i], out)) result = SEGMENT_NO_MEMORY;
            i += 1;
        }
    }
    if (scratch != small) core_free(scratch);
    return result;
}
