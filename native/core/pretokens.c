/* Spec 9: the pre-tokens of a text, as a stream and the offsets where each pre-token ends:
 * "none" cuts every instruction of a group and the base apart (9.1), "all" keeps each encoded
 * piece whole (9.2), "frequent" joins a piece that has a group to the pre-token before it (9.4). */
#include <stdlib.h>

#include "core.h"
#include "opcodes.h"

void offsets_init(offsets *o) { o->data = NULL; o->len = o->cap = 0; }

void offsets_free(offsets *o) { core_free(o->data); offsets_init(o); }

int offsets_push(offsets *o, size_t at) {
    if (core_grow((void **)&o->data, &o->cap, o->len + 1, sizeof *o->data, 256)) return -1;
    o->data[o->len++] = at;
    return 0;
}

/* The group range (spec 2.2): an encoded piece that starts in it has instructions. */
static int in_group(uint32_t c) { return c >= GROUP_FIRST && c <= GROUP_LAST; }

int pretokens(const uint32_t *text, size_t n, int max_digits, int cfg, int fuse, cpbuf *out, offsets *ends) {
    cpbuf group, slots; /* scratch for encode_piece_with */
    cpbuf_init(&group);
    cpbuf_init(&slots);
    int failed = 0;
    for (size_t start = 0; start < n && !failed;) {
        size_t end = piece_end(text, start, n, max_digits), from = out->len;
        int grouped = 0;
        if (!piece_changes(text + start, end - start, cfg)) {
            failed = cpbuf_extend(out, text + start, end - start);
        } else {
            failed = encode_piece_with(text + start, end - start, cfg, out, &group, &slots);
            grouped = !failed && in_group(out->data[from]);
        }
        if (failed) break;
        if (fuse == FUSE_NONE && grouped) { /* each instruction, then the base */
            size_t at = from;
            while (in_group(out->data[at]) && !failed) { /* the encoder writes assigned opcodes only */
                at += 1 + (size_t)opcode_arity(out->data[at]);
                failed = offsets_push(ends, at);
            }
        }
        if (!failed && fuse == FUSE_FREQUENT && grouped && ends->len > 0) ends->data[ends->len - 1] = out->len;
        else if (!failed) failed = offsets_push(ends, out->len);
        start = end;
    }
    cpbuf_free(&group);
    cpbuf_free(&slots);
    return failed ? -1 : 0;
}
