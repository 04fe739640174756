/* functok._native.GreedyEncoder: a tokenizer's greedy encode (spec 14.4) of one stretch of text
 * between special tokens, text -> ids, made once per functok.Tokenizer from what its loader
 * checked. The work runs with the GIL released; threads share the encoder (read only) and each
 * call takes a workspace (cache and scratch) of its own from the encoder's pool, so calls from
 * several threads never wait on each other's cache. */
#include "binding.h"

#include <pythread.h>

enum { POOL_KEEP = 16 }; /* idle workspaces kept: more threads than this make new ones */

typedef struct {
    PyObject_HEAD
    greedy_tokenizer tokenizer;
    int normalize;
    size_t cache_limit;
    PyThread_type_lock lock; /* guards the pool */
    greedy_workspace *pool[POOL_KEEP];
    size_t pooled;
    PyObject **id_objects; /* the int of each id below id_limit, made on first use (with the GIL) */
    size_t id_limit;
} GreedyEncoder;

enum { ID_TABLE_MAX = 1 << 22 }; /* ids above this (sparse ids, 14.3) are made each time */

/* A Python int as a uint32_t, or -1 with an exception set. */
static int as_u32(PyObject *value, uint32_t *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v > UINT32_MAX) { PyErr_SetString(PyExc_OverflowError, "an id is below 2**32"); return -1; }
    *out = (uint32_t)v;
    return 0;
}

/* chars: {code point: id}; merges: {left << 32 | right: (rank, new id)} (bpe.py's BPE.merges);
 * byte_ids: 256 ids or None. */
static int load_model(bpe_model *m, PyObject *chars, PyObject *merges, PyObject *byte_ids) {
    PyObject *key, *value;
    Py_ssize_t at = 0;
    while (PyDict_Next(chars, &at, &key, &value)) {
        uint32_t cp, id;
        if (as_u32(key, &cp) || as_u32(value, &id)) return -1;
        if (pairmap_put(&m->chars, cp, 0, id)) { PyErr_NoMemory(); return -1; }
    }
    at = 0;
    while (PyDict_Next(merges, &at, &key, &value)) {
        unsigned long long pair = PyLong_AsUnsignedLongLong(key);
        uint32_t rank, id;
        if (pair == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 2) {
            PyErr_SetString(PyExc_TypeError, "a merge is (rank, new id)");
            return -1;
        }
        if (as_u32(PyTuple_GET_ITEM(value, 0), &rank) || as_u32(PyTuple_GET_ITEM(value, 1), &id)) return -1;
        if (rank == UINT32_MAX) { PyErr_SetString(PyExc_OverflowError, "too many merges"); return -1; }
        if (pairmap_put(&m->merges, pair, rank, id)) { PyErr_NoMemory(); return -1; }
    }
    if (PySequence_Size(byte_ids) != 256) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "byte_ids: 256 ids or None");
        return -1;
    }
    for (int b = 0; b < 256; b++) {
        PyObject *id = PySequence_GetItem(byte_ids, b);
        if (!id) return -1;
        int failed = id != Py_None && as_u32(id, &m->bytes[b]);
        m->has_byte[b] = id != Py_None;
        Py_DECREF(id);
        if (failed) return -1;
    }
    return 0;
}

/* Room for the int of every id the model can give, when the largest is below ID_TABLE_MAX: a list
 * of ids then costs a reference each, not a new int each (a quarter of an encode's time). */
static int make_id_table(GreedyEncoder *self) {
    const bpe_model *m = &self->tokenizer.bpe;
    uint32_t top = 0;
    for (size_t k = 0; k < m->chars.cap; k++)
        if (m->chars.slots[k].rank != UINT32_MAX && m->chars.slots[k].value > top) top = m->chars.slots[k].value;
    for (size_t k = 0; k < m->merges.cap; k++)
        if (m->merges.slots[k].rank != UINT32_MAX && m->merges.slots[k].value > top) top = m->merges.slots[k].value;
    for (int b = 0; b < 256; b++)
        if (m->has_byte[b] && m->bytes[b] > top) top = m->bytes[b];
    if (top >= ID_TABLE_MAX) return 0;
    self->id_objects = PyMem_Calloc((size_t)top + 1, sizeof(PyObject *));
    if (!self->id_objects) { PyErr_NoMemory(); return -1; }
    self->id_limit = (size_t)top + 1;
    return 0;
}

static int encoder_init(GreedyEncoder *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"chars", "merges", "byte_ids", "max_digits", "cfg", "normalize", "fuse", "cache_limit", NULL};
    PyObject *chars, *merges, *byte_ids;
    int max_digits, cfg, normalize, fuse;
    Py_ssize_t cache_limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!Oiipin:GreedyEncoder", names, &PyDict_Type, &chars,
                                     &PyDict_Type, &merges, &byte_ids, &max_digits, &cfg, &normalize, &fuse,
                                     &cache_limit))
        return -1;
    if (self->lock) { PyErr_SetString(PyExc_RuntimeError, "GreedyEncoder is made once"); return -1; }
    if (fuse < FUSE_NONE || fuse > FUSE_FREQUENT || cache_limit < 2) {
        PyErr_SetString(PyExc_ValueError, "fuse is 0, 1 or 2 and cache_limit at least 2");
        return -1;
    }
    bpe_model_init(&self->tokenizer.bpe);
    self->tokenizer.max_digits = max_digits;
    self->tokenizer.cfg = cfg;
    self->tokenizer.fuse = fuse;
    self->normalize = normalize;
    self->cache_limit = (size_t)cache_limit;
    self->lock = PyThread_allocate_lock();
    if (!self->lock) { PyErr_NoMemory(); return -1; }
    if (load_model(&self->tokenizer.bpe, chars, merges, byte_ids)) return -1;
    return make_id_table(self);
}

static void clear_pool(GreedyEncoder *self) {
    while (self->pooled) {
        greedy_workspace *w = self->pool[--self->pooled];
        greedy_workspace_free(w);
        PyMem_RawFree(w);
    }
}

static void encoder_dealloc(GreedyEncoder *self) {
    clear_pool(self);
    bpe_model_free(&self->tokenizer.bpe);
    if (self->lock) PyThread_free_lock(self->lock);
    for (size_t k = 0; k < self->id_limit; k++) Py_XDECREF(self->id_objects[k]);
    PyMem_Free(self->id_objects);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A workspace for one call: an idle one from the pool, or a new one. */
static greedy_workspace *take_workspace(GreedyEncoder *self) {
    greedy_workspace *w = NULL;
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    if (self->pooled) w = self->pool[--self->pooled];
    PyThread_release_lock(self->lock);
    if (!w && (w = PyMem_RawMalloc(sizeof *w))) greedy_workspace_init(w, self->cache_limit);
    return w;
}

static void give_back(GreedyEncoder *self, greedy_workspace *w) {
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    int kept = self->pooled < POOL_KEEP;
    if (kept) self->pool[self->pooled++] = w;
    PyThread_release_lock(self->lock);
    if (!kept) { greedy_workspace_free(w); PyMem_RawFree(w); }
}

static PyObject *as_list(const idbuf *ids) {
    PyObject *list = PyList_New((Py_ssize_t)ids->len);
    for (size_t k = 0; list && k < ids->len; k++) {
        PyObject *id = PyLong_FromUnsignedLong(ids->data[k]);
        if (!id) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)k, id);
    }
    return list;
}

/* A list of the ids ids[0:n], its ints from the encoder's table where it has one. */
static PyObject *ids_list(GreedyEncoder *self, const uint32_t *ids, size_t n) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t k = 0; list && k < n; k++) {
        PyObject *id;
        if (ids[k] < self->id_limit) {
            id = self->id_objects[ids[k]];
            if (!id && !(id = self->id_objects[ids[k]] = PyLong_FromUnsignedLong(ids[k]))) { Py_CLEAR(list); break; }
            Py_INCREF(id);
        } else if (!(id = PyLong_FromUnsignedLong(ids[k]))) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)k, id);
    }
    return list;
}

static PyObject *encoder_encode(GreedyEncoder *self, PyObject *text) {
    if (!self->lock) { PyErr_SetString(PyExc_RuntimeError, "GreedyEncoder is not made"); return NULL; }
    if (!PyUnicode_Check(text)) return PyErr_Format(PyExc_TypeError, "expected str, not %.100s", Py_TYPE(text)->tp_name);
    prepared p;
    if (prepare(text, self->normalize, &p)) { release(&p); return NULL; }
    greedy_workspace *w = take_workspace(self);
    if (!w) { release(&p); return PyErr_NoMemory(); }
    idbuf ids;
    cpbuf_init(&ids);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = greedy_encode(&self->tokenizer, w, p.text, p.n, &ids);
    Py_END_ALLOW_THREADS
    give_back(self, w);
    release(&p);
    PyObject *result = failed ? PyErr_NoMemory() : ids_list(self, ids.data, ids.len);
    cpbuf_free(&ids);
    return result;
}

/* The greedy ids of each pre-token given (spec 14.5, no codec): a list of lists. */
static PyObject *encoder_pretoken_ids(GreedyEncoder *self, PyObject *pretokens) {
    if (!self->lock) { PyErr_SetString(PyExc_RuntimeError, "GreedyEncoder is not made"); return NULL; }
    PyObject *seq = PySequence_Fast(pretokens, "expected a list of str");
    if (!seq) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    cpbuf words;   /* every pre-token's code points, one after the other */
    offsets ends;  /* where each ends in words, then where its ids end in ids */
    idbuf ids;
    cpbuf_init(&words);
    offsets_init(&ends);
    cpbuf_init(&ids);
    PyObject *result = NULL;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *word = PySequence_Fast_GET_ITEM(seq, k);
        if (!PyUnicode_Check(word)) { PyErr_SetString(PyExc_TypeError, "expected a list of str"); goto done; }
        Py_ssize_t n;
        uint32_t *cps = code_points(word, &n);
        if (!cps) goto done;
        int failed = cpbuf_extend(&words, cps, (size_t)n) || offsets_push(&ends, words.len);
        PyMem_RawFree(cps);
        if (failed) { PyErr_NoMemory(); goto done; }
    }
    greedy_workspace *w = take_workspace(self);
    if (!w) { PyErr_NoMemory(); goto done; }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (size_t k = 0, start = 0; !failed && k < ends.len; k++) {
        size_t end = ends.data[k];
        failed = bpe_word(&self->tokenizer.bpe, &w->scratch, words.data + start, end - start, &ids);
        ends.data[k] = ids.len;
        start = end;
    }
    Py_END_ALLOW_THREADS
    give_back(self, w);
    if (failed) { PyErr_NoMemory(); goto done; }
    result = PyList_New(count);
    for (size_t k = 0, start = 0; result && k < ends.len; k++) {
        PyObject *list = ids_list(self, ids.data + start, ends.data[k] - start);
        if (!list) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, (Py_ssize_t)k, list);
        start = ends.data[k];
    }
done:
    Py_DECREF(seq);
    cpbuf_free(&words);
    offsets_free(&ends);
    cpbuf_free(&ids);
    return result;
}

static PyObject *encoder_clear_caches(GreedyEncoder *self, PyObject *Py_UNUSED(unused)) {
    if (self->lock) {
        PyThread_acquire_lock(self->lock, WAIT_LOCK);
        clear_pool(self);
        PyThread_release_lock(self->lock);
    }
    Py_RETURN_NONE;
}

static PyMethodDef encoder_methods[] = {
    {"encode", (PyCFunction)encoder_encode, METH_O,
     "encode(text) -> list[int]: the greedy ids of one stretch of text between special tokens."},
    {"pretoken_ids", (PyCFunction)encoder_pretoken_ids, METH_O,
     "pretoken_ids(pretokens: list[str]) -> list[list[int]]: the greedy ids of each pre-token."},
    {"clear_caches", (PyCFunction)encoder_clear_caches, METH_NOARGS, "Forget every cached pre-token."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject GreedyEncoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "functok._native.GreedyEncoder",
    .tp_doc = "GreedyEncoder(chars, merges, byte_ids, max_digits, cfg, normalize, fuse, cache_limit): a "
              "tokenizer's greedy encode (spec 14.4), identical to the pure path's BPE.",
    .tp_basicsize = sizeof(GreedyEncoder),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)encoder_init,
    .tp_dealloc = (destructor)encoder_dealloc,
    .tp_methods = encoder_methods,
};

/* --- functok._native.TiktokenMerger: tiktoken's merge rule (bpe.py's TiktokenBPE) ------------- */

typedef struct {
    PyObject_HEAD
    bytemap ranks;
    tiktoken_scratch scratch; /* used with the GIL held: calls on short pieces never release it */
    int made;
} TiktokenMerger;

static int merger_init(TiktokenMerger *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"ranks", NULL};
    PyObject *ranks, *key, *value;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!:TiktokenMerger", names, &PyDict_Type, &ranks)) return -1;
    if (self->made) { PyErr_SetString(PyExc_RuntimeError, "TiktokenMerger is made once"); return -1; }
    bytemap_init(&self->ranks);
    tiktoken_scratch_init(&self->scratch);
    self->made = 1;
    Py_ssize_t at = 0;
    while (PyDict_Next(ranks, &at, &key, &value)) {
        uint32_t rank;
        if (!PyBytes_Check(key)) { PyErr_SetString(PyExc_TypeError, "ranks: bytes -> int"); return -1; }
        if (as_u32(value, &rank)) return -1;
        if (bytemap_put(&self->ranks, (const uint8_t *)PyBytes_AS_STRING(key), (size_t)PyBytes_GET_SIZE(key), rank)) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static void merger_dealloc(TiktokenMerger *self) {
    if (self->made) {
        bytemap_free(&self->ranks);
        tiktoken_scratch_free(&self->scratch);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *merger_tokenize(TiktokenMerger *self, PyObject *piece) {
    if (!self->made) { PyErr_SetString(PyExc_RuntimeError, "TiktokenMerger is not made"); return NULL; }
    if (!PyBytes_Check(piece)) return PyErr_Format(PyExc_TypeError, "expected bytes, not %.100s", Py_TYPE(piece)->tp_name);
    const uint8_t *bytes = (const uint8_t *)PyBytes_AS_STRING(piece);
    idbuf ids;
    cpbuf_init(&ids);
    size_t missing = 0;
    int failed = tiktoken_piece(&self->ranks, &self->scratch, bytes, (size_t)PyBytes_GET_SIZE(piece), &ids, &missing);
    PyObject *result = NULL;
    if (failed == -2) { /* as bpe.py's ranks[part]: a KeyError naming the part, one byte (a merged
                           part has a rank) */
        PyObject *part = PyBytes_FromStringAndSize((const char *)bytes + missing, 1);
        if (part) { PyErr_SetObject(PyExc_KeyError, part); Py_DECREF(part); }
    } else {
        result = failed ? PyErr_NoMemory() : as_list(&ids);
    }
    cpbuf_free(&ids);
    if (self->scratch.cap > (1u << 20)) tiktoken_scratch_free(&self->scratch);
    return result;
}

static PyMethodDef merger_methods[] = {
    {"tokenize", (PyCFunction)merger_tokenize, METH_O, "tokenize(piece: bytes) -> list[int]: the piece's ids."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject TiktokenMergerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "functok._native.TiktokenMerger",
    .tp_doc = "TiktokenMerger(ranks): tiktoken's byte-pair merge over a rank table (bytes -> rank), "
              "identical to functok.tokenizer.bpe.TiktokenBPE.",
    .tp_basicsize = sizeof(TiktokenMerger),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)merger_init,
    .tp_dealloc = (destructor)merger_dealloc,
    .tp_methods = merger_methods,
};
