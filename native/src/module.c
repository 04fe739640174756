/* functok._native: the CPython binding of the C core (core.h). Each function takes and gives
 * str; the work runs on a copy of the text's code points with the GIL released, so that threads
 * encode in parallel. functok.encode calls it, and the pure path stays the reference. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

static PyObject *format_error; /* functok.errors.FormatError */

/* The code points of a str (a copy), or NULL with an exception set. */
static uint32_t *code_points(PyObject *text, Py_ssize_t *n) {
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
static int refuse_surrogates(const uint32_t *cps, Py_ssize_t n) {
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

static PyObject *as_str(const cpbuf *b) {
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, b->len ? b->data : (const uint32_t *)"", (Py_ssize_t)b->len);
}

/* The text's code points, checked (4.3) and normalized if asked (4.2): the input of 6 and 9. */
typedef struct {
    uint32_t *given;
    cpbuf normal;
    const uint32_t *text;
    size_t n;
} prepared;

static int prepare(PyObject *text, int normalize, prepared *p) {
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

static void release(prepared *p) {
    PyMem_RawFree(p->given);
    cpbuf_free(&p->normal);
}

static PyObject *native_encode(PyObject *self, PyObject *args) {
    PyObject *text;
    int max_digits, cfg, normalize;
    if (!PyArg_ParseTuple(args, "Uiip:encode", &text, &max_digits, &cfg, &normalize)) return NULL;
    prepared p;
    if (prepare(text, normalize, &p)) { release(&p); return NULL; }
    cpbuf out;
    cpbuf_init(&out);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = encode_text(p.text, p.n, max_digits, cfg, &out);
    Py_END_ALLOW_THREADS
    PyObject *result = failed ? PyErr_NoMemory() : as_str(&out);
    release(&p);
    cpbuf_free(&out);
    return result;
}

static PyObject *native_pretokens(PyObject *self, PyObject *args) {
    PyObject *text;
    int max_digits, cfg, normalize, fuse;
    if (!PyArg_ParseTuple(args, "Uiipi:pretokens", &text, &max_digits, &cfg, &normalize, &fuse)) return NULL;
    prepared p;
    if (prepare(text, normalize, &p)) { release(&p); return NULL; }
    cpbuf stream;
    offsets ends;
    cpbuf_init(&stream);
    offsets_init(&ends);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = pretokens(p.text, p.n, max_digits, cfg, fuse, &stream, &ends);
    Py_END_ALLOW_THREADS
    PyObject *list = failed ? PyErr_NoMemory() : PyList_New((Py_ssize_t)ends.len);
    for (size_t k = 0, start = 0; list && k < ends.len; k++) {
        PyObject *token = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, stream.data + start,
                                                    (Py_ssize_t)(ends.data[k] - start));
        if (!token) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)k, token);
        start = ends.data[k];
    }
    release(&p);
    cpbuf_free(&stream);
    offsets_free(&ends);
    return list;
}

static PyObject *native_nfc(PyObject *self, PyObject *text) {
    if (!PyUnicode_Check(text)) return PyErr_Format(PyExc_TypeError, "expected str, not %.100s", Py_TYPE(text)->tp_name);
    Py_ssize_t n;
    uint32_t *cps = code_points(text, &n);
    if (!cps) return NULL;
    cpbuf out;
    cpbuf_init(&out);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = nfc(cps, (size_t)n, &out);
    Py_END_ALLOW_THREADS
    PyObject *result = failed < 0 ? PyErr_NoMemory() : failed == 1 ? Py_NewRef(text) : as_str(&out);
    PyMem_RawFree(cps);
    cpbuf_free(&out);
    return result;
}

static PyObject *native_split(PyObject *self, PyObject *args) {
    PyObject *text;
    int max_digits;
    if (!PyArg_ParseTuple(args, "Ui:split", &text, &max_digits)) return NULL;
    Py_ssize_t n;
    uint32_t *cps = code_points(text, &n);
    if (!cps) return NULL;
    PyObject *pieces = PyList_New(0);
    for (size_t start = 0; pieces && start < (size_t)n;) {
        size_t end = piece_end(cps, start, (size_t)n, max_digits);
        PyObject *piece = PyUnicode_Substring(text, (Py_ssize_t)start, (Py_ssize_t)end);
        if (!piece || PyList_Append(pieces, piece)) Py_CLEAR(pieces);
        Py_XDECREF(piece);
        start = end;
    }
    PyMem_RawFree(cps);
    return pieces;
}

static PyMethodDef methods[] = {
    {"encode", native_encode, METH_VARARGS,
     "encode(text, max_digits, cfg, normalize) -> str: the stream of text (spec 6)."},
    {"pretokens", native_pretokens, METH_VARARGS,
     "pretokens(text, max_digits, cfg, normalize, fuse) -> list[str]: the pre-tokens (spec 9)."},
    {"nfc", native_nfc, METH_O, "nfc(text) -> str: NFC from the pinned tables (spec 4.2)."},
    {"split", native_split, METH_VARARGS, "split(text, max_digits) -> list[str]: the pieces (spec 5)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "functok._native",
                                    "The C core of functok (native/): the codec, identical to the pure path.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__native(void) {
    ucd_init();
    PyObject *errors = PyImport_ImportModule("functok.errors");
    if (!errors) return NULL;
    format_error = PyObject_GetAttrString(errors, "FormatError");
    Py_DECREF(errors);
    if (!format_error) return NULL;
    return PyModule_Create(&module);
}
