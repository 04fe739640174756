/* functok._native.TiktokenMerger: tiktoken's byte-pair merge rule over a rank table (bytes ->
 * rank), identical to functok.tokenizer.bpe.TiktokenBPE (spec 14.5), for rank files
 * (tokenizer/external.py's CompiledTiktokenBPE, through functok.engine.tiktoken_merger). Pieces
 * are short, so a call keeps the GIL. */
#include "binding.h"

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
