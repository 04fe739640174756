/* Tokenizer.decode's fast road in functok._native (spec 14.6): token_table(token, byte, special)
 * builds a tokenizer's table once (a capsule), and detokenize(table, ids, strict,
 * skip_special_tokens, max_output) gives the text of ids, or None where the reference decoder
 * (functok/tokenizer/decoding.py) must decide: an unknown id, invalid UTF-8 in byte tokens, a
 * strict format error, or an id that is not an int. */
#include "binding.h"

static const char TABLE_NAME[] = "functok._native.token_table";

static void drop_table(PyObject *capsule) {
    token_table *t = PyCapsule_GetPointer(capsule, TABLE_NAME);
    if (t) {
        token_table_free(t);
        PyMem_RawFree(t);
    }
}

/* The largest key of a dict of ids, or -1 (an error set where a key is not a non-negative int). */
static Py_ssize_t largest_id(PyObject *ids, Py_ssize_t largest) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(ids, &pos, &key, &value)) {
        Py_ssize_t id = PyLong_Check(key) ? PyLong_AsSsize_t(key) : -1;
        if (id < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "token ids must be non-negative ints");
            return -1;
        }
        if (id > largest) largest = id;
    }
    return largest;
}

/* Each entry of a dict id -> str set as `kind` in the table. */
static int set_texts(token_table *t, PyObject *texts, int kind) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(texts, &pos, &key, &value)) {
        if (!PyUnicode_Check(value)) {
            PyErr_SetString(PyExc_TypeError, "tokens must be str");
            return -1;
        }
        Py_ssize_t n;
        uint32_t *cps = code_points(value, &n);
        if (!cps) return -1;
        int failed = token_table_set(t, (size_t)PyLong_AsSsize_t(key), kind, cps, (size_t)n, 0);
        PyMem_RawFree(cps);
        if (failed) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static PyObject *native_token_table(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *token, *byte, *special;
    if (!PyArg_ParseTuple(args, "O!O!O!:token_table", &PyDict_Type, &token, &PyDict_Type, &byte, &PyDict_Type,
                          &special))
        return NULL;
    Py_ssize_t largest = largest_id(token, -1);
    if (largest >= -1 && !PyErr_Occurred()) largest = largest_id(byte, largest);
    if (largest >= -1 && !PyErr_Occurred()) largest = largest_id(special, largest);
    if (PyErr_Occurred()) return NULL;
    token_table *t = PyMem_RawMalloc(sizeof *t);
    if (!t || token_table_init(t, (size_t)(largest + 1))) {
        PyMem_RawFree(t);
        return PyErr_NoMemory();
    }
    /* The reference's order: a byte token first, then a special token, then the token. */
    int failed = set_texts(t, token, TOKEN_ORDINARY) || set_texts(t, special, TOKEN_SPECIAL);
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (!failed && PyDict_Next(byte, &pos, &key, &value)) {
        long b = PyLong_Check(value) ? PyLong_AsLong(value) : -1;
        if (b < 0 || b > 255) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a byte token's byte must be 0..255");
            failed = 1;
        } else {
            t->entries[PyLong_AsSsize_t(key)].kind = TOKEN_BYTE;
            t->entries[PyLong_AsSsize_t(key)].byte = (uint8_t)b;
        }
    }
    if (failed) {
        token_table_free(t);
        PyMem_RawFree(t);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(t, TABLE_NAME, drop_table);
    if (!capsule) {
        token_table_free(t);
        PyMem_RawFree(t);
    }
    return capsule;
}

/* The ids of a sequence as uint64 (a copy), 1; 0 where one is not an int or is negative (the
 * reference decides); -1 with an exception set. */
static int read_ids(PyObject *items, uint64_t **ids, Py_ssize_t *n) {
    *n = PySequence_Fast_GET_SIZE(items);
    PyObject **item = PySequence_Fast_ITEMS(items);
    *ids = PyMem_RawMalloc((size_t)(*n ? *n : 1) * sizeof(uint64_t));
    if (!*ids) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < *n; k++) {
        if (!PyLong_Check(item[k])) return 0;
        unsigned long long id = PyLong_AsUnsignedLongLong(item[k]);
        if (id == (unsigned long long)-1 && PyErr_Occurred()) { /* negative or past 2**64: unknown */
            PyErr_Clear();
            return 0;
        }
        (*ids)[k] = id;
    }
    return 1;
}

static PyObject *native_detokenize(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *sequence, *limit;
    int strict, skip_special;
    if (!PyArg_ParseTuple(args, "OOppO!:detokenize", &capsule, &sequence, &strict, &skip_special, &PyLong_Type, &limit))
        return NULL;
    token_table *t = PyCapsule_GetPointer(capsule, TABLE_NAME);
    if (!t) return NULL;
    unsigned long long max_output = PyLong_AsUnsignedLongLong(limit); /* checked already: >= 0 */
    if (max_output == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        max_output = 1ULL << 63; /* past any output of this process */
    }
    PyObject *items = PySequence_Fast(sequence, "ids must be a sequence");
    if (!items) return NULL;
    uint64_t *ids = NULL;
    Py_ssize_t n;
    int read = read_ids(items, &ids, &n);
    Py_DECREF(items);
    PyObject *result = NULL;
    if (read == 0) result = Py_NewRef(Py_None);
    if (read == 1) {
        cpbuf out;
        cpbuf_init(&out);
        int done;
        Py_BEGIN_ALLOW_THREADS
        done = detokenize(t, ids, (size_t)n, strict, skip_special, (uint64_t)max_output, &out);
        Py_END_ALLOW_THREADS
        result = done < 0 ? PyErr_NoMemory() : done == 0 ? Py_NewRef(Py_None) : as_str(&out);
        cpbuf_free(&out);
    }
    PyMem_RawFree(ids);
    return result;
}

PyMethodDef detokenize_methods[] = {
    {"token_table", native_token_table, METH_VARARGS,
     "token_table(token, byte, special) -> capsule: a tokenizer's ids (dicts id -> token, byte, special text)."},
    {"detokenize", native_detokenize, METH_VARARGS,
     "detokenize(table, ids, strict, skip_special_tokens, max_output) -> str | None: the text of ids "
     "(spec 14.6), or None where the reference decoder must decide."},
    {NULL, NULL, 0, NULL},
};
