/* Training's pre-token counts in functok._native: count_pretokens (count.c), which reads the texts
 * of an iterable one at a time and counts each with the GIL released. */
#include "binding.h"

/* A str of key[0:n]. */
static PyObject *key_str(const uint32_t *key, size_t n) {
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, n ? (const void *)key : (const void *)"", (Py_ssize_t)n);
}

/* The tuple of a chain's segments: its code points cut at its cuts. */
static PyObject *segments(const counter *c, const count_entry *e) {
    PyObject *tuple = PyTuple_New((Py_ssize_t)e->ncuts + 1);
    const uint32_t *key = c->keys.data + e->start;
    for (size_t k = 0, from = 0; tuple && k <= e->ncuts; k++) {
        size_t to = k < e->ncuts ? c->cuts.data[e->cuts_at + k] : e->len;
        PyObject *segment = key_str(key + from, to - from);
        if (!segment) Py_CLEAR(tuple);
        else PyTuple_SET_ITEM(tuple, (Py_ssize_t)k, segment);
        from = to;
    }
    return tuple;
}

/* Each key with its count added to dict (a dict or a Counter) in the order the keys were first
 * counted; chain keys as tuples of segments. -1 with an exception set. */
static int add_counts(const counter *c, int chains, PyObject *dict) {
    for (size_t i = 0; i < c->len; i++) {
        const count_entry *e = &c->entries[i];
        PyObject *key = chains ? segments(c, e) : key_str(c->keys.data + e->start, e->len);
        PyObject *count = key ? PyLong_FromUnsignedLongLong(e->count) : NULL;
        int failed = !count || PyDict_SetItem(dict, key, count);
        Py_XDECREF(key);
        Py_XDECREF(count);
        if (failed) return -1;
    }
    return 0;
}

/* Counts the texts' pre-tokens (and chains) into words (and chains); -1 with an exception set. */
static int count_texts(PyObject *iterator, int max_digits, int cfg, int normalize, int fuse, counter *words,
                       counter *chains) {
    PyObject *text;
    while ((text = PyIter_Next(iterator))) {
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "expected texts (str), got %.100s", Py_TYPE(text)->tp_name);
            Py_DECREF(text);
            return -1;
        }
        prepared p;
        int failed = prepare(text, normalize, &p);
        if (!failed) {
            Py_BEGIN_ALLOW_THREADS
            failed = count_pretokens(p.text, p.n, max_digits, cfg, fuse, words, chains);
            Py_END_ALLOW_THREADS
            if (failed) PyErr_NoMemory();
        }
        release(&p);
        Py_DECREF(text);
        if (failed) return -1;
    }
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *native_count_pretokens(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *texts, *words_out, *chains_out;
    int max_digits, cfg, normalize, fuse;
    if (!PyArg_ParseTuple(args, "OiipiO!O:count_pretokens", &texts, &max_digits, &cfg, &normalize, &fuse,
                          &PyDict_Type, &words_out, &chains_out))
        return NULL;
    if (chains_out != Py_None && !PyDict_Check(chains_out))
        return PyErr_Format(PyExc_TypeError, "chains must be a dict or None, not %.100s", Py_TYPE(chains_out)->tp_name);
    if (PyDict_GET_SIZE(words_out) || (chains_out != Py_None && PyDict_GET_SIZE(chains_out)))
        return PyErr_Format(PyExc_ValueError, "count_pretokens fills empty dicts");
    PyObject *iterator = PyObject_GetIter(texts);
    if (!iterator) return NULL;
    counter words, chains;
    counter_init(&words);
    counter_init(&chains);
    /* The seed of the counters' hash: Python's str hash is keyed at random per process (or by
     * PYTHONHASHSEED); the counts do not depend on it, only the time an adversary could cost. */
    PyObject *seed_text = PyUnicode_FromString("functok count_pretokens");
    Py_hash_t seed = seed_text ? PyObject_Hash(seed_text) : -1;
    Py_XDECREF(seed_text);
    if (seed == -1 && PyErr_Occurred()) {
        Py_DECREF(iterator);
        return NULL;
    }
    words.seed = chains.seed = (uint64_t)seed;
    int with_chains = chains_out != Py_None;
    int failed = count_texts(iterator, max_digits, cfg, normalize, fuse, &words, with_chains ? &chains : NULL) ||
                 add_counts(&words, 0, words_out) || (with_chains && add_counts(&chains, 1, chains_out));
    Py_DECREF(iterator);
    counter_free(&words);
    counter_free(&chains);
    return failed ? NULL : Py_NewRef(Py_None);
}

PyMethodDef count_methods[] = {
    {"count_pretokens", native_count_pretokens, METH_VARARGS,
     "count_pretokens(texts, max_digits, cfg, normalize, fuse, words, chains) -> None: how often each pre-token "
     "of the texts occurs (spec 9), into the empty dict words; with a dict chains (else None), the pre-tokens of "
     "fuse 'none', and how often each chain of 9.4 of two segments or more occurs, as the tuple of its segments, "
     "into chains. Keys in the order first seen."},
    {NULL, NULL, 0, NULL},
};
