/* functok._native.Segmenter: optimal segmentation (spec 10, segment.c) behind the methods of the
 * pure Segmenter (python/functok/tokenizer/segment.py) that Vocabulary uses: leftmost_longest,
 * segment and count, with the same ids and the same errors. The work runs on a copy of the
 * word's symbols, with the GIL released for all but short words.
 *
 * Segmenter(tokens, byte_ids=None, fallback=None): tokens maps each candidate token (all str, or
 * all bytes) to its id; byte_ids, 256 ids or Nones, turns byte fallback on (the tokens <0xXX>);
 * fallback is the pure path's fallback function, which byte fallback must come with: where a
 * symbol cannot be spelled, the binding calls it on that symbol so that the error raised is the
 * pure path's own. */
#include "binding.h"

#include <structmember.h>

typedef struct {
    PyObject_HEAD
    segmenter *core;
    int of_bytes;       /* the tokens are bytes (one symbol per byte), not str */
    PyObject *tokens;   /* dict: the candidates, as the pure Segmenter keeps them */
    PyObject *fallback; /* the pure path's fallback function, or None */
    /* The id objects of tokens and byte_ids by id (NULL where none), when the ids are dense, as a
     * vocabulary's are: the lists returned share them, as the pure path's do, instead of holding
     * new ints (a pre-token cache holds hundreds of thousands of these lists). */
    PyObject **id_objects;
    size_t id_count;
} SegmenterObject;

/* Words this short are copied to the caller's stack, segmented with the GIL held (releasing
 * and taking it back costs more than their DP), and the longer ones on the heap, with it released. */
enum { SHORT_WORD = 64 };

/* A word's symbols: a str's code points or a bytes' bytes, copied into small (SHORT_WORD
 * entries) when they fit, else into memory to PyMem_RawFree. NULL with an exception set when
 * word is neither, or not the kind the tokens are. */
static uint32_t *symbols_of(SegmenterObject *self, PyObject *word, Py_ssize_t *n, uint32_t *small) {
    int any = !self->tokens || PyDict_GET_SIZE(self->tokens) == 0; /* no tokens: no kind either */
    int is_str = PyUnicode_Check(word) && (!self->of_bytes || any);
    if (!is_str && !(PyBytes_Check(word) && (self->of_bytes || any))) {
        PyErr_Format(PyExc_TypeError, "this segmenter's tokens are %s: a word of %.100s cannot be segmented",
                     self->of_bytes ? "bytes" : "str", Py_TYPE(word)->tp_name);
        return NULL;
    }
    *n = is_str ? PyUnicode_GET_LENGTH(word) : PyBytes_GET_SIZE(word);
    uint32_t *symbols = *n <= SHORT_WORD ? small : PyMem_RawMalloc((size_t)*n * sizeof(uint32_t));
    if (!symbols) { PyErr_NoMemory(); return NULL; }
    if (!is_str) {
        const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(word);
        for (Py_ssize_t i = 0; i < *n; i++) symbols[i] = bytes[i];
    } else {
        int kind = PyUnicode_KIND(word);
        const void *data = PyUnicode_DATA(word);
        for (Py_ssize_t i = 0; i < *n; i++) symbols[i] = PyUnicode_READ(kind, data, i);
    }
    return symbols;
}

static void free_symbols(uint32_t *symbols, const uint32_t *small) {
    if (symbols != small) PyMem_RawFree(symbols);
}

/* An id: an int in [0, 2^32) (spec 14.3). */
static int id_of(PyObject *value, uint32_t *id) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "a token id is an int, not %.100s", Py_TYPE(value)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (v > UINT32_MAX) { PyErr_SetString(PyExc_OverflowError, "a token id is below 2**32"); return -1; }
    *id = (uint32_t)v;
    return 0;
}

static int add_tokens(SegmenterObject *self) {
    PyObject *token, *value;
    Py_ssize_t pos = 0;
    int kind = -1; /* 0 str, 1 bytes */
    while (PyDict_Next(self->tokens, &pos, &token, &value)) {
        int is_bytes = PyBytes_Check(token);
        if (!is_bytes && !PyUnicode_Check(token)) {
            PyErr_Format(PyExc_TypeError, "a token is str or bytes, not %.100s", Py_TYPE(token)->tp_name);
            return -1;
        }
        if (kind >= 0 && kind != is_bytes) {
            PyErr_SetString(PyExc_TypeError, "the tokens are all str or all bytes");
            return -1;
        }
        kind = is_bytes;
        self->of_bytes = is_bytes;
        uint32_t id;
        if (id_of(value, &id)) return -1;
        Py_ssize_t n;
        uint32_t small[SHORT_WORD];
        uint32_t *symbols = symbols_of(self, token, &n, small);
        if (!symbols) return -1;
        int failed = segmenter_add(self->core, symbols, (size_t)n, id);
        free_symbols(symbols, small);
        if (failed) { PyErr_NoMemory(); return -1; }
    }
    return 0;
}

static int set_byte_fallback(SegmenterObject *self, PyObject *byte_ids) {
    PyObject *seq = PySequence_Fast(byte_ids, "byte_ids is a sequence of 256 ids or Nones");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 256) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "byte_ids holds 256 ids or Nones, one per byte");
        return -1;
    }
    uint32_t ids[256];
    uint8_t has[256];
    for (int b = 0; b < 256; b++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, b);
        has[b] = item != Py_None;
        ids[b] = 0;
        if (has[b] && id_of(item, &ids[b])) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    segmenter_set_byte_fallback(self->core, ids, has);
    return 0;
}

static void clear_id_objects(SegmenterObject *self) {
    for (size_t k = 0; k < self->id_count; k++) Py_XDECREF(self->id_objects[k]);
    PyMem_Free(self->id_objects);
    self->id_objects = NULL;
    self->id_count = 0;
}

static void keep_id_object(SegmenterObject *self, PyObject *value) {
    unsigned long long id = PyLong_AsUnsignedLongLong(value); /* checked by id_of already */
    if (id < self->id_count && !self->id_objects[id]) self->id_objects[id] = Py_NewRef(value);
}

/* The id objects by id, when the largest id is below twice the number of ids (plus room for the
 * byte tokens): -1 when memory runs out. */
static int keep_id_objects(SegmenterObject *self, PyObject *byte_ids) {
    PyObject *token, *value;
    Py_ssize_t pos = 0;
    unsigned long long largest = 0;
    while (PyDict_Next(self->tokens, &pos, &token, &value)) {
        unsigned long long id = PyLong_AsUnsignedLongLong(value);
        if (id > largest) largest = id;
    }
    size_t ids = (size_t)PyDict_GET_SIZE(self->tokens) + 256;
    if (largest >= 2 * ids + 1024) return 0; /* sparse ids: new ints, as the core gives them */
    self->id_count = (size_t)largest + 257;
    self->id_objects = PyMem_Calloc(self->id_count, sizeof(PyObject *));
    if (!self->id_objects) { self->id_count = 0; PyErr_NoMemory(); return -1; }
    pos = 0;
    while (PyDict_Next(self->tokens, &pos, &token, &value)) keep_id_object(self, value);
    if (byte_ids != Py_None) {
        for (Py_ssize_t b = 0; b < PySequence_Size(byte_ids); b++) {
            PyObject *item = PySequence_GetItem(byte_ids, b);
            if (!item) return -1;
            if (item != Py_None) keep_id_object(self, item);
            Py_DECREF(item);
        }
    }
    return 0;
}

static int Segmenter_init(SegmenterObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"tokens", "byte_ids", "fallback", NULL};
    PyObject *tokens, *byte_ids = Py_None, *fallback = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO:Segmenter", keywords, &tokens, &byte_ids, &fallback))
        return -1;
    if ((byte_ids == Py_None) != (fallback == Py_None)) {
        PyErr_SetString(PyExc_TypeError, "byte_ids and fallback come together (the native segmenter's "
                                         "fallback is byte fallback)");
        return -1;
    }
    Py_CLEAR(self->tokens);
    Py_CLEAR(self->fallback);
    clear_id_objects(self);
    segmenter_free(self->core);
    self->core = segmenter_new();
    if (!self->core) { PyErr_NoMemory(); return -1; }
    self->tokens = PyDict_New();
    if (!self->tokens || PyDict_Merge(self->tokens, tokens, 1)) return -1; /* dict(tokens) */
    self->fallback = Py_NewRef(fallback);
    if (add_tokens(self)) return -1;
    if (byte_ids != Py_None && set_byte_fallback(self, byte_ids)) return -1;
    return keep_id_objects(self, byte_ids);
}

/* The pure path's error for a word nothing spells. */
static void no_segmentation(PyObject *word) {
    PyObject *head = PySequence_GetSlice(word, 0, 40);
    if (!head) return;
    PyErr_Format(PyExc_ValueError, "no segmentation of %R: a symbol has no token", head);
    Py_DECREF(head);
}

/* The symbol at `at` has no token and byte fallback cannot spell it: the pure path's fallback
 * raises there, so call it for the same error. */
static void no_fallback(SegmenterObject *self, PyObject *word, size_t at) {
    PyObject *symbol = PySequence_GetSlice(word, (Py_ssize_t)at, (Py_ssize_t)at + 1);
    if (!symbol) return;
    PyObject *ids = PyObject_CallOneArg(self->fallback, symbol);
    Py_DECREF(symbol);
    if (ids) {
        Py_DECREF(ids);
        PyErr_Format(PyExc_SystemError, "the native segmenter found no byte fallback at %zu, "
                                        "but the fallback function gave ids", at);
    }
}

/* Where the pure path's fallback, called on a byte (a bytes word's symbol), raises first: the
 * rightmost symbol that is not a token (its DP runs right to left); n when there is none. */
static size_t first_bytes_fallback(const segmenter *core, const uint32_t *symbols, size_t n) {
    uint32_t id;
    if (segmenter_whole(core, symbols, n, &id)) return n;
    for (size_t i = n; i-- > 0;)
        if (!segmenter_is_token(core, symbols[i])) return i;
    return n;
}

static PyObject *ids_list(SegmenterObject *self, const idbuf *ids) {
    PyObject *list = PyList_New((Py_ssize_t)ids->len);
    for (size_t k = 0; list && k < ids->len; k++) {
        uint32_t i = ids->data[k];
        PyObject *id = i < self->id_count && self->id_objects[i] ? Py_NewRef(self->id_objects[i])
                                                                 : PyLong_FromUnsignedLong(i);
        if (!id) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, (Py_ssize_t)k, id);
    }
    return list;
}

static PyObject *Segmenter_leftmost_longest(SegmenterObject *self, PyObject *word) {
    if (!self->core) return PyErr_Format(PyExc_ValueError, "the segmenter is not initialised");
    Py_ssize_t n;
    uint32_t small[SHORT_WORD];
    uint32_t *symbols = symbols_of(self, word, &n, small);
    if (!symbols) return NULL;
    if (PyBytes_Check(word) && self->fallback != Py_None) { /* fallback on a byte: the pure path's error */
        size_t at = first_bytes_fallback(self->core, symbols, (size_t)n);
        if (at < (size_t)n) { free_symbols(symbols, small); no_fallback(self, word, at); return NULL; }
    }
    idbuf ids;
    cpbuf_init(&ids);
    size_t at = 0;
    int result;
    if (n <= SHORT_WORD) {
        result = segment_word(self->core, symbols, (size_t)n, &ids, &at);
    } else {
        Py_BEGIN_ALLOW_THREADS
        result = segment_word(self->core, symbols, (size_t)n, &ids, &at);
        Py_END_ALLOW_THREADS
    }
    free_symbols(symbols, small);
    PyObject *list = NULL;
    if (result == SEGMENT_OK) list = ids_list(self, &ids);
    else if (result == SEGMENT_NO_TOKEN) no_segmentation(word);
    else if (result == SEGMENT_NO_FALLBACK) no_fallback(self, word, at);
    else PyErr_NoMemory();
    cpbuf_free(&ids);
    return list;
}

static PyObject *Segmenter_segment(SegmenterObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"", "tie_break", "greedy", NULL};
    PyObject *word, *tie_break = NULL, *greedy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$OO:segment", keywords, &word, &tie_break, &greedy))
        return NULL;
    if (!tie_break) return Segmenter_leftmost_longest(self, word);
    int prefer = PyUnicode_Check(tie_break) && PyUnicode_CompareWithASCIIString(tie_break, "prefer-greedy") == 0;
    if (prefer) {
        if (greedy == Py_None) {
            PyErr_SetString(PyExc_ValueError, "tie_break='prefer-greedy' needs the greedy ids");
            return NULL;
        }
        PyObject *ids = Segmenter_leftmost_longest(self, word);
        if (!ids) return NULL;
        Py_ssize_t size = PyObject_Size(greedy);
        if (size < 0) { Py_DECREF(ids); return NULL; }
        if (size != PyList_GET_SIZE(ids)) return ids;
        Py_DECREF(ids);
        return PySequence_List(greedy);
    }
    if (!PyUnicode_Check(tie_break) || PyUnicode_CompareWithASCIIString(tie_break, "leftmost-longest") != 0)
        return PyErr_Format(PyExc_ValueError, "unknown tie_break %R; expected one of "
                                              "('leftmost-longest', 'prefer-greedy')", tie_break);
    return Segmenter_leftmost_longest(self, word);
}

static PyObject *Segmenter_count(SegmenterObject *self, PyObject *word) {
    /* the leftmost-longest segmentation has the fewest tokens (a fallback edge counts its ids) */
    PyObject *ids = Segmenter_leftmost_longest(self, word);
    if (!ids) return NULL;
    PyObject *count = PyLong_FromSsize_t(PyList_GET_SIZE(ids));
    Py_DECREF(ids);
    return count;
}

static int Segmenter_traverse(SegmenterObject *self, visitproc visit, void *arg) {
    Py_VISIT(self->tokens);
    Py_VISIT(self->fallback);
    return 0;
}

static int Segmenter_clear(SegmenterObject *self) {
    Py_CLEAR(self->tokens);
    Py_CLEAR(self->fallback);
    return 0;
}

static void Segmenter_dealloc(SegmenterObject *self) {
    PyObject_GC_UnTrack(self);
    Segmenter_clear(self);
    clear_id_objects(self);
    segmenter_free(self->core);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef Segmenter_methods[] = {
    {"leftmost_longest", (PyCFunction)Segmenter_leftmost_longest, METH_O,
     "leftmost_longest(word) -> list[int]: the ids of the leftmost-longest optimal segmentation."},
    {"segment", (PyCFunction)(void (*)(void))Segmenter_segment, METH_VARARGS | METH_KEYWORDS,
     "segment(word, *, tie_break='leftmost-longest', greedy=None) -> list[int] (spec 10.2)."},
    {"count", (PyCFunction)Segmenter_count, METH_O, "count(word) -> int: the fewest tokens that spell word."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Segmenter_members[] = {
    {"tokens", T_OBJECT, offsetof(SegmenterObject, tokens), READONLY, "the candidate tokens and their ids"},
    {"fallback", T_OBJECT, offsetof(SegmenterObject, fallback), READONLY, "the fallback function, or None"},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject segmenter_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "functok._native.Segmenter",
    .tp_basicsize = sizeof(SegmenterObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Segmenter(tokens, byte_ids=None, fallback=None): optimal segmentation (spec 10) in C.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Segmenter_init,
    .tp_dealloc = (destructor)Segmenter_dealloc,
    .tp_traverse = (traverseproc)Segmenter_traverse,
    .tp_clear = (inquiry)Segmenter_clear,
    .tp_methods = Segmenter_methods,
    .tp_members = Segmenter_members,
};
