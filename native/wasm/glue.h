/* What the WebAssembly build's two export files share (exports.c: the codec; engine.c: the
 * tokenizer engine): the return codes the JavaScript glue reads, the input encodings, the
 * answer of the last call, and the text conversions. Not part of the core (native/core/). */
#ifndef FUNCTOK_WASM_GLUE_H
#define FUNCTOK_WASM_GLUE_H

#include "../core/core.h"

/* Return codes: FK_SURROGATE, the text holds a lone surrogate; FK_REPLACEMENT, UTF-8 input holds
 * U+FFFD, which may stand for one (send the text again as UTF-16); FK_DECODE_ERROR, a strict
 * decode failed (the error is in the answer); FK_ASK_REFERENCE, the engine cannot answer this
 * input without a question whose answer is the reference's (an error to raise with its own
 * words and offsets): the glue runs the reference. */
enum { FK_OK = 0, FK_NO_MEMORY = -1, FK_SURROGATE = -2, FK_REPLACEMENT = -3, FK_DECODE_ERROR = -4, FK_ASK_REFERENCE = -5 };
enum { UTF8 = 1, UTF16 = 2 }; /* the input's encoding: the width of its code units */

/* What the last call answered: UTF-16 units (a stream or a text), and/or where each pre-token
 * or piece ends in them (UTF-16 offsets). `same` is 1 when the units would equal the input:
 * then the glue returns its own string and `units` is empty. After FK_DECODE_ERROR, the strict
 * decoder's error (8.2): its kind's name, its offset in code points and the pure path's message.
 * Read through fk_answer's pointer (exports.c and native/wasm/core.mjs, js/src/engine/wasm.mjs
 * agree on this layout). */
typedef struct {
    uint16_t *units;
    size_t len;
    size_t *ends;
    size_t n_ends;
    int same;
    const char *error_kind;
    size_t error_offset;
    const char *error_message;
} answer_t;

extern answer_t answer;
void fk_answer_free(void);

/* The code points of the input (n code units of `width` bytes: UTF8 or UTF16), in a new array
 * (free it). A lone surrogate is kept when allow_surrogates, else FK_SURROGATE. */
int to_code_points(const void *input, size_t n, int width, int allow_surrogates, uint32_t **out, size_t *len);
/* The UTF-16 units of cps[0:n] into answer.units; ends (code point offsets), if any, become
 * UTF-16 offsets in place. */
int to_units(const uint32_t *cps, size_t n, size_t *ends, size_t n_ends);
/* The UTF-16 units of a buffer of code points into answer.units, written over the code points
 * themselves (no second buffer); the buffer is handed over (cps is left empty). */
int units_in_place(cpbuf *cps);

/* Grow the module's memory now, once, so that `bytes` more can be had without growing it
 * (alloc.c): a large call asks before it starts. 0, or -1 when memory cannot grow. */
int heap_reserve(size_t bytes);

#endif
