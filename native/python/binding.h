/* What the CPython binding's files share (module.c defines these): the module's error type, a
 * str's code points, and the codec's prepared input. Each bind_*.c file adds its functions to
 * functok._native through one table that module.c registers. */
#ifndef FUNCTOK_BINDING_H
#define FUNCTOK_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

extern PyObject *format_error; /* functok.errors.FormatError */

/* The code points of a str (a copy, PyMem_RawFree it), or NULL with an exception set. */
uint32_t *code_points(PyObject *text, Py_ssize_t *n);
/* Spec 4.3: -1 with FormatError("lone-surrogate", offset) set when cps holds a surrogate. */
int refuse_surrogates(const uint32_t *cps, Py_ssize_t n);
/* A str's code units (its data, length and kind, the width in bytes), read in place. */
units str_units(PyObject *text);
/* Spec 4.3 on a str's code units: -1 with FormatError("lone-surrogate", offset) set. */
int refuse_surrogate_units(units text);

/* The str that a stream is written into, chunk by chunk (a stream_sink: output_sink takes an
 * output* as its context), while the GIL is released: set thread from PyEval_SaveThread, and the
 * sink takes the GIL back only to make the str longer or wider. output_close gives the str in
 * its canonical kind. */
typedef struct {
    PyObject *str;
    size_t len, cap;
    uint32_t max; /* the or of the code points written: as wide as the widest */
    PyThreadState *thread;
} output;

int output_open(output *o, size_t capacity, int width); /* -1 with an exception set */
int output_sink(void *context, const uint32_t *chunk, size_t n);
PyObject *output_close(output *o);                       /* NULL with an exception set */
void output_discard(output *o);

/* A str of b's code points. */
PyObject *as_str(const cpbuf *b);

/* The text's code points, checked (4.3) and normalized if asked (4.2): the input of 6 and 9. */
typedef struct {
    uint32_t *given;
    cpbuf normal;
    const uint32_t *text;
    size_t n;
} prepared;

int prepare(PyObject *text, int normalize, prepared *p); /* -1 with an exception set */
void release(prepared *p);

/* bind_shared_cache.c: the pre-token cache of a GreedyEncoder, which its threads share. A call
 * reads it through a view of its own (a pretoken_store's context): open it before the call's
 * first lookup, close it after its last. Lookups take no lock; inserts take the cache's. */
typedef struct shared_cache shared_cache;
typedef struct shared_generation shared_generation;
typedef struct {
    shared_cache *cache;
    shared_generation *young, *old; /* pinned: alive while the view holds them */
    size_t block_serial, block;     /* the block it writes into, in generation block_serial */
} shared_view;

shared_cache *shared_cache_new(size_t limit); /* NULL when memory ran out */
void shared_view_init(shared_view *view);     /* once, before its first open */
void shared_cache_clear(shared_cache *c);
void shared_cache_free(shared_cache *c);      /* with no view open */
void shared_view_open(shared_view *view, shared_cache *c);
void shared_view_close(shared_view *view);
const uint32_t *shared_view_get(void *view, const uint32_t *key, size_t n, size_t *count);
int shared_view_put(void *view, const uint32_t *key, size_t n, const uint32_t *ids, size_t count);

/* The function tables of the bind_*.c files, which module.c adds to the module. */
extern PyMethodDef codec_methods[];
extern PyMethodDef count_methods[]; /* bind_count.c */
extern PyMethodDef decode_methods[]; /* bind_decode.c */
extern PyMethodDef fusion_methods[]; /* bind_fusion.c */
extern PyMethodDef detokenize_methods[]; /* bind_detokenize.c */
/* The types of the bind_*.c files, which module.c adds to the module. */
extern PyTypeObject segmenter_type; /* bind_segment.c: Segmenter (spec 10) */
extern PyTypeObject GreedyEncoderType; /* bind_tokenizer.c */
extern PyTypeObject TiktokenMergerType; /* bind_tiktoken.c */

/* bind_tokenizer.c's conversions, which bind_tiktoken.c shares. */
int as_u32(PyObject *value, uint32_t *out); /* -1 with an exception set */
PyObject *as_list(const idbuf *ids);

#endif
