/* Training's fusion merges in functok._native: fusion_merges (fusion.c) on the compact form that
 * python/functok/tokenizer/fusion.py builds (token strings, then flat arrays of ids), with the
 * GIL released while it runs. */
#include "binding.h"
#include "training.h"

/* A read-only buffer of items of itemsize bytes, or -1 with an exception set. */
static int items(PyObject *object, Py_buffer *view, Py_ssize_t itemsize, const char *name) {
    if (PyObject_GetBuffer(object, view, PyBUF_SIMPLE)) return -1;
    if (view->len % itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes is not a whole number of %zd-byte items", name, view->len,
                     itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The tokens' code points, one after the other, and each one's end; -1 with an exception set. */
static int token_texts(PyObject *tokens, cpbuf *text, size_t **ends, size_t *n) {
    PyObject *seq = PySequence_Fast(tokens, "tokens must be a sequence of str");
    if (!seq) return -1;
    *n = (size_t)PySequence_Fast_GET_SIZE(seq);
    *ends = PyMem_RawMalloc((*n ? *n : 1) * sizeof **ends);
    int failed = !*ends;
    if (failed) PyErr_NoMemory();
    for (size_t i = 0; !failed && i < *n; i++) {
        PyObject *token = PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i);
        Py_ssize_t len;
        uint32_t *cps = PyUnicode_Check(token) ? code_points(token, &len) : NULL;
        if (!PyUnicode_Check(token)) PyErr_Format(PyExc_TypeError, "tokens must be str, not %.100s",
                                                  Py_TYPE(token)->tp_name);
        failed = !cps || cpbuf_extend(text, cps, (size_t)len);
        if (cps && failed) PyErr_NoMemory();
        PyMem_RawFree(cps);
        if (!failed) (*ends)[i] = text->len;
    }
    Py_DECREF(seq);
    return failed ? -1 : 0;
}

static PyObject *token_str(const fusion_result *r, uint32_t id) {
    size_t start = id ? r->ends[id - 1] : 0;
    cpbuf view = {r->text.data + start, r->ends[id] - start, 0};
    return as_str(&view);
}

/* The merges as a list of (str, str). */
static PyObject *merge_list(const fusion_result *r) {
    PyObject *list = PyList_New((Py_ssize_t)r->len);
    for (size_t i = 0; list && i < r->len; i++) {
        PyObject *a = token_str(r, r->merges[2 * i]), *b = a ? token_str(r, r->merges[2 * i + 1]) : NULL;
        PyObject *pair = b ? PyTuple_Pack(2, a, b) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (!pair) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, pair);
    }
    return list;
}

static PyObject *native_fusion_merges(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tokens, *objects[7];
    Py_ssize_t limit;
    unsigned long long min_count;
    if (!PyArg_ParseTuple(args, "OOOOOOOOnK:fusion_merges", &tokens, &objects[0], &objects[1], &objects[2],
                          &objects[3], &objects[4], &objects[5], &objects[6], &limit, &min_count))
        return NULL;
    static const char *names[7] = {"unmergeable", "segment_tokens", "segment_starts", "instruction",
                                   "chain_segments", "chain_starts", "counts"};
    static const Py_ssize_t sizes[7] = {1, 4, 8, 1, 4, 8, 8};
    Py_buffer views[7];
    int got = 0;
    while (got < 7 && !items(objects[got], &views[got], sizes[got], names[got])) got++;
    cpbuf text;
    cpbuf_init(&text);
    size_t *ends = NULL, ntokens = 0;
    PyObject *result = NULL;
    if (got < 7 || token_texts(tokens, &text, &ends, &ntokens)) goto done;
    size_t nsegments = (size_t)views[3].len, nchains = (size_t)views[6].len / 8;
    if ((size_t)views[0].len != ntokens || (size_t)views[2].len / 8 != nsegments + 1 ||
        (size_t)views[5].len / 8 != nchains + 1 || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "fusion_merges: the arrays' lengths do not agree");
        goto done;
    }
    fusion_input in = {text.data, ends, views[0].buf, ntokens, views[1].buf, views[2].buf, views[3].buf,
                       nsegments, views[4].buf, views[5].buf, views[6].buf, nchains};
    /* the indices' ends must lie in their arrays before the core reads them */
    const int64_t *seg_starts = views[2].buf, *chain_starts = views[5].buf;
    if (seg_starts[nsegments] < 0 || seg_starts[nsegments] > views[1].len / 4 || chain_starts[nchains] < 0 ||
        chain_starts[nchains] > views[4].len / 4) {
        PyErr_SetString(PyExc_ValueError, "fusion_merges: an index runs past its array");
        goto done;
    }
    PyObject *seed_text = PyUnicode_FromString("functok fusion_merges");
    Py_hash_t seed = seed_text ? PyObject_Hash(seed_text) : -1;
    Py_XDECREF(seed_text);
    if (seed == -1 && PyErr_Occurred()) goto done;
    fusion_result out;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = fusion_merges(&in, (size_t)limit, min_count, (uint64_t)seed, &out);
    Py_END_ALLOW_THREADS
    if (failed == FUSION_OVERFLOW) result = Py_NewRef(Py_None);
    else if (failed == FUSION_INVALID) PyErr_SetString(PyExc_ValueError, "fusion_merges: an index out of range, "
                                                       "runs out of order or a count of 0");
    else if (failed) PyErr_NoMemory();
    else result = merge_list(&out);
    if (!failed) fusion_result_free(&out);
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    cpbuf_free(&text);
    PyMem_RawFree(ends);
    return result;
}

PyMethodDef fusion_methods[] = {
    {"fusion_merges", native_fusion_merges, METH_VARARGS,
     "fusion_merges(tokens, unmergeable, segment_tokens, segment_starts, instruction, chain_segments, "
     "chain_starts, counts, limit, min_count) -> list of (str, str), or None past the core's range: the "
     "fusion merges of python/functok/tokenizer/fusion.py's fusion_merges, on its compact form (distinct "
     "tokens; bytes of flags; int32 ids, int64 starts and uint64 counts)."},
    {NULL, NULL, 0, NULL},
};
