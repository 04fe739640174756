/* The growable code point buffer of core.h. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

void *(*core_realloc)(void *, size_t) = realloc;
void (*core_free)(void *) = free;

void cpbuf_init(cpbuf *b) { b->data = NULL; b->len = b->cap = 0; }

void cpbuf_free(cpbuf *b) { core_free(b->data); cpbuf_init(b); }

int cpbuf_reserve(cpbuf *b, size_t more) {
    if (more <= b->cap - b->len) return 0;
    if (more > (SIZE_MAX / sizeof(uint32_t)) - b->len) return -1;
    size_t need = b->len + more, cap = b->cap ? b->cap : 64;
    while (cap < need) cap = cap > SIZE_MAX / 2 / sizeof(uint32_t) ? need : cap * 2;
    uint32_t *data = core_realloc(b->data, cap * sizeof(uint32_t));
    if (!data) return -1;
    b->data = data;
    b->cap = cap;
    return 0;
}

int cpbuf_push(cpbuf *b, uint32_t cp) {
    if (b->len == b->cap && cpbuf_reserve(b, 1)) return -1;
    b->data[b->len++] = cp;
    return 0;
}

int cpbuf_extend(cpbuf *b, const uint32_t *cps, size_t n) {
    if (cpbuf_reserve(b, n)) return -1;
    if (n) memcpy(b->data + b->len, cps, n * sizeof(uint32_t));
    b->len += n;
    return 0;
}
