/* functok._native: the CPython binding of the C core (core.h). This file holds what the binding's
 * files share (binding.h) and builds the module from their tables and types: bind_codec.c (encode,
 * pretokens, nfc, split), bind_decode.c (decode), bind_detokenize.c (Tokenizer.decode's fast
 * road), bind_segment.c (Segmenter) and bind_tokenizer.c (GreedyEncoder,
 * TiktokenMerger). Each function takes and gives Python objects; the work
 * runs on the text's code points with the GIL released, so that threads run in parallel. The
 * pure path stays the reference. */
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

/* Spec 4.3: a lone surrogate is refused, named by its offset in the text as given. */
int refuse_surrogates(const uint32_t *cps, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        if (cps[i] >= 0xD800 && cps[i] <= 0xDFFF) {
            char text[64];
            snprintf(text, sizeof text, "U+%04X is a surrogate, not a Unicode scalar value", (unsigned)cps[i]);
            PyObject *message = PyUnicode_FromString(text);
            if (message) {
                PyObject *error = PyObject_CallFunction(format_error, "snO", "lone-surrogate", i, message);
                if (error) { PyErr_SetObject(format_error, error); Py_DECREF(error); }
                Py_DECREF(message);
            }
            return -1;
        }
    }
    return 0;
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
    if (m && PyModule_AddFunctions(m, codec_methods)) Py_CLEAR(m);
    if (m && PyModule_AddFunctions(m, decode_methods)) Py_CLEAR(m);
    if (m && PyModule_AddFunctions(m, detokenize_methods)) Py_CLEAR(m);
    if (m && PyModule_AddType(m, &segmenter_type)) Py_CLEAR(m);
    if (m && (PyModule_AddType(m, &GreedyEncoderType) || PyModule_AddType(m, &TiktokenMergerType))) Py_CLEAR(m);
    return m;
}
