/* The decoder's function in functok._native: decode (spec 7 and 8). The core reads the str's own
 * storage (1, 2 or 4 bytes a code point; a str is immutable, and this call holds a reference)
 * with the GIL released, and the binding raises the pure path's FormatError. */
#include "binding.h"

/* Whether a str holds no code point the decoder changes (no surrogate, none of U+E000..U+EFFF):
 * plain text is its own decoding, as in the pure path. */
static int plain_text(PyObject *stream) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(stream);
    int kind = PyUnicode_KIND(stream);
    const void *data = PyUnicode_DATA(stream);
    if (kind == PyUnicode_1BYTE_KIND) return 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c - 0xD800u < 0x800u || c - 0xE000u < 0x1000u) return 0;
    }
    return 1;
}

static PyObject *raise_decode_error(const decode_error *error) {
    PyObject *exception = PyObject_CallFunction(format_error, "sns", decode_error_name(error->kind),
                                                (Py_ssize_t)error->offset, error->message);
    if (exception) {
        PyErr_SetObject(format_error, exception);
        Py_DECREF(exception);
    }
    return NULL;
}

static PyObject *native_decode(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *stream, *limit;
    int strict;
    if (!PyArg_ParseTuple(args, "UpO!:decode", &stream, &strict, &PyLong_Type, &limit)) return NULL;
    /* max_output is checked already (a non-negative int); any value past 2**63 is as good as
     * none, since no output of this process can reach it. */
    unsigned long long max_output = PyLong_AsUnsignedLongLong(limit);
    if (max_output == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        max_output = 1ULL << 63;
    }
    if (plain_text(stream)) return Py_NewRef(stream);
    const void *data = PyUnicode_DATA(stream);
    int width = PyUnicode_KIND(stream);
    size_t n = (size_t)PyUnicode_GET_LENGTH(stream);
    cpbuf out;
    cpbuf_init(&out);
    decode_error error;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = decode_stream(data, width, n, strict, (uint64_t)max_output, &out, &error);
    Py_END_ALLOW_THREADS
    PyObject *result = failed ? PyErr_NoMemory() : error.kind != DECODE_OK ? raise_decode_error(&error) : as_str(&out);
    cpbuf_free(&out);
    return result;
}

PyMethodDef decode_methods[] = {
    {"decode", native_decode, METH_VARARGS,
     "decode(stream, strict, max_output) -> str: the text of a stream (spec 7); strict raises FormatError (8.2)."},
    {NULL, NULL, 0, NULL},
};
