/* The codec's functions in functok._native: encode (spec 6), pretokens (9), nfc (4.2) and split (5).
 * Each runs the core with the GIL released, on the text's code units in place (encode) or on a
 * copy of its code points. */
#include "binding.h"

static PyObject *native_encode(PyObject *self, PyObject *args) {
    PyObject *text;
    int max_digits, cfg, normalize;
    if (!PyArg_ParseTuple(args, "Uiip:encode", &text, &max_digits, &cfg, &normalize)) return NULL;
    units given = str_units(text); /* read in place: the str is immutable and held by args */
    if (refuse_surrogate_units(given)) return NULL;
    /* The stream is about as long as the text; an instruction or an escape needs 2 bytes. */
    int width = given.width > 2 ? 4 : (cfg & (CFG_CASE | CFG_MARKS | CFG_REPEAT)) ? 2 : given.width;
    size_t n = given.n;
    output out;
    if (output_open(&out, n + n / 4 + 64, width)) return NULL;
    out.thread = PyEval_SaveThread();
    int failed = encode_units(given, normalize, max_digits, cfg, output_sink, &out);
    PyEval_RestoreThread(out.thread);
    if (failed) {
        output_discard(&out);
        return PyErr_NoMemory();
    }
    return output_close(&out);
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

PyMethodDef codec_methods[] = {
    {"encode", native_encode, METH_VARARGS,
     "encode(text, max_digits, cfg, normalize) -> str: the stream of text (spec 6)."},
    {"pretokens", native_pretokens, METH_VARARGS,
     "pretokens(text, max_digits, cfg, normalize, fuse) -> list[str]: the pre-tokens (spec 9)."},
    {"nfc", native_nfc, METH_O, "nfc(text) -> str: NFC from the pinned tables (spec 4.2)."},
    {"split", native_split, METH_VARARGS, "split(text, max_digits) -> list[str]: the pieces (spec 5)."},
    {NULL, NULL, 0, NULL},
};

