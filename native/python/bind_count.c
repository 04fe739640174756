/* Training's pre-token counts in functok._native: count_pretokens (count.c), which reads the texts
 * of an iterable one at a time and counts each with the GIL released, into dicts, and
 * count_pretokens_packed, the same counts handed back in flat form (train.py's PackedCounts and
 * fusion.py's ChainTable), with no Python object per pre-token or chain. */
#include "binding.h"
#include "training.h"

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

/* --- The packed form (count_pretokens_packed): no Python object per key ------------------- */

/* The first code point from U+0001 up, no surrogate, that no key holds (train.py's _separator),
 * the number of distinct code points the keys hold and the longest key's length; -1 with an
 * exception set. */
static int key_facts(const counter *c, uint32_t *separator, size_t *distinct, size_t *longest) {
    uint8_t *seen = PyMem_RawCalloc(0x110000 / 8, 1);
    if (!seen) {
        PyErr_NoMemory();
        return -1;
    }
    *distinct = *longest = 0;
    for (size_t i = 0; i < c->len; i++) {
        const uint32_t *key = c->keys.data + c->entries[i].start;
        if (c->entries[i].len > *longest) *longest = c->entries[i].len;
        for (size_t k = 0; k < c->entries[i].len; k++) {
            uint32_t cp = key[k] < 0x110000 ? key[k] : 0;
            if (!(seen[cp >> 3] & 1 << (cp & 7))) (*distinct)++;
            seen[cp >> 3] |= (uint8_t)(1 << (cp & 7));
        }
    }
    *separator = 1;
    while (*separator < 0x110000 && (seen[*separator >> 3] & 1 << (*separator & 7) ||
                                     (*separator >= 0xD800 && *separator <= 0xDFFF)))
        (*separator)++;
    PyMem_RawFree(seen);
    if (*separator >= 0x110000) {
        PyErr_SetString(PyExc_ValueError, "the pre-tokens hold every code point: no separator is left");
        return -1;
    }
    return 0;
}

/* The keys as UTF-8, joined by separator: PackedCounts.data. */
static PyObject *joined_keys(const counter *c, uint32_t separator) {
    size_t size = counter_packed_size(c, separator);
    if (size > PY_SSIZE_T_MAX) return PyErr_NoMemory();
    PyObject *data = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (data) counter_pack(c, separator, (uint8_t *)PyBytes_AS_STRING(data));
    return data;
}

/* The counts, in the keys' order, as the bytes of an array of uint64. */
static PyObject *count_bytes(const counter *c) {
    PyObject *data = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(c->len * sizeof(uint64_t)));
    uint64_t *out = data ? (uint64_t *)PyBytes_AS_STRING(data) : NULL;
    for (size_t i = 0; out && i < c->len; i++) out[i] = c->entries[i].count;
    return data;
}

/* (separator, data, counts, longest, distinct characters): the pre-tokens as PackedCounts holds them. */
static PyObject *packed_words(const counter *words) {
    uint32_t separator;
    size_t distinct, longest;
    if (key_facts(words, &separator, &distinct, &longest)) return NULL;
    cpbuf one = {&separator, 1, 1};
    return Py_BuildValue("(NNNnn)", as_str(&one), joined_keys(words, separator), count_bytes(words),
                         (Py_ssize_t)longest, (Py_ssize_t)distinct);
}

/* (segments, chain_segments, chain_starts, counts, longest): the chains as ChainTable holds them,
 * segments in the order first seen, indices as the bytes of int32 and int64 arrays. */
static PyObject *packed_chains(const counter *chains, uint64_t seed) {
    size_t links = 0, longest = 0;
    for (size_t i = 0; i < chains->len; i++) {
        links += chains->entries[i].ncuts + 1;
        if (chains->entries[i].len > longest) longest = chains->entries[i].len;
    }
    PyObject *indices = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(links * sizeof(int32_t)));
    PyObject *starts = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((chains->len + 1) * sizeof(int64_t)));
    PyObject *segments = NULL, *result = NULL;
    counter segs;
    counter_init(&segs);
    segs.seed = seed;
    if (!indices || !starts) goto done;
    int32_t *index_out = (int32_t *)PyBytes_AS_STRING(indices);
    int64_t *start_out = (int64_t *)PyBytes_AS_STRING(starts);
    size_t at = 0;
    start_out[0] = 0;
    for (size_t i = 0; i < chains->len; i++) {
        const count_entry *e = &chains->entries[i];
        const uint32_t *key = chains->keys.data + e->start;
        for (size_t k = 0, from = 0; k <= e->ncuts; k++) {
            size_t to = k < e->ncuts ? chains->cuts.data[e->cuts_at + k] : e->len, index;
            if (counter_index(&segs, key + from, to - from, NULL, 0, &index) || index >= INT32_MAX) {
                PyErr_NoMemory();
                goto done;
            }
            index_out[at++] = (int32_t)index;
            from = to;
        }
        start_out[i + 1] = (int64_t)at;
    }
    segments = PyList_New((Py_ssize_t)segs.len);
    for (size_t i = 0; segments && i < segs.len; i++) {
        PyObject *segment = key_str(segs.keys.data + segs.entries[i].start, segs.entries[i].len);
        if (!segment) Py_CLEAR(segments);
        else PyList_SET_ITEM(segments, (Py_ssize_t)i, segment);
    }
    if (segments)
        result = Py_BuildValue("(OOONn)", segments, indices, starts, count_bytes(chains), (Py_ssize_t)longest);
done:
    counter_free(&segs);
    Py_XDECREF(segments);
    Py_XDECREF(indices);
    Py_XDECREF(starts);
    return result;
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

/* The seed of the counters' hash: Python's str hash is keyed at random per process (or by
 * PYTHONHASHSEED); the counts do not depend on it, only the time an adversary could cost. -1 with
 * an exception set. */
static int counter_seed(uint64_t *seed) {
    PyObject *seed_text = PyUnicode_FromString("functok count_pretokens");
    Py_hash_t hash = seed_text ? PyObject_Hash(seed_text) : -1;
    Py_XDECREF(seed_text);
    if (hash == -1 && PyErr_Occurred()) return -1;
    *seed = (uint64_t)hash;
    return 0;
}

/* (packed words, packed chains or None), words freed before the chains are packed (the two
 * peaks apart). */
static PyObject *packed_result(counter *words, counter *chains) {
    PyObject *packed = packed_words(words);
    counter_free(words);
    PyObject *table = packed && chains ? packed_chains(chains, chains->seed) : Py_NewRef(Py_None);
    PyObject *result = packed && table ? PyTuple_Pack(2, packed, table) : NULL;
    Py_XDECREF(packed);
    Py_XDECREF(table);
    return result;
}

/* --- Merging packed shards (merge_packed_counts): functok train --workers N ---------------- */

/* A failure of count.c's merge functions as a Python exception; -1. */
static int merge_failed(int failed) {
    if (failed == COUNT_OVERFLOW) PyErr_SetString(PyExc_OverflowError, "a count passes 2**64 - 1 in the merge");
    else if (failed == COUNT_INVALID) PyErr_SetString(PyExc_ValueError, "packed counts that are not well formed");
    else PyErr_NoMemory();
    return -1;
}

/* A contiguous buffer of `item`-byte items (bytes, array) of what, aligned for them; -1 with an
 * exception set. */
static int items_of(PyObject *object, size_t item, const char *what, Py_buffer *view) {
    if (PyObject_GetBuffer(object, view, PyBUF_SIMPLE)) return -1;
    if ((size_t)view->len % item || (view->len && (uintptr_t)view->buf % item)) { /* empty: any address */
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: not whole, aligned %zu-byte items", what, item);
        return -1;
    }
    return 0;
}

/* Adds a shard's packed words (separator, data, counts, ...) to words; -1 with an exception set. */
static int add_packed_words(counter *words, PyObject *packed) {
    if (!PyTuple_Check(packed) || PyTuple_GET_SIZE(packed) < 3) {
        PyErr_SetString(PyExc_TypeError, "a shard's words are (separator, data, counts, ...)");
        return -1;
    }
    PyObject *separator = PyTuple_GET_ITEM(packed, 0);
    if (!PyUnicode_Check(separator) || PyUnicode_GET_LENGTH(separator) != 1) {
        PyErr_SetString(PyExc_ValueError, "a shard's separator is one character");
        return -1;
    }
    Py_buffer data, counts;
    if (PyObject_GetBuffer(PyTuple_GET_ITEM(packed, 1), &data, PyBUF_SIMPLE)) return -1;
    if (items_of(PyTuple_GET_ITEM(packed, 2), sizeof(uint64_t), "counts", &counts)) {
        PyBuffer_Release(&data);
        return -1;
    }
    uint32_t cut = PyUnicode_READ_CHAR(separator, 0);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = counter_add_packed(words, data.buf, (size_t)data.len, cut, counts.buf, (size_t)counts.len / 8);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&data);
    PyBuffer_Release(&counts);
    return failed ? merge_failed(failed) : 0;
}

/* The code points of a list of str, one after the other, and where each ends; -1 with an
 * exception set. */
static int segment_text(PyObject *segments, cpbuf *text, offsets *ends) {
    if (!PyList_Check(segments)) {
        PyErr_SetString(PyExc_TypeError, "a shard's segments are a list of str");
        return -1;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(segments); k++) {
        PyObject *segment = PyList_GET_ITEM(segments, k);
        if (!PyUnicode_Check(segment)) {
            PyErr_SetString(PyExc_TypeError, "a shard's segments are a list of str");
            return -1;
        }
        Py_ssize_t n = PyUnicode_GET_LENGTH(segment);
        if (cpbuf_reserve(text, (size_t)n)) return merge_failed(-1);
        for (Py_ssize_t i = 0; i < n; i++) text->data[text->len++] = PyUnicode_READ_CHAR(segment, i);
        if (offsets_push(ends, text->len)) return merge_failed(-1);
    }
    return 0;
}

/* Adds a shard's packed chains (segments, chain_segments, chain_starts, counts, ...) to chains;
 * -1 with an exception set. */
static int add_packed_chains(counter *chains, PyObject *packed) {
    if (!PyTuple_Check(packed) || PyTuple_GET_SIZE(packed) < 4) {
        PyErr_SetString(PyExc_TypeError, "a shard's chains are (segments, chain_segments, chain_starts, counts, ...)");
        return -1;
    }
    cpbuf text;
    offsets ends;
    cpbuf_init(&text);
    offsets_init(&ends);
    Py_buffer views[3];
    int got = 0, failed = segment_text(PyTuple_GET_ITEM(packed, 0), &text, &ends);
    static const char *names[3] = {"chain_segments", "chain_starts", "counts"};
    static const size_t sizes[3] = {sizeof(int32_t), sizeof(int64_t), sizeof(uint64_t)};
    while (!failed && got < 3) {
        if (items_of(PyTuple_GET_ITEM(packed, got + 1), sizes[got], names[got], &views[got])) failed = -1;
        else got++;
    }
    size_t nchains = got == 3 ? (size_t)views[2].len / 8 : 0;
    if (!failed && (size_t)views[1].len / 8 != nchains + 1) {
        PyErr_SetString(PyExc_ValueError, "a shard's chain_starts are one more than its chains");
        failed = -1;
    }
    if (!failed) {
        Py_BEGIN_ALLOW_THREADS
        failed = counter_add_chains(chains, text.data, ends.data, ends.len, views[0].buf, (size_t)views[0].len / 4,
                                    views[1].buf, views[2].buf, nchains);
        Py_END_ALLOW_THREADS
        if (failed) merge_failed(failed);
    }
    for (int k = 0; k < got; k++) PyBuffer_Release(&views[k]);
    cpbuf_free(&text);
    offsets_free(&ends);
    return failed ? -1 : 0;
}

static PyObject *native_merge_packed_counts(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *shards;
    int with_chains;
    if (!PyArg_ParseTuple(args, "Op:merge_packed_counts", &shards, &with_chains)) return NULL;
    PyObject *iterator = PyObject_GetIter(shards), *shard, *result = NULL;
    if (!iterator) return NULL;
    counter words, chains;
    counter_init(&words);
    counter_init(&chains);
    int failed = counter_seed(&words.seed);
    chains.seed = words.seed;
    while (!failed && (shard = PyIter_Next(iterator))) {
        if (!PyTuple_Check(shard) || PyTuple_GET_SIZE(shard) != 2) {
            PyErr_SetString(PyExc_TypeError, "a shard is (packed words, packed chains or None)");
            failed = -1;
        } else {
            PyObject *table = PyTuple_GET_ITEM(shard, 1);
            failed = add_packed_words(&words, PyTuple_GET_ITEM(shard, 0)) ||
                     (with_chains && table != Py_None && add_packed_chains(&chains, table));
        }
        Py_DECREF(shard); /* each shard freed once added */
    }
    if (!failed && !PyErr_Occurred()) result = packed_result(&words, with_chains ? &chains : NULL);
    Py_DECREF(iterator);
    counter_free(&words);
    counter_free(&chains);
    return result;
}

static PyObject *native_count_pretokens_packed(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *texts;
    int max_digits, cfg, normalize, fuse, with_chains;
    unsigned long long min_count = 1;
    if (!PyArg_ParseTuple(args, "Oiipip|K:count_pretokens_packed", &texts, &max_digits, &cfg, &normalize, &fuse,
                          &with_chains, &min_count))
        return NULL;
    PyObject *iterator = PyObject_GetIter(texts);
    if (!iterator) return NULL;
    counter words, chains;
    counter_init(&words);
    counter_init(&chains);
    PyObject *result = NULL;
    if (!counter_seed(&words.seed) &&
        !count_texts(iterator, max_digits, cfg, normalize, fuse, &words, with_chains ? &chains : NULL)) {
        chains.seed = words.seed;
        if (counter_prune(&words, min_count) || counter_prune(&chains, min_count)) PyErr_NoMemory();
        else result = packed_result(&words, with_chains ? &chains : NULL);
    }
    Py_DECREF(iterator);
    counter_free(&words);
    counter_free(&chains);
    return result;
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
    if (counter_seed(&words.seed)) {
        Py_DECREF(iterator);
        return NULL;
    }
    chains.seed = words.seed;
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
    {"count_pretokens_packed", native_count_pretokens_packed, METH_VARARGS,
     "count_pretokens_packed(texts, max_digits, cfg, normalize, fuse, with_chains, min_count=1) -> "
     "(words, chains): count_pretokens's counts, without those counted fewer than min_count times, in flat form, "
     "with no Python object per key: words is (separator, UTF-8 "
     "of the pre-tokens joined by it, their counts as uint64 bytes, the longest's length, the distinct "
     "characters), chains (with_chains; else None) is (the distinct segments in the order first seen, "
     "each chain's segment indices as int32 bytes, the chains' starts in them as int64 bytes, their "
     "counts as uint64 bytes, the longest chain's length). Keys in the order first seen."},
    {"merge_packed_counts", native_merge_packed_counts, METH_VARARGS,
     "merge_packed_counts(shards, with_chains) -> (words, chains): the sum of shards, each (words, chains) as "
     "count_pretokens_packed gives them (chains None where with_chains is false), added in order with no Python "
     "object per key, in the same flat form; keys in the order first seen, shard after shard."},
    {NULL, NULL, 0, NULL},
};
