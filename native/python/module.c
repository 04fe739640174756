/* functok._native: the CPython binding of the C core (core.h). This file holds what the binding's
 * files share (binding.h) and builds the module from their tables and types: bind_codec.c (encode,
 * pretokens, nfc, split), bind_count.c (count_pretokens, for training), bind_decode.c (decode),
 * bind_detokenize.c (Tokenizer.decode's fast road), bind_segment.c (Segmenter),
 * bind_fusion.c (fusion_merges, for training), bind_tokenizer.c (GreedyEncoder) and bind_tiktoken.c
 * (TiktokenMerger). Each function takes
 * and gives Python objects;
 * the work runs on the text's code points (read in place, or a copy) with the GIL released, so
 * that threads run in parallel. The pure path stays the reference. */
#include <stdlib.h>
#include <string.h>

#include "binding.h"

PyObject *format_error; /* functok.errors.FormatError */

/* The code points of a str (a copy), or NULL with an exception set. */
uint32_t *code_points(PyObject *text, Py_ssize_t *n) {
    *n = PyUnicode_GET_LENGTH(text);
    uint32_t *cps = PyMem_RawMalloc((size_t)(*n ? *n : 1) * sizeof(uint32_t));
    if (!cps) { PyErr_NoMemory(); return NULL; }
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *d = data;
        for (Py_ssize_t i = 0; i < *n; i++) cps[i] = d[i];
    } else if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *d = data;
        for (Py_ssize_t i = 0; i < *n; i++) cps[i] = d[i];
    } else {
        memcpy(cps, data, (size_t)*n * sizeof(uint32_t));
    }
    return cps;
}

/* FormatError("lone-surrogate", offset) for the surrogate cp at offset in the text as given. */
static void raise_surrogate(uint32_t cp, Py_ssize_t offset) {
    char text[64];
    snprintf(text, sizeof text, "U+%04X is a surrogate, not a Unicode scalar value", (unsigned)cp);
    PyObject *message = PyUnicode_FromString(text);
    if (message) {
        PyObject *error = PyObject_CallFunction(format_error, "snO", "lone-surrogate", offset, message);
        if (error) { PyErr_SetObject(format_error, error); Py_DECREF(error); }
        Py_DECREF(message);
    }
}

/* Spec 4.3: a lone surrogate is refused, named by its offset in the text as given. */
int refuse_surrogates(const uint32_t *cps, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        if (cps[i] >= 0xD800 && cps[i] <= 0xDFFF) {
            raise_surrogate(cps[i], i);
            return -1;
        }
    }
    return 0;
}

units str_units(PyObject *text) {
    units u = {PyUnicode_DATA(text), (size_t)PyUnicode_GET_LENGTH(text), PyUnicode_KIND(text)};
    return u; /* PyUnicode_1BYTE_KIND is 1, 2BYTE 2, 4BYTE 4: the width in bytes */
}

int refuse_surrogate_units(units text) {
    size_t at = first_surrogate(text);
    if (at == text.n) return 0;
    raise_surrogate(PyUnicode_READ(text.width, text.data, at), (Py_ssize_t)at);
    return -1;
}

PyObject *as_str(const cpbuf *b) {
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, b->len ? b->data : (const uint32_t *)"", (Py_ssize_t)b->len);
}

int prepare(PyObject *text, int normalize, prepared *p) {
    Py_ssize_t n;
    cpbuf_init(&p->normal);
    p->given = code_points(text, &n);
    if (!p->given) return -1;
    if (refuse_surrogates(p->given, n)) return -1;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    failed = normalize ? nfc(p->given, (size_t)n, &p->normal) : 1;
    Py_END_ALLOW_THREADS
    if (failed < 0) { PyErr_NoMemory(); return -1; }
    p->text = failed == 0 ? p->normal.data : p->given; /* 1: the text as given is NFC */
    p->n = failed == 0 ? p->normal.len : (size_t)n;
    return 0;
}

void release(prepared *p) {
    PyMem_RawFree(p->given);
    cpbuf_free(&p->normal);
}

/* The str that encode writes: made before the GIL is released, in the width the stream will
 * most likely need, and written in place (nothing else holds it yet). Only when a chunk does
 * not fit does the sink take the GIL back, to make the str longer or wider. */
static int output_width(uint32_t max) { return max < 0x100 ? 1 : max < 0x10000 ? 2 : 4; }

int output_open(output *o, size_t capacity, int width) {
    o->thread = NULL;
    o->len = 0;
    o->max = 0;
    o->cap = capacity;
    o->str = PyUnicode_New((Py_ssize_t)capacity, width == 1 ? 0xFF : width == 2 ? 0xFFFF : 0x10FFFF);
    return o->str ? 0 : -1;
}

/* A new str of capacity code points and width, holding what o holds; with the GIL held. */
static int output_move(output *o, size_t capacity, int width) {
    if (width == PyUnicode_KIND(o->str)) return PyUnicode_Resize(&o->str, (Py_ssize_t)capacity);
    PyObject *wider = PyUnicode_New((Py_ssize_t)capacity, width == 2 ? 0xFFFF : 0x10FFFF);
    if (!wider) return -1;
    for (size_t i = 0; i < o->len; i++) /* only ever wider: the copy cannot lose a code point */
        PyUnicode_WRITE(width, PyUnicode_DATA(wider), i, PyUnicode_READ_CHAR(o->str, (Py_ssize_t)i));
    Py_SETREF(o->str, wider);
    return 0;
}

/* chunk written at o's end in o's width; the bits of all its code points or'ed, or'ed into acc
 * (the widest code point's width is the or's: the widths are powers of two). */
static uint32_t output_write(output *o, const uint32_t *chunk, size_t n) {
    uint32_t acc = 0;
    void *data = PyUnicode_DATA(o->str);
    switch (PyUnicode_KIND(o->str)) {
    case PyUnicode_1BYTE_KIND:
        for (size_t i = 0; i < n; i++) ((Py_UCS1 *)data)[o->len + i] = (Py_UCS1)chunk[i], acc |= chunk[i];
        break;
    case PyUnicode_2BYTE_KIND:
        for (size_t i = 0; i < n; i++) ((Py_UCS2 *)data)[o->len + i] = (Py_UCS2)chunk[i], acc |= chunk[i];
        break;
    default:
        for (size_t i = 0; i < n; i++) ((Py_UCS4 *)data)[o->len + i] = chunk[i], acc |= chunk[i];
    }
    return acc;
}

int output_sink(void *context, const uint32_t *chunk, size_t n) {
    output *o = context;
    uint32_t acc = n <= o->cap - o->len ? output_write(o, chunk, n) : 0x110000;
    int kind = PyUnicode_KIND(o->str);
    if (output_width(acc) > kind || n > o->cap - o->len) { /* it did not fit: a longer or wider str */
        uint32_t max = 0;
        for (size_t i = 0; i < n; i++) max = chunk[i] > max ? chunk[i] : max;
        size_t capacity = n > o->cap - o->len ? o->len + n + (o->len + n) / 2 : o->cap;
        if (capacity > SIZE_MAX / 8) return -1; /* a str of it could not be made */
        PyEval_RestoreThread(o->thread);        /* the GIL, to make a str */
        int width = output_width(max), failed = output_move(o, capacity, width > kind ? width : kind);
        if (failed) PyErr_Clear(); /* the caller raises MemoryError */
        o->thread = PyEval_SaveThread();
        if (failed) return -1;
        o->cap = capacity;
        acc = output_write(o, chunk, n);
    }
    o->len += n;
    o->max |= acc;
    return 0;
}

PyObject *output_close(output *o) {
    PyObject *s = o->str;
    o->str = NULL;
    if (output_width(o->max) < PyUnicode_KIND(s) || (o->max < 0x80 && !PyUnicode_IS_ASCII(s))) { /* max: an or */
        /* narrower than made (or ASCII): the str in its canonical kind */
        PyObject *narrow = PyUnicode_FromKindAndData(PyUnicode_KIND(s), PyUnicode_DATA(s), (Py_ssize_t)o->len);
        Py_DECREF(s);
        return narrow;
    }
    if (o->len < o->cap && PyUnicode_Resize(&s, (Py_ssize_t)o->len)) {
        Py_XDECREF(s);
        return NULL;
    }
    return s;
}

void output_discard(output *o) { Py_CLEAR(o->str); }

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "functok._native",
                                    "The C core of functok (native/): the codec, identical to the pure path.",
                                    -1, NULL};

PyMODINIT_FUNC PyInit__native(void) {
    ucd_init();
    core_realloc = PyMem_RawRealloc; /* the core's memory, as tracemalloc sees the pure path's */
    core_free = PyMem_RawFree;
    PyObject *errors = PyImport_ImportModule("functok.errors");
    if (!errors) return NULL;
    format_error = PyObject_GetAttrString(errors, "FormatError");
    Py_DECREF(errors);
    if (!format_error) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddFunctions(m, codec_methods) || PyModule_AddFunctions(m, count_methods))) Py_CLEAR(m);
    if (m && PyModule_AddFunctions(m, decode_methods)) Py_CLEAR(m);
    if (m && PyModule_AddFunctions(m, fusion_methods)) Py_CLEAR(m);
    if (m && PyModule_AddFunctions(m, detokenize_methods)) Py_CLEAR(m);
    if (m && PyModule_AddType(m, &segmenter_type)) Py_CLEAR(m);
    if (m && (PyModule_AddType(m, &GreedyEncoderType) || PyModule_AddType(m, &TiktokenMergerType))) Py_CLEAR(m);
    return m;
}
