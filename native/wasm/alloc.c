/* malloc, calloc, realloc and free of the WebAssembly build, in place of zig's libc allocator
 * (zig's are weak symbols; these win at link time). Not part of the core (native/core/).
 *
 * Why: zig 0.17's wasm allocator (lib/std/heap/BrkAllocator.zig) rounds every block up to a
 * power of two, never splits or joins free blocks, and takes each new 64 KiB page for each size
 * class with its own memory.grow. A cold 2 MB encode grew memory about a hundred times, to 89
 * MiB; and V8 counts each grown buffer's whole size as new external memory, so once the memory
 * was tens of MiB nearly every grow started a full mark-compact of the JavaScript heap (the
 * tokenizer's tables): 11 of them inside one encode call, about 200 ms (docs/benchmarks.md).
 *
 * This allocator: blocks with a 4-byte header (size, in use, previous block in use) and, while
 * free, a footer, so that a freed block joins its free neighbours at once; free blocks in
 * segregated lists (exact sizes below 1 KiB, 8 lists per power of two above), found through a
 * bitmap; a block freed next to the unused top of memory goes back to it, and realloc grows the
 * block at the top in place. Memory grows only from the top, by at least an eighth of its size,
 * and heap_reserve lets a large call grow it once, up front, by its estimate of what it uses.
 * Single-threaded, as the module is. Payloads are 16-byte aligned (max_align_t). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "glue.h"

#define PAGE 65536u
#define MAX_PAGES 65535u /* wasm32's 65,536 pages less one, so that `end` fits in 32 bits */
#define GROW_PART 8u    /* memory grows by at least an eighth: few grows, and a page's memory plateaus */
#define ALIGN 16u
#define HEADER 4u      /* a block's head word, just before its payload */
#define MIN_BLOCK 16u  /* head, the two links of a free list, footer */
#define IN_USE 1u
#define PREV_IN_USE 2u
#define FLAGS 15u
#define EXACT_BINS 64u /* sizes 16..1008, one list each */
#define BINS (EXACT_BINS + 8u * 22u)
#define LARGEST (UINT32_MAX - 4u * PAGE) /* larger requests fail (wasm32 has 4 GiB in all) */

extern unsigned char __heap_base; /* the linker's: where the data and the stack end */

typedef struct free_block {
    uint32_t head;
    struct free_block *next, *prev;
} free_block;

static uintptr_t top, end; /* unused memory: [top, end); the block just below top is in use */
static free_block *bins[BINS];
static uint32_t nonempty[(BINS + 31) / 32];

static inline uint32_t *head_of(uintptr_t block) { return (uint32_t *)block; }
static inline uint32_t size_of(uintptr_t block) { return *head_of(block) & ~FLAGS; }
static inline void set_footer(uintptr_t block, uint32_t size) { *(uint32_t *)(block + size - 4) = size; }

static void start(void) {
    /* blocks sit 4 bytes below a multiple of 16, so every payload is aligned */
    top = (((uintptr_t)&__heap_base + HEADER + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1)) - HEADER;
    end = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
}

/* The list of a free block of `size` bytes; a request's list is searched from bin_of(its size). */
static unsigned bin_of(uint32_t size) {
    if (size < EXACT_BINS * 16) return size / 16;
    unsigned log = 31 - (unsigned)__builtin_clz(size); /* 10 and up */
    return EXACT_BINS + 8 * (log - 10) + ((size >> (log - 3)) & 7);
}

static void link_block(uintptr_t block, uint32_t size) {
    unsigned bin = bin_of(size);
    free_block *b = (free_block *)block;
    b->prev = NULL;
    b->next = bins[bin];
    if (b->next) b->next->prev = b;
    bins[bin] = b;
    nonempty[bin / 32] |= 1u << (bin % 32);
}

static void unlink_block(uintptr_t block) {
    free_block *b = (free_block *)block;
    unsigned bin = bin_of(size_of(block));
    if (b->prev) b->prev->next = b->next;
    else bins[bin] = b->next;
    if (b->next) b->next->prev = b->prev;
    if (!bins[bin]) nonempty[bin / 32] &= ~(1u << (bin % 32));
}

/* The first non-empty list at or after `bin`, or BINS. */
static unsigned next_nonempty(unsigned bin) {
    for (unsigned word = bin / 32; word < sizeof nonempty / sizeof *nonempty; word++) {
        uint32_t bits = nonempty[word] & (word == bin / 32 ? ~0u << (bin % 32) : ~0u);
        if (bits) return 32 * word + (unsigned)__builtin_ctz(bits);
    }
    return BINS;
}

/* Make [block, block + size) free, its previous block in use: joined with a free next block, or
 * given back to the top when it ends there. */
static void release(uintptr_t block, uint32_t size) {
    if (block + size == top) {
        top = block;
        return;
    }
    uintptr_t next = block + size;
    if (!(*head_of(next) & IN_USE)) { /* never the block below top: that one is in use */
        unlink_block(next);
        size += size_of(next);
        next = block + size;
    }
    *head_of(block) = size | PREV_IN_USE;
    set_footer(block, size);
    *head_of(next) &= ~PREV_IN_USE;
    link_block(block, size);
}

/* Room for `bytes` more at the top: memory grows by what is missing, and at least an eighth. */
static int grow_top(size_t bytes) {
    if (!end) start();
    if (end - top >= bytes) return 0;
    size_t missing = (bytes - (end - top) + PAGE - 1) / PAGE, pages = end / PAGE;
    if (missing > MAX_PAGES - pages) return -1;
    size_t more = missing > pages / GROW_PART ? missing : pages / GROW_PART;
    if (more > MAX_PAGES - pages) more = MAX_PAGES - pages;
    if (__builtin_wasm_memory_grow(0, more) == SIZE_MAX && __builtin_wasm_memory_grow(0, missing) == SIZE_MAX)
        return -1;
    end = (uintptr_t)__builtin_wasm_memory_size(0) * PAGE;
    return 0;
}

int heap_reserve(size_t bytes) {
    return bytes > LARGEST ? -1 : grow_top(bytes);
}

/* A block of `size` bytes (in use, its head written) from the free lists or the top, or 0. */
static uintptr_t take(uint32_t size) {
    unsigned bin = bin_of(size);
    uintptr_t found = 0;
    if (bin >= EXACT_BINS) { /* a list of mixed sizes: one of its first few blocks may fit */
        free_block *b = bins[bin];
        for (int tries = 0; b && tries < 4 && !found; tries++, b = b->next)
            if (size_of((uintptr_t)b) >= size) found = (uintptr_t)b;
    }
    if (!found) {
        unsigned other = next_nonempty(bin >= EXACT_BINS ? bin + 1 : bin); /* every block there fits */
        if (other < BINS) found = (uintptr_t)bins[other];
    }
    if (found) {
        uint32_t have = size_of(found);
        unlink_block(found);
        if (have - size >= MIN_BLOCK) {
            *head_of(found) = size | IN_USE | PREV_IN_USE;
            uintptr_t rest = found + size;
            *head_of(rest) = (have - size) | PREV_IN_USE;
            set_footer(rest, have - size);
            link_block(rest, have - size); /* its next block already knows a free block is before it */
        } else {
            *head_of(found) = have | IN_USE | PREV_IN_USE;
            uintptr_t next = found + have;
            if (next != top) *head_of(next) |= PREV_IN_USE;
        }
        return found;
    }
    if (grow_top(size)) return 0;
    found = top;
    top += size;
    *head_of(found) = size | IN_USE | PREV_IN_USE;
    return found;
}

static uint32_t block_size(size_t n) {
    uint32_t size = (uint32_t)((n + HEADER + ALIGN - 1) & ~(size_t)(ALIGN - 1));
    return size < MIN_BLOCK ? MIN_BLOCK : size;
}

void *malloc(size_t n) {
    if (n > LARGEST) {
        errno = ENOMEM;
        return NULL;
    }
    uintptr_t block = take(block_size(n));
    if (!block) {
        errno = ENOMEM;
        return NULL;
    }
    return (void *)(block + HEADER);
}

void free(void *p) {
    if (!p) return;
    uintptr_t block = (uintptr_t)p - HEADER;
    uint32_t head = *head_of(block), size = head & ~FLAGS;
    if (!(head & PREV_IN_USE)) { /* join the free block before it */
        uint32_t before = *(uint32_t *)(block - 4);
        block -= before;
        unlink_block(block);
        size += before;
    }
    release(block, size);
}

void *calloc(size_t count, size_t size) {
    if (size && count > LARGEST / size) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = malloc(count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

/* Keep `size` bytes of the block in use (its head rewritten), giving back the rest. */
static void shrink(uintptr_t block, uint32_t have, uint32_t size) {
    if (have - size < MIN_BLOCK) return;
    *head_of(block) = size | (*head_of(block) & FLAGS);
    *head_of(block + size) = (have - size) | IN_USE | PREV_IN_USE;
    release(block + size, have - size);
}

void *realloc(void *p, size_t n) {
    if (!p) return malloc(n);
    if (n > LARGEST) {
        errno = ENOMEM;
        return NULL;
    }
    uintptr_t block = (uintptr_t)p - HEADER;
    uint32_t have = size_of(block), size = block_size(n);
    if (size <= have) {
        shrink(block, have, size);
        return p;
    }
    uintptr_t next = block + have;
    if (next == top) { /* the block at the top grows in place */
        if (grow_top(size - have)) {
            errno = ENOMEM;
            return NULL;
        }
        top = block + size;
        *head_of(block) = size | (*head_of(block) & FLAGS);
        return p;
    }
    if (!(*head_of(next) & IN_USE) && have + size_of(next) >= size) { /* take in the free block after it */
        uint32_t joined = have + size_of(next);
        unlink_block(next);
        *head_of(block) = joined | (*head_of(block) & FLAGS);
        if (block + joined != top) *head_of(block + joined) |= PREV_IN_USE;
        shrink(block, joined, size);
        return p;
    }
    void *moved = malloc(n);
    if (!moved) return NULL;
    memcpy(moved, p, have - HEADER);
    free(p);
    return moved;
}
