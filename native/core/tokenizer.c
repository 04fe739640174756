/* Spec 14.4: a tokenizer's greedy encode of one stretch of text (between special tokens, which
 * the binding cuts): the codec's pre-tokens (9, pretokens.c), then each pre-token's ids, from
 * the workspace's bounded cache (or the one it shares with other threads) or from greedy BPE
 * (bpe.c) on a miss. */
#include "core.h"

/* Working memory above this many code points is given back after a call, so that one huge
 * text does not stay held by a workspace. */
#define KEEP_LIMIT ((size_t)1 << 20)

void greedy_workspace_init(greedy_workspace *w, size_t cache_limit) {
    pretoken_cache_init(&w->cache, cache_limit);
    w->shared = (pretoken_store){NULL, NULL, NULL};
    bpe_scratch_init(&w->scratch);
    cpbuf_init(&w->stream);
    offsets_init(&w->ends);
}

void greedy_workspace_free(greedy_workspace *w) {
    pretoken_cache_free(&w->cache);
    bpe_scratch_free(&w->scratch);
    cpbuf_free(&w->stream);
    offsets_free(&w->ends);
}

static int pretoken_ids(const greedy_tokenizer *t, greedy_workspace *w, const uint32_t *p, size_t n, idbuf *out) {
    size_t count;
    const pretoken_store *shared = &w->shared;
    const uint32_t *cached = shared->get ? shared->get(shared->cache, p, n, &count)
                                         : pretoken_cache_get(&w->cache, p, n, &count);
    if (cached) return cpbuf_extend(out, cached, count);
    size_t from = out->len;
    if (bpe_word(&t->bpe, &w->scratch, p, n, out)) return -1;
    if (shared->put) return shared->put(shared->cache, p, n, out->data + from, out->len - from);
    return pretoken_cache_put(&w->cache, p, n, out->data + from, out->len - from);
}

int greedy_encode(const greedy_tokenizer *t, greedy_workspace *w, const uint32_t *text, size_t n, idbuf *out) {
    w->stream.len = w->ends.len = 0;
    int failed = pretokens(text, n, t->max_digits, t->cfg, t->fuse, &w->stream, &w->ends);
    for (size_t k = 0, start = 0; !failed && k < w->ends.len; k++) {
        failed = pretoken_ids(t, w, w->stream.data + start, w->ends.data[k] - start, out);
        start = w->ends.data[k];
    }
    if (w->stream.cap > KEEP_LIMIT) cpbuf_free(&w->stream);
    if (w->ends.cap > KEEP_LIMIT) offsets_free(&w->ends);
    if (w->scratch.cap > KEEP_LIMIT || w->scratch.symbols.cap > KEEP_LIMIT || w->scratch.queue_cap > KEEP_LIMIT)
        bpe_scratch_free(&w->scratch);
    return failed ? -1 : 0;
}
