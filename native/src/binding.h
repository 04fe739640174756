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

/* The function tables of the bind_*.c files, which module.c adds to the module. */
extern PyMethodDef codec_methods[];
extern PyMethodDef decode_methods[]; /* bind_decode.c */
extern PyMethodDef detokenize_methods[]; /* bind_detokenize.c */
/* The types of the bind_*.c files, which module.c adds to the module. */
extern PyTypeObject segmenter_type; /* bind_segment.c: Segmenter (spec 10) */

/* The types of the bind_*.c files, which module.c adds to the module. */
extern PyTypeObject GreedyEncoderType, TiktokenMergerType; /* bind_tokenizer.c */

#endif
