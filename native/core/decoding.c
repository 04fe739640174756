/* Spec 7 and 8: the decoder, over code points, as functok/decoding.py (the reference) defines it and
 * as js/src/decoding.mjs does it, in one pass: the text before the first group, then each group with
 * the text after it (7.1).
 *
 * A group's text is written to the output first; the group is then parsed (7.2) and its case
 * instructions applied to that text in place (7.4, 7.5). Only a group with marks that do not
 * compose into one code point, or with repeats, takes the longer road through a slot list (7.6,
 * 7.7): no instruction can name a slot past 255, so the list keeps its first 256 slots as
 * references into the group's slot strings, and a repeat writes whatever it pushes past slot 255
 * out at once. Work and memory stay linear in the input plus the output, which max_output bounds.
 *
 * Errors go through report(), which does what the mode needs: lenient decoding keeps none, strict
 * decoding keeps the first by spec 8.2's order, and the decoder stops after the group and text
 * that hold it (every later group's errors have larger offsets). The messages are the pure path's. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "opcodes.h"

enum { REPLACEMENT = 0xFFFD };
enum { HEAD_SLOTS = 256 }; /* slots 0..255: the only ones an instruction can name */

typedef struct {
    uint32_t opcode;
    uint8_t args[3];
    size_t offset; /* of the opcode, in the stream */
} instruction;

typedef struct { uint8_t slot, mark; } mark_instruction;  /* mark: its index in UCD_MARKS */
typedef struct { size_t start, len; } slot_ref;           /* a slot's string in the arena */

typedef struct {
    const void *s; /* the stream: n code points of `width` bytes each */
    int width;
    size_t n;
    int strict;
    uint64_t max_output;
    cpbuf *out;
    size_t out_start; /* out's length when this stream began: what came before is not its output */
    decode_error *first; /* strict: the error to raise */
    /* scratch, reused from group to group */
    mark_instruction *marks;
    size_t marks_len, marks_cap;
    size_t *repeats, *ordered;     /* the offsets of the group's repeats (8 bytes each, as in the pure path) */
    size_t repeats_len, repeats_cap, ordered_cap;
    uint8_t *mark_seq;             /* the marks grouped by slot, in stream order within a slot */
    size_t mark_seq_cap;
    size_t mark_start[HEAD_SLOTS + 1];
    cpbuf arena, spill;            /* the slot strings; what repeats push out */
    size_t *spill_ends;
    size_t spill_count, spill_cap;
} decoder;

const char *decode_error_name(int kind) {
    size_t count = sizeof ERROR_KIND_NAMES / sizeof ERROR_KIND_NAMES[0];
    return kind >= 1 && (size_t)kind <= count ? ERROR_KIND_NAMES[kind - 1] : "";
}

/* --- 8.2: which error a strict decoder keeps --------------------------------------------- */

static int precedence(int kind) { /* at one offset: bad-count, bad-range, position-out-of-range */
    return kind == DECODE_BAD_COUNT ? 0 : kind == DECODE_BAD_RANGE ? 1 : kind == DECODE_POSITION_OUT_OF_RANGE ? 2 : 3;
}

/* The lenient decoder acts on an error; a strict one keeps it if it comes first (8.2). The
 * message is formatted only for an error that is kept. */
static void report(decoder *d, int kind, size_t offset, const char *format, ...) {
    decode_error *e = d->first;
    if (!d->strict) return;
    if (e->kind != DECODE_OK &&
        (offset > e->offset || (offset == e->offset && precedence(kind) >= precedence(e->kind))))
        return;
    e->kind = kind;
    e->offset = offset;
    va_list args;
    va_start(args, format);
    vsnprintf(e->message, sizeof e->message, format, args);
    va_end(args);
}

/* --- 7.1: text ----------------------------------------------------------------------------- */

/* A code point that is not a plain slot: a surrogate or one of the format's U+E000..U+EFFF. */
static inline int is_special(uint32_t c) { return c - 0xD800u < 0x800u || c - (uint32_t)GROUP_FIRST <= (uint32_t)(ESCAPE - GROUP_FIRST); }
static inline int in_group(uint32_t c) { return c - (uint32_t)ARGUMENT_FIRST <= (uint32_t)(GROUP_LAST - ARGUMENT_FIRST); }

/* The code point at s[i]. */
static inline uint32_t at(const decoder *d, size_t i) {
    switch (d->width) {
    case 1: return ((const uint8_t *)d->s)[i];
    case 2: return ((const uint16_t *)d->s)[i];
    default: return ((const uint32_t *)d->s)[i];
    }
}

/* The plain slots from s[i] on, up to the next special code point, appended to the output (one
 * loop per width: this is where a decoder spends its time). Returns where they stop, or n + 1
 * when memory runs out. */
#define COPY_PLAIN(type)                                                                      \
    do {                                                                                      \
        const type *s = d->s;                                                                 \
        size_t stop = i;                                                                      \
        while (stop < n && !is_special(s[stop])) stop++;                                      \
        if (stop == i) return stop; /* nothing to copy (and out->data + 0 may be NULL + 0) */ \
        if (cpbuf_reserve(d->out, stop - i)) return n + 1;                                    \
        uint32_t *to = d->out->data + d->out->len;                                            \
        for (size_t k = i; k < stop; k++) *to++ = s[k];                                       \
        d->out->len += stop - i;                                                              \
        return stop;                                                                          \
    } while (0)

static size_t copy_plain(decoder *d, size_t i) {
    size_t n = d->n;
    if (d->width == 1) COPY_PLAIN(uint8_t);
    if (d->width == 2) COPY_PLAIN(uint16_t);
    COPY_PLAIN(uint32_t);
}

/* The slots of the text at s[i], up to the next group or the end, appended to the output (an
 * escape pair is its second code point, a surrogate U+FFFD); *end is where the text stops. */
static int read_text(decoder *d, size_t i, size_t *end) {
    size_t n = d->n;
    while (i < n) {
        if ((i = copy_plain(d, i)) > n) return -1;
        if (i == n) break;
        uint32_t c = at(d, i);
        size_t where = i;
        if (in_group(c)) break;
        if (c == ESCAPE) {
            if (i + 1 == n) {
                report(d, DECODE_ESCAPE_AT_END, i, "ESCAPE is the last code point");
                i = n;
                break;
            }
            c = at(d, where = i + 1);
            i += 2;
        } else {
            i++;
        }
        if (c - 0xD800u < 0x800u) {
            report(d, DECODE_LONE_SURROGATE, where, "U+%04X is a surrogate", (unsigned)c);
            c = REPLACEMENT;
        }
        if (cpbuf_push(d->out, c)) return -1;
    }
    *end = i;
    return 0;
}

/* --- 7.2: parsing a group ------------------------------------------------------------------ */

/* The name and argument count of an assigned opcode, or NULL. */
static const char *opcode_name(uint32_t c, int *arity) {
    if (c < CAPITALIZE || c > MULTIREPEAT) return NULL;
    size_t lo = 0, hi = OPCODE_TABLE_COUNT;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < OPCODE_TABLE[mid].code_point) hi = mid;
        else if (c > OPCODE_TABLE[mid].code_point) lo = mid + 1;
        else {
            *arity = OPCODE_TABLE[mid].arity;
            return OPCODE_TABLE[mid].name;
        }
    }
    return NULL;
}

/* The next well-formed instruction of the group that ends at `end`, read from *at (1), or 0 at
 * the group's end; the parse errors met on the way are reported. */
static int next_instruction(decoder *d, size_t *from, size_t end, instruction *ins) {
    size_t i = *from;
    int arity;
    while (i < end) {
        uint32_t c = at(d, i);
        const char *name = opcode_name(c, &arity);
        if (!name) {
            /* A run of code points that start no instruction: only its first can be a strict
             * decoder's first error. */
            if (c <= ARGUMENT_LAST) report(d, DECODE_STRAY_ARGUMENT, i, "argument not consumed by an instruction");
            else report(d, DECODE_UNKNOWN_OPCODE, i, "U+%04X is not an assigned opcode", (unsigned)c);
            for (i++; i < end && !opcode_name(at(d, i), &arity); i++) {}
            continue;
        }
        size_t j = i + 1;
        while (j < end && j - i <= (size_t)arity && at(d, j) <= ARGUMENT_LAST) j++;
        if (j - i <= (size_t)arity) {
            report(d, DECODE_TRUNCATED_INSTRUCTION, i, "%s needs %d arguments, has %d", name, arity, (int)(j - i - 1));
            i = j;
            continue;
        }
        ins->opcode = c;
        ins->offset = i;
        for (int k = 0; k < arity; k++) ins->args[k] = (uint8_t)(at(d, i + 1 + (size_t)k) - ARGUMENT_FIRST);
        *from = j;
        return 1;
    }
    *from = i;
    return 0;
}

/* 7.3: a group with no slot after it. */
static void dangling(decoder *d, size_t g, size_t end) {
    instruction ins;
    if (d->strict && next_instruction(d, &g, end, &ins))
        report(d, DECODE_DANGLING_GROUP, ins.offset, "instruction group with no text after it");
}

/* --- 7.6: marks ---------------------------------------------------------------------------- */

/* Group the mark instructions by slot (a counting sort, stable): slot k's marks are
 * mark_seq[mark_start[k]:mark_start[k + 1]], in stream order (every mark names a slot below
 * slot_count: the others were reported). */
static int group_marks(decoder *d, size_t slot_count) {
    size_t *start = d->mark_start;
    if (d->marks_len > d->mark_seq_cap) {
        uint8_t *seq = core_realloc(d->mark_seq, d->marks_len);
        if (!seq) return -1;
        d->mark_seq = seq;
        d->mark_seq_cap = d->marks_len;
    }
    memset(start, 0, (slot_count + 1) * sizeof *start);
    for (size_t k = 0; k < d->marks_len; k++) start[d->marks[k].slot + 1]++;
    for (size_t k = 0; k < slot_count; k++) start[k + 1] += start[k];
    size_t next[HEAD_SLOTS];
    memcpy(next, start, slot_count * sizeof *start);
    for (size_t k = 0; k < d->marks_len; k++) d->mark_seq[next[d->marks[k].slot]++] = d->marks[k].mark;
    return 0;
}

/* Each marked slot of text that composes with its marks into one code point becomes it; 1 when
 * every marked slot does (text is then decoded), 0 when one does not (text is left as it is). */
static int compose_in_place(decoder *d, uint32_t *text, size_t slot_count) {
    int64_t composed[HEAD_SLOTS];
    for (size_t k = 0; k < slot_count; k++) {
        size_t count = d->mark_start[k + 1] - d->mark_start[k];
        composed[k] = count ? ucd_compose_marks(text[k], d->mark_seq + d->mark_start[k], count) : text[k];
        if (composed[k] < 0) return 0;
    }
    for (size_t k = 0; k < slot_count; k++) text[k] = (uint32_t)composed[k];
    return 1;
}

/* --- 7.7 and 7.8: repeats over the slot list ------------------------------------------------ */

typedef struct {
    slot_ref refs[HEAD_SLOTS]; /* the list's first 256 slots */
    size_t len;
    uint64_t size;             /* code points output so far, plus the whole list's and the tail's */
} slot_list;

typedef struct { size_t start, end, count, offset; } repeat; /* a range [start, end) and its count */

/* The well-formed REPEAT or MULTIREPEAT at `offset` (the group keeps only where each one is). */
static repeat repeat_at(const decoder *d, size_t offset) {
    repeat r = {at(d, offset + 1) - ARGUMENT_FIRST, 0, 0, offset};
    if (at(d, offset) == REPEAT) {
        r.end = r.start + 1;
        r.count = at(d, offset + 2) - ARGUMENT_FIRST;
    } else {
        r.end = at(d, offset + 2) - ARGUMENT_FIRST;
        r.count = at(d, offset + 3) - ARGUMENT_FIRST;
    }
    return r;
}

/* Whether a repeat passes the checks of 7.7 (in their order) and 7.8, reporting the first that
 * fails; *added is the code points it adds. */
static int repeat_passes(decoder *d, const repeat *r, const slot_list *list, uint64_t *added) {
    if (r->count == 0) {
        report(d, DECODE_BAD_COUNT, r->offset, "a repeat count of 0");
        return 0;
    }
    if (r->end <= r->start) {
        report(d, DECODE_BAD_RANGE, r->offset, "MULTIREPEAT range [%zu, %zu) is empty", r->start, r->end);
        return 0;
    }
    if (r->end > list->len) {
        report(d, DECODE_POSITION_OUT_OF_RANGE, r->offset, "slots [%zu, %zu) of a slot list of %zu",
               r->start, r->end, list->len);
        return 0;
    }
    uint64_t span = 0; /* at most the output so far, so (count - 1) * span cannot overflow */
    for (size_t k = r->start; k < r->end; k++) span += list->refs[k].len;
    *added = (uint64_t)(r->count - 1) * span;
    if (list->size > d->max_output || *added > d->max_output - list->size) {
        report(d, DECODE_OUTPUT_TOO_LARGE, r->offset, "output would reach %llu code points (max_output %llu)",
               (unsigned long long)(list->size + *added), (unsigned long long)d->max_output);
        return 0;
    }
    return 1;
}

/* One slot of the list being built: kept by reference among the first 256, else written out. */
static int put(decoder *d, slot_ref *next, size_t *next_len, slot_ref ref) {
    if (*next_len < HEAD_SLOTS) {
        next[(*next_len)++] = ref;
        return 0;
    }
    return cpbuf_extend(&d->spill, d->arena.data + ref.start, ref.len);
}

/* list[start:end] becomes count copies of itself; what passes slot 255 is one spilled chunk,
 * which comes out before the chunks spilled earlier (it was before them in the list). */
static int expand(decoder *d, const repeat *r, slot_list *list) {
    slot_ref next[HEAD_SLOTS];
    size_t next_len = 0, spilled = d->spill.len;
    for (size_t k = 0; k < r->start; k++) next[next_len++] = list->refs[k];
    for (size_t c = 0; c < r->count; c++)
        for (size_t k = r->start; k < r->end; k++)
            if (put(d, next, &next_len, list->refs[k])) return -1;
    for (size_t k = r->end; k < list->len; k++)
        if (put(d, next, &next_len, list->refs[k])) return -1;
    memcpy(list->refs, next, next_len * sizeof next[0]);
    list->len = next_len;
    if (d->spill.len > spilled) {
        if (core_grow((void **)&d->spill_ends, &d->spill_cap, d->spill_count + 1, sizeof(size_t), 16)) return -1;
        d->spill_ends[d->spill_count++] = d->spill.len;
    }
    return 0;
}

/* The repeats' offsets in the order of 7.7: descending start, ties in stream order. A group holds
 * one or a few (an insertion sort); a hostile one any number (a counting sort by start). */
static int order_repeats(decoder *d) {
    size_t count = d->repeats_len;
    if (count > d->ordered_cap) {
        size_t *ordered = core_realloc(d->ordered, count * sizeof *ordered);
        if (!ordered) return -1;
        d->ordered = ordered;
        d->ordered_cap = count;
    }
    size_t *ordered = d->ordered;
    if (count <= 32) {
        for (size_t k = 0; k < count; k++) {
            size_t offset = d->repeats[k], start = repeat_at(d, offset).start, j = k;
            for (; j > 0 && repeat_at(d, ordered[j - 1]).start < start; j--) ordered[j] = ordered[j - 1];
            ordered[j] = offset;
        }
        return 0;
    }
    size_t next[HEAD_SLOTS + 1] = {0};
    for (size_t k = 0; k < count; k++) next[HEAD_SLOTS - repeat_at(d, d->repeats[k]).start]++;
    for (size_t total = 0, k = 0; k <= HEAD_SLOTS; k++) {
        size_t here = next[k];
        next[k] = total;
        total += here;
    }
    for (size_t k = 0; k < count; k++) ordered[next[HEAD_SLOTS - repeat_at(d, d->repeats[k]).start]++] = d->repeats[k];
    return 0;
}

/* The group's first slot_count slots as slot strings (case is applied already; marks now: 7.6). */
static int fill_slot_list(decoder *d, const uint32_t *text, size_t slot_count, slot_list *list) {
    d->arena.len = d->spill.len = 0;
    d->spill_count = 0;
    for (size_t k = 0; k < slot_count; k++) {
        size_t count = d->marks_len ? d->mark_start[k + 1] - d->mark_start[k] : 0;
        const uint8_t *marks = count ? d->mark_seq + d->mark_start[k] : NULL;
        int64_t composed = count ? ucd_compose_marks(text[k], marks, count) : -1;
        list->refs[k].start = d->arena.len;
        if (cpbuf_push(&d->arena, composed >= 0 ? (uint32_t)composed : text[k])) return -1;
        for (size_t m = 0; composed < 0 && m < count; m++)
            if (cpbuf_push(&d->arena, UCD_MARKS[marks[m]])) return -1;
        list->refs[k].len = d->arena.len - list->refs[k].start;
    }
    list->len = slot_count;
    return 0;
}

/* The group's text at out[base:] decoded through a slot list: its first 256 slots replaced by
 * the list once the repeats are applied and by what the repeats pushed out (the latest first);
 * the rest of the text stays where it is, moved along. */
static int apply_slot_list(decoder *d, size_t base, size_t slot_count) {
    cpbuf *out = d->out;
    slot_list list;
    if (fill_slot_list(d, out->data + base, slot_count, &list)) return -1;
    size_t tail = out->len - base - slot_count;
    list.size = (uint64_t)(base - d->out_start) + d->arena.len + tail;
    if (d->repeats_len && order_repeats(d)) return -1;
    for (size_t k = 0; k < d->repeats_len; k++) {
        repeat r = repeat_at(d, d->ordered[k]);
        uint64_t added;
        if (!repeat_passes(d, &r, &list, &added)) continue;
        list.size += added;
        if (added && expand(d, &r, &list)) return -1;
    }
    size_t head = d->spill.len;
    for (size_t k = 0; k < list.len; k++) head += list.refs[k].len;
    if (head > slot_count && cpbuf_reserve(out, head - slot_count)) return -1;
    uint32_t *text = out->data + base;
    memmove(text + head, text + slot_count, tail * sizeof *text);
    for (size_t k = 0; k < list.len; k++) {
        memcpy(text, d->arena.data + list.refs[k].start, list.refs[k].len * sizeof *text);
        text += list.refs[k].len;
    }
    for (size_t k = d->spill_count; k > 0; k--) {
        size_t from = k > 1 ? d->spill_ends[k - 2] : 0, len = d->spill_ends[k - 1] - from;
        memcpy(text, d->spill.data + from, len * sizeof *text);
        text += len;
    }
    out->len = base + head + tail;
    return 0;
}

/* A group's one repeat applied to its text at out[base:], where every slot is one code point
 * (no marks, or marks composed already): the list is the text, so the repeat is an insertion. */
static int repeat_in_place(decoder *d, size_t base, size_t slot_count) {
    cpbuf *out = d->out;
    slot_list list; /* only its length and size: checked as the slot list would be */
    list.len = slot_count;
    list.size = (uint64_t)(out->len - d->out_start);
    for (size_t k = 0; k < slot_count; k++) list.refs[k].len = 1;
    repeat r = repeat_at(d, d->repeats[0]);
    uint64_t added;
    if (!repeat_passes(d, &r, &list, &added) || !added) return 0;
    if (added > SIZE_MAX / sizeof(uint32_t) || cpbuf_reserve(out, (size_t)added)) return -1; /* no room */
    uint32_t *text = out->data + base;
    size_t width = r.end - r.start, total = out->len - base;
    memmove(text + r.end + added, text + r.end, (total - r.end) * sizeof *text);
    for (size_t c = 1; c < r.count; c++) memcpy(text + r.start + c * width, text + r.start, width * sizeof *text);
    out->len += (size_t)added;
    return 0;
}

/* --- 7.4: applying a group to its text at out[base:] ------------------------------------------ */

static int apply_group(decoder *d, size_t g, size_t end, size_t base) {
    uint32_t *text = d->out->data + base;
    size_t slots = d->out->len - base, slot_count = slots < HEAD_SLOTS ? slots : HEAD_SLOTS;
    instruction ins;
    d->marks_len = d->repeats_len = 0;
    while (next_instruction(d, &g, end, &ins)) {
        unsigned a = ins.args[0], b = ins.args[1];
        if (ins.opcode == REPEAT || ins.opcode == MULTIREPEAT) {
            if (core_grow((void **)&d->repeats, &d->repeats_cap, d->repeats_len + 1, sizeof(size_t), 16)) return -1;
            d->repeats[d->repeats_len++] = ins.offset;
        } else if (ins.opcode == UPPERCASE) { /* case now, marks after all (7.5) */
            if (b <= a) report(d, DECODE_BAD_RANGE, ins.offset, "UPPERCASE range [%u, %u) is empty", a, b);
            else if (b > slot_count)
                report(d, DECODE_POSITION_OUT_OF_RANGE, ins.offset, "slots [%u, %u) of a text with %zu slots", a, b, slot_count);
            else
                for (unsigned k = a; k < b; k++) text[k] = ucd_upper(text[k]);
        } else if (a >= slot_count) {
            report(d, DECODE_POSITION_OUT_OF_RANGE, ins.offset, "slot %u of a text with %zu slots", a, slot_count);
        } else if (ins.opcode == CAPITALIZE) {
            text[a] = ucd_upper(text[a]);
        } else {
            if (core_grow((void **)&d->marks, &d->marks_cap, d->marks_len + 1, sizeof d->marks[0], 16)) return -1;
            d->marks[d->marks_len++] = (mark_instruction){(uint8_t)a, (uint8_t)(ins.opcode - FIRST_MARK)};
        }
    }
    if (d->marks_len && group_marks(d, slot_count)) return -1;
    int composed = !d->marks_len || compose_in_place(d, text, slot_count);
    if (composed) d->marks_len = 0; /* every slot is one code point, its marks applied */
    if (composed && !d->repeats_len) return 0;
    if (composed && d->repeats_len == 1) return repeat_in_place(d, base, slot_count);
    return apply_slot_list(d, base, slot_count);
}

/* --- 7.9: the whole decoder ----------------------------------------------------------------- */

int decode_stream(const void *s, int width, size_t n, int strict, uint64_t max_output, cpbuf *out, decode_error *error) {
    decoder d = {.s = s, .width = width, .n = n, .strict = strict, .max_output = max_output, .out = out,
                 .out_start = out->len, .first = error};
    *error = (decode_error){.kind = DECODE_OK};
    size_t i = 0;
    int failed = read_text(&d, 0, &i); /* text0 */
    while (!failed && i < n && error->kind == DECODE_OK) {
        size_t g = i, base = out->len, end;
        while (i < n && in_group(at(&d, i))) i++;
        failed = read_text(&d, i, &end);
        if (failed) break;
        if (out->len == base) dangling(&d, g, i);
        else failed = apply_group(&d, g, i, base);
        i = end;
    }
    core_free(d.marks);
    core_free(d.repeats);
    core_free(d.ordered);
    core_free(d.mark_seq);
    core_free(d.spill_ends);
    cpbuf_free(&d.arena);
    cpbuf_free(&d.spill);
    return failed;
}
