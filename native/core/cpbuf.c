/* The growable code point buffer of core.h. */
#include <stdlib.h>
#include <string.h>

#include "core.h"

void *(*core_realloc)(void *, size_t) = realloc;
void (*core_free)(void *) = free;

void *core_realloc_array(void *data, size_t count, size_t size) {
    return size && count > SIZE_MAX / size ? NULL : core_realloc(data, count * size);
}

void *core_calloc(size_t count, size_t size) {
    void *data = core_realloc_array(NULL, count ? count : 1, size ? size : 1);
    if (data) memset(data, 0, (count ? count : 1) * (size ? size : 1));
    return data;
}

int core_grow(void **data, size_t *cap, size_t need, size_t size, size_t first) {
    if (need <= *cap) return 0;
    size_t more = *cap ? *cap : first;
    while (more < need) more = more > SIZE_MAX / 2 ? need : more * 2;
    void *bigger = core_realloc_array(*data, more, size);
    if (!bigger) return -1;
    *data = bigger;
    *cap = more;
    return 0;
}

void cpbuf_init(cpbuf *b) { b->data = NULL; b->len = b->cap = 0; }

void cpbuf_free(cpbuf *b) { core_free(b->data); cpbuf_init(b); }

int cpbuf_reserve(cpbuf *b, size_t more) {
    if (more > SIZE_MAX - b->len) return -1;
    return core_grow((void **)&b->data, &b->cap, b->len + more, sizeof(uint32_t), 64);
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
