/* functok._native.GreedyEncoder: a tokenizer's greedy encode (spec 14.4) of one stretch of text
 * between special tokens, text -> ids, made once per functok.Tokenizer from what its loader
 * checked. The work runs with the GIL released, from reading the str's code units to the last
 * id; threads share the encoder (read only) and its pre-token cache (bind_shared_cache.c: read
 * without a lock, so that a word one thread merged is a hit for all), and each call takes a
 * workspace (scratch) of its own from the encoder's pool. encode_many encodes many texts in one
 * release of the GIL (Tokenizer.encode_batch).
 * tiktoken's merge rule for rank files is bind_tiktoken.c's TiktokenMerger. */
#include "binding.h"

#include <pythread.h>

enum { POOL_KEEP = 16 }; /* idle workspaces kept: more threads than this make new ones */

/* A call's working memory: the core's scratch, the text's code points and their NFC, and the ids
 * made, with a view of the encoder's cache. Kept from call to call, so that a thread encoding
 * chunk after chunk neither allocates nor faults in fresh pages each time: allocating is what two
 * threads wait on each other for (the process's memory map has one lock). */
typedef struct {
    greedy_workspace core;
    shared_view view; /* the core's cache: the encoder's, open while a call holds the workspace */
    cpbuf given, normal;
    idbuf ids;
    offsets ends; /* encode_many: where each text's ids end in ids */
} workspace;

/* Buffers above this many entries are given back after a call (one huge text is not kept). */
#define KEEP_LIMIT ((size_t)1 << 20)

static workspace *workspace_new(size_t cache_limit) {
    workspace *w = PyMem_RawMalloc(sizeof *w);
    if (!w) return NULL;
    greedy_workspace_init(&w->core, cache_limit);
    w->core.shared = (pretoken_store){shared_view_get, shared_view_put, &w->view};
    shared_view_init(&w->view);
    cpbuf_init(&w->given);
    cpbuf_init(&w->normal);
    cpbuf_init(&w->ids);
    offsets_init(&w->ends);
    return w;
}

static void workspace_free(workspace *w) {
    greedy_workspace_free(&w->core);
    cpbuf_free(&w->given);
    cpbuf_free(&w->normal);
    cpbuf_free(&w->ids);
    offsets_free(&w->ends);
    PyMem_RawFree(w);
}

/* Empty, and no larger than KEEP_LIMIT: ready for the next call. */
static void workspace_trim(workspace *w) {
    if (w->given.cap > KEEP_LIMIT) cpbuf_free(&w->given);
    if (w->normal.cap > KEEP_LIMIT) cpbuf_free(&w->normal);
    if (w->ids.cap > KEEP_LIMIT) cpbuf_free(&w->ids);
    if (w->ends.cap > KEEP_LIMIT) offsets_free(&w->ends);
    w->given.len = w->normal.len = w->ids.len = w->ends.len = 0;
}

typedef struct {
    PyObject_HEAD
    greedy_tokenizer tokenizer;
    int normalize;
    size_t cache_limit;
    PyThread_type_lock lock; /* guards the pool */
    shared_cache *cache;     /* the pre-tokens' ids, for every workspace (bind_shared_cache.c) */
    workspace *pool[POOL_KEEP];
    size_t lanes[POOL_KEEP]; /* the lane each pooled workspace last worked in (see take_workspace) */
    size_t pooled;
    PyObject **id_objects; /* the int of each id below id_limit, made on first use (with the GIL) */
    size_t id_limit;
} GreedyEncoder;

enum { ID_TABLE_MAX = 1 << 22 }; /* ids above this (sparse ids, 14.3) are made each time */

/* A Python int as a uint32_t, or -1 with an exception set (binding.h: bind_tiktoken.c too). */
int as_u32(PyObject *value, uint32_t *out) {
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
    self->cache = shared_cache_new(self->cache_limit); /* before the lock, which marks the encoder made */
    if (!self->cache || !(self->lock = PyThread_allocate_lock())) { PyErr_NoMemory(); return -1; }
    if (load_model(&self->tokenizer.bpe, chars, merges, byte_ids)) return -1;
    return make_id_table(self);
}

static void clear_pool(GreedyEncoder *self) {
    while (self->pooled) workspace_free(self->pool[--self->pooled]);
}

static void encoder_dealloc(GreedyEncoder *self) {
    clear_pool(self);
    shared_cache_free(self->cache);
    bpe_model_free(&self->tokenizer.bpe);
    if (self->lock) PyThread_free_lock(self->lock);
    for (size_t k = 0; k < self->id_limit; k++) Py_XDECREF(self->id_objects[k]);
    PyMem_Free(self->id_objects);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A workspace for one call in `lane`, its view of the cache open: the idle one that last worked
 * in that lane, else another idle one, else a new one (encode_batch's thread k works in lane k,
 * so its buffers are already the size its chunks need). */
static workspace *take_workspace(GreedyEncoder *self, size_t lane) {
    workspace *w = NULL;
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    if (self->pooled) {
        size_t k = self->pooled - 1;
        while (k > 0 && self->lanes[k] != lane) k--;
        if (self->lanes[k] != lane) k = self->pooled - 1;
        w = self->pool[k];
        self->pool[k] = self->pool[self->pooled - 1];
        self->lanes[k] = self->lanes[self->pooled - 1];
        self->pooled--;
    }
    PyThread_release_lock(self->lock);
    if (!w && !(w = workspace_new(self->cache_limit))) return NULL;
    shared_view_open(&w->view, self->cache);
    return w;
}

static void give_back(GreedyEncoder *self, workspace *w, size_t lane) {
    shared_view_close(&w->view);
    workspace_trim(w);
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    int kept = self->pooled < POOL_KEEP;
    if (kept) self->lanes[self->pooled] = lane, self->pool[self->pooled++] = w;
    PyThread_release_lock(self->lock);
    if (!kept) workspace_free(w);
}

/* The ids as a list of ints (binding.h: bind_tiktoken.c too). */
PyObject *as_list(const idbuf *ids) {
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

/* What encoding one text gave: its ids, or why it has none. */
enum { TEXT_PENDING = 0, TEXT_DONE, TEXT_SURROGATE, TEXT_NO_MEMORY };

/* text's code units appended to b as code points. */
static int widen_units(units text, cpbuf *b) {
    if (cpbuf_reserve(b, text.n)) return -1;
    uint32_t *out = b->data + b->len;
    for (size_t i = 0; i < text.n; i++) out[i] = PyUnicode_READ(text.width, text.data, i);
    b->len += text.n;
    return 0;
}

/* The greedy ids of one text (a str's code units, read in place) appended to out: checked (4.3),
 * normalized if asked (4.2), then greedy_encode. All of it runs without the GIL, so that a
 * thread takes the GIL only to start and to make the list of ids. A TEXT_* result. */
static int encode_units_greedy(const GreedyEncoder *self, workspace *w, units text) {
    if (first_surrogate(text) < text.n) return TEXT_SURROGATE;
    w->given.len = w->normal.len = 0;
    if (widen_units(text, &w->given)) return TEXT_NO_MEMORY;
    const cpbuf *cps = &w->given;
    if (self->normalize) {
        int stable = nfc(w->given.data, w->given.len, &w->normal);
        if (stable < 0) return TEXT_NO_MEMORY;
        if (stable == 0) cps = &w->normal;
    }
    return greedy_encode(&self->tokenizer, &w->core, cps->data, cps->len, &w->ids) ? TEXT_NO_MEMORY : TEXT_DONE;
}

/* The exception of a text that ended in `result`, with the GIL held. */
static PyObject *text_error(int result, PyObject *text) {
    if (result == TEXT_SURROGATE) refuse_surrogate_units(str_units(text));
    else PyErr_NoMemory();
    return NULL;
}

static PyObject *encoder_encode(GreedyEncoder *self, PyObject *text) {
    if (!self->lock) { PyErr_SetString(PyExc_RuntimeError, "GreedyEncoder is not made"); return NULL; }
    if (!PyUnicode_Check(text)) return PyErr_Format(PyExc_TypeError, "expected str, not %.100s", Py_TYPE(text)->tp_name);
    workspace *w = take_workspace(self, 0);
    if (!w) return PyErr_NoMemory();
    units input = str_units(text);
    int result;
    Py_BEGIN_ALLOW_THREADS
    result = encode_units_greedy(self, w, input);
    Py_END_ALLOW_THREADS
    PyObject *list = result == TEXT_DONE ? ids_list(self, w->ids.data, w->ids.len) : text_error(result, text);
    give_back(self, w, 0);
    return list;
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
    workspace *w = take_workspace(self, 0);
    if (!w) { PyErr_NoMemory(); goto done; }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (size_t k = 0, start = 0; !failed && k < ends.len; k++) {
        size_t end = ends.data[k];
        failed = bpe_word(&self->tokenizer.bpe, &w->core.scratch, words.data + start, end - start, &ids);
        ends.data[k] = ids.len;
        start = end;
    }
    Py_END_ALLOW_THREADS
    give_back(self, w, 0);
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
        shared_cache_clear(self->cache);
    }
    Py_RETURN_NONE;
}

/* A list of the ints values[0:n]. */
static PyObject *size_list(const size_t *values, size_t n) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t k = 0; list && k < n; k++) {
        PyObject *value = PyLong_FromSize_t(values[k]);
        if (!value) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)k, value);
    }
    return list;
}

/* spans(text) -> (starts, ends): for each code point of the text's stream (its pre-tokens one
 * after the other), the span [start, end) of the text it stands for (core.h's stream_spans):
 * what Encoding.offsets maps each token onto, from the engine's own pass. */
static PyObject *encoder_spans(GreedyEncoder *self, PyObject *text) {
    if (!self->lock) { PyErr_SetString(PyExc_RuntimeError, "GreedyEncoder is not made"); return NULL; }
    if (!PyUnicode_Check(text)) return PyErr_Format(PyExc_TypeError, "expected str, not %.100s", Py_TYPE(text)->tp_name);
    units input = str_units(text);
    if (refuse_surrogate_units(input)) return NULL;
    cpbuf given;
    offsets starts, ends;
    cpbuf_init(&given);
    offsets_init(&starts);
    offsets_init(&ends);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = widen_units(input, &given) || stream_spans(given.data, given.len, self->normalize, self->tokenizer.max_digits,
                                                        self->tokenizer.cfg, &starts, &ends);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (failed) {
        PyErr_NoMemory();
    } else {
        PyObject *first = size_list(starts.data, starts.len), *second = first ? size_list(ends.data, ends.len) : NULL;
        if (second) result = PyTuple_Pack(2, first, second);
        Py_XDECREF(first);
        Py_XDECREF(second);
    }
    cpbuf_free(&given);
    offsets_free(&starts);
    offsets_free(&ends);
    return result;
}

/* encode_many(texts, lane): the ids of each text (None for a text with a lone surrogate, or when
 * memory ran out: encode() it to raise the error), on the workspace of `lane`, with the GIL
 * released once for all of them rather than once per text. Tokenizer.encode_batch gives each of
 * its threads a lane and its texts a few at a time: tiktoken's model, where a thread takes the
 * GIL only to start and to make the lists, while the other threads encode. */
static PyObject *encoder_encode_many(GreedyEncoder *self, PyObject *args) {
    PyObject *texts;
    Py_ssize_t lane;
    if (!PyArg_ParseTuple(args, "O!n:encode_many", &PyList_Type, &texts, &lane)) return NULL;
    if (!self->lock) { PyErr_SetString(PyExc_RuntimeError, "GreedyEncoder is not made"); return NULL; }
    if (lane < 0) { PyErr_SetString(PyExc_ValueError, "lane: 0 or more"); return NULL; }
    PyObject *held = PyList_AsTuple(texts); /* alive, and so readable in place, without the GIL */
    if (!held) return NULL;
    size_t count = (size_t)PyTuple_GET_SIZE(held);
    units *inputs = PyMem_RawCalloc(count ? count : 1, sizeof *inputs);
    uint8_t *results = PyMem_RawCalloc(count ? count : 1, 1);
    PyObject *out = NULL;
    workspace *w = NULL;
    if (!inputs || !results) { PyErr_NoMemory(); goto done; }
    for (size_t k = 0; k < count; k++) {
        PyObject *text = PyTuple_GET_ITEM(held, (Py_ssize_t)k);
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "expected str, not %.100s", Py_TYPE(text)->tp_name);
            goto done;
        }
        inputs[k] = str_units(text);
    }
    if (!(w = take_workspace(self, (size_t)lane))) { PyErr_NoMemory(); goto done; }
    int out_of_memory = 0; /* then the texts left stay TEXT_PENDING: None, as refused */
    Py_BEGIN_ALLOW_THREADS
    for (size_t k = 0; k < count && !out_of_memory; k++) { /* text k's ids: in w->ids after text k - 1's */
        size_t from = w->ids.len;
        results[k] = (uint8_t)encode_units_greedy(self, w, inputs[k]);
        if (results[k] != TEXT_DONE) w->ids.len = from;
        if ((out_of_memory = offsets_push(&w->ends, w->ids.len))) results[k] = TEXT_NO_MEMORY;
    }
    Py_END_ALLOW_THREADS
    out = PyList_New((Py_ssize_t)count);
    for (size_t k = 0, from = 0; out && k < count; k++) {
        PyObject *item = Py_None;
        size_t end = k < w->ends.len ? w->ends.data[k] : from;
        if (results[k] != TEXT_DONE) Py_INCREF(item);
        else if (!(item = ids_list(self, w->ids.data + from, end - from))) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, (Py_ssize_t)k, item);
        from = end;
    }
    give_back(self, w, (size_t)lane);
done:
    PyMem_RawFree(inputs);
    PyMem_RawFree(results);
    Py_DECREF(held);
    return out;
}

static PyMethodDef encoder_methods[] = {
    {"encode", (PyCFunction)encoder_encode, METH_O,
     "encode(text) -> list[int]: the greedy ids of one stretch of text between special tokens."},
    {"pretoken_ids", (PyCFunction)encoder_pretoken_ids, METH_O,
     "pretoken_ids(pretokens: list[str]) -> list[list[int]]: the greedy ids of each pre-token."},
    {"encode_many", (PyCFunction)encoder_encode_many, METH_VARARGS,
     "encode_many(texts: list[str], lane: int) -> list[list[int] | None]: each text's ids, on the lane's "
     "cache, with the GIL released once; None for a text that encode() refuses."},
    {"spans", (PyCFunction)encoder_spans, METH_O,
     "spans(text) -> (starts, ends): for each code point of the text's pre-tokens, one after the other, the "
     "span of the text it stands for (Encoding.offsets)."},
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
