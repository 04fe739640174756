/* Training's parts of the functok C core: the pre-token counts (count.c) and the fusion merges
 * (fusion.c). Apart from core.h because only training uses them: the codec, the decoder and
 * the tokenizer never do. */
#ifndef FUNCTOK_TRAINING_H
#define FUNCTOK_TRAINING_H

#include "core.h"

/* --- Training's pre-token counts (count.c) ------------------------------------------------ */

/* A key's code points are keys.data[start:start + len]; a chain's key also has its segments'
 * ends (all but the last, relative to its start) at cuts.data[cuts_at:cuts_at + ncuts]. */
typedef struct {
    size_t start, len, cuts_at, ncuts;
    uint64_t hash, count;
} count_entry;

/* How often each key was added, the keys in the order first added (entries[0:len]). */
typedef struct {
    cpbuf keys;
    offsets cuts;
    count_entry *entries;
    size_t len, cap;
    uint64_t *slots;           /* open addressing: hash bits and an entry's index + 1, or 0 */
    size_t slot_count;
    uint64_t seed;             /* of the hash: set it (at random) before the first key */
} counter;

void counter_init(counter *c);
void counter_free(counter *c);
/* Counts key[0:n] once more; the first time, its segment ends cuts[0:ncuts] (a chain's; none
 * for a pre-token) are kept with it. */
int counter_add(counter *c, const uint32_t *key, size_t n, const size_t *cuts, size_t ncuts);
/* counter_add, and the index of key's entry in *index. */
int counter_index(counter *c, const uint32_t *key, size_t n, const size_t *cuts, size_t ncuts, size_t *index);
/* What the functions below return besides 0 and -1 (out of memory): packed input that is not
 * well formed, and a count that would pass 2^64 - 1 (counts are uint64, as the trainer's are). */
enum { COUNT_INVALID = -2, COUNT_OVERFLOW = -3 };
/* Room in the hash table for `more` keys beyond those counted, so that adding them rehashes nothing
 * (a table rebuilt as it doubles reads every entry again, at a cache miss each). */
int counter_reserve(counter *c, size_t more);
/* Counts key[0:n] `count` (> 0) more times (cuts as counter_add's). */
int counter_add_count(counter *c, const uint32_t *key, size_t n, const size_t *cuts, size_t ncuts, uint64_t count);
/* Drops the keys counted fewer than min_count times (functok train --min-count), the others kept in
 * their order, and gives back the room where realloc can; the counter is whole on a failure. */
int counter_prune(counter *c, uint64_t min_count);
/* The packed form of a counter's keys (pretoken_counts.py's PackedCounts.data): each key's UTF-8
 * (a surrogate in its 3-byte form), joined by separator's. counter_pack writes the
 * counter_packed_size bytes to out. */
size_t counter_packed_size(const counter *c, uint32_t separator);
void counter_pack(const counter *c, uint32_t separator, uint8_t *out);
/* Adds packed keys (data[0:n], as counter_pack writes them) with their counts[0:ncounts] (each
 * > 0), so that shards counted apart merge with no object per key: COUNT_INVALID where the bytes
 * are not UTF-8 or do not hold ncounts keys. */
int counter_add_packed(counter *c, const uint8_t *data, size_t n, uint32_t separator, const uint64_t *counts,
                       size_t ncounts);
/* Adds chains in fusion.py's ChainTable form: segment s is text[segment_ends[s-1]:segment_ends[s]]
 * (from 0 for s = 0), chain k is the segments chain_segments[chain_starts[k]:chain_starts[k+1]]
 * (chain_starts has nchains + 1 items, from 0 to nlinks) counted counts[k] times. COUNT_INVALID
 * for an index or a start out of range. */
int counter_add_chains(counter *c, const uint32_t *text, const size_t *segment_ends, size_t nsegments,
                       const int32_t *chain_segments, size_t nlinks, const int64_t *chain_starts,
                       const uint64_t *counts, size_t nchains);
/* The pre-tokens of text under fuse counted into words, as functok's training counts them; with
 * chains, the pre-tokens are those of "none" and each chain of 9.4 of two segments or more is
 * counted into chains as well. */
int count_pretokens(const uint32_t *text, size_t n, int max_digits, int cfg, int fuse, counter *words,
                    counter *chains);

/* --- Training's fusion merges (fusion.c) -------------------------------------------------- */

/* The input of fusion_merges: the tokens (text[token_ends[i-1]:token_ends[i]], token_ends[-1]
 * being 0; unmergeable[i]: a byte-fallback token, which no fusion merge joins), the distinct
 * segments (segment_tokens[segment_starts[j]:segment_starts[j+1]] their tokens' ids, instruction[j]
 * whether the segment is one), and the distinct chains (chain_segments[chain_starts[k]:
 * chain_starts[k+1]] their segments' indices, counts[k] > 0 how often each occurs). */
typedef struct {
    const uint32_t *text;
    const size_t *token_ends;
    const uint8_t *unmergeable;
    size_t ntokens;
    const int32_t *segment_tokens;
    const int64_t *segment_starts;
    const uint8_t *instruction;
    size_t nsegments;
    const int32_t *chain_segments;
    const int64_t *chain_starts;
    const uint64_t *counts;
    size_t nchains;
} fusion_input;

/* The merges found: merges[2i], merges[2i+1] the token ids of merge i, in a token table that is the
 * input's with the merges' new tokens after it (text[ends[i-1]:ends[i]]). */
typedef struct {
    uint32_t *merges;
    size_t len, cap;
    cpbuf text;
    size_t *ends, ntokens;
} fusion_result;

enum { FUSION_INVALID = -2, FUSION_OVERFLOW = -3 };
/* Up to limit fusion merges of spec 9.4's training, the most frequent legal pair first (ties: the
 * smaller pair of strings), each applied before the next is counted, stopping at the first pair
 * counted fewer than min_count times; seed keys the hash tables. 0, or -1 out of memory,
 * FUSION_INVALID for indices out of range or a count of 0, FUSION_OVERFLOW for a pair counted 2^64
 * times or more or more than 2^32 - 2 symbols, tokens or pairs (out is then empty). */
int fusion_merges(const fusion_input *in, size_t limit, uint64_t min_count, uint64_t seed, fusion_result *out);
void fusion_result_free(fusion_result *out);

#endif
