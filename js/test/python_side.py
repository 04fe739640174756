"""CPython functok's half of the JS tokenizer tests (js/test/*.test.mjs run it; not a test itself).

    python js/test/python_side.py TASK < request.json > answer.json

Tasks (one JSON request on stdin, one JSON answer on stdout):
  train      train functok tokenizers ({"texts", "vocab_size", "settings": [{profile, fuse|split_operators, ...}]}):
             answers each saved file's text
  encode     ids of texts under a tokenizer file's text ({"tokenizer", "texts", "modes"}), and the decoded texts
  decode     Tokenizer.decode and DecodeStream of {"ids"} under {"options"}: text or [error type, id_index, kind, offset]
  hf         train Hugging Face tokenizer.json files of three kinds (gpt2-like, llama3-like, llama2-like) on
             {"train"} and answer each file with `tokenizers`' ids and functok's optimal ids on {"texts"}
  tiktoken   functok's greedy and optimal ids of {"texts"} over the rank file {"path"}
  digests    SHA-256 per text of streams, pieces, pretokens for each option set, and tokenizer ids
  files      each tokenizer file of {"paths"} (t.json, hf.json, r.tiktoken) loaded as its name says: refused
             (the error's type) or accepted, with the ids of {"texts"}
"""

from __future__ import annotations

import hashlib
import inspect
import json
import sys
from pathlib import Path

import functok
from functok.tokenizer import Tokenizer

# tests/fixtures/hf_tokenizers.py, the Hugging Face tokenizers the Python tests train too
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "fixtures"))


def digest(value) -> str:
    """SHA-256 of compact JSON (ensure_ascii=False): the bytes JS's JSON.stringify writes."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def train_options(setting: dict) -> dict:
    """The keyword options of Tokenizer.train this functok knows (fuse arrived in spec 1.2)."""
    known = inspect.signature(Tokenizer.train).parameters
    return {k: v for k, v in setting.items() if k in known}


def train(request: dict) -> list[str]:
    out = []
    for setting in request["settings"]:
        tok = Tokenizer.train(iter(request["texts"]), vocab_size=request["vocab_size"], show_progress=False,
                              special_tokens=request.get("special_tokens", []), **train_options(setting))
        out.append(tok.to_str())
    return out


MODES = {"greedy": {"segmentation": "greedy"},
         "optimal": {"segmentation": "optimal"},
         "optimal-prefer-greedy": {"segmentation": "optimal", "tie_break": "prefer-greedy"},
         "optimal-reachable": {"segmentation": "optimal", "reachable_only": True}}


def encode(request: dict) -> dict:
    tok = Tokenizer.from_str(request["tokenizer"])
    ids = {m: [tok.encode(t, allowed_special="all", **MODES[m]).ids for t in request["texts"]] for m in request["modes"]}
    return {"ids": ids, "decoded": [tok.decode(i) for i in ids[request["modes"][0]]]}


def decode(request: dict) -> list:
    """Tokenizer.decode and DecodeStream of each id list under each option set: text or error."""
    from functok.tokenizer import DecodeStream

    tok = Tokenizer.from_str(request["tokenizer"])

    def outcome(f):
        try:
            return {"text": f()}
        except (functok.FormatError, ValueError) as e:
            return {"error": [type(e).__name__, e.id_index, getattr(e, "kind", None), getattr(e, "offset", None)]}

    def streamed(ids, o):
        s = DecodeStream(tok, **o)
        return "".join(s.step(i) or "" for i in ids) + s.finish()

    return [[[outcome(lambda: tok.decode(ids, **o)), outcome(lambda: streamed(ids, o))] for o in request["options"]]
            for ids in request["ids"]]


def hf(request: dict) -> dict:
    from hf_tokenizers import KINDS, train_hf

    from functok.tokenizer.external import load_hf

    out = {}
    for kind in KINDS:
        t, data = train_hf(kind, request["train"], vocab_size=1500)
        vocab = load_hf(data)
        out[kind] = {"file": json.dumps(data), "alphabet": vocab.alphabet,
                     "greedy": [t.encode(x, add_special_tokens=False).ids for x in request["texts"]],
                     "functok_greedy": [vocab.encode(x) for x in request["texts"]],
                     "optimal": [vocab.encode(x, segmentation="optimal") for x in request["texts"]],
                     "prefer_greedy": [vocab.encode(x, segmentation="optimal", tie_break="prefer-greedy")
                                       for x in request["texts"]]}
    return out


def tiktoken(request: dict) -> dict:
    from functok.tokenizer.external import load_tiktoken

    vocab = load_tiktoken(request["path"], pattern="gpt2")
    return {m: [vocab.encode(t, **MODES[m]) for t in request["texts"]] for m in ("greedy", "optimal", "optimal-prefer-greedy")}


def digests(request: dict) -> dict:
    """For each text: stream, pieces and pretokens digests per option set, and tokenizer ids per mode."""
    toks = [Tokenizer.from_str(t) for t in request.get("tokenizers", [])]
    out = []
    for text in request["texts"]:
        d = {}
        for name, o in request["options"].items():
            try:
                d[f"stream/{name}"] = digest(functok.encode(text, **o))
                d[f"pieces/{name}"] = digest([[p.text, p.start, p.end, [str(i) for i in p.instructions], p.base,
                                               list(p.slot_starts)] for p in functok.pieces(text, **o)])
                for ops in (True, False):
                    d[f"pretokens/{name}/{ops}"] = digest(functok.pretokens(text, split_operators=ops, **o))
                d[f"pretokens/{name}/frequent"] = digest(functok.pretokens(text, fuse="frequent", **o))
            except functok.FormatError as e:
                d[f"error/{name}"] = [e.kind, e.offset]
        for k, tok in enumerate(toks):
            for m in request["modes"]:
                try:
                    ids = tok.encode(text, disallowed_special=(), **MODES[m]).ids
                    d[f"ids/{k}/{m}"] = digest(ids)
                    if m == "greedy":
                        d[f"decoded/{k}"] = digest(tok.decode(ids))
                except functok.FormatError as e:
                    d[f"ids-error/{k}/{m}"] = [e.kind, e.offset]
        out.append(d)
    return {"digests": out}


def files(request: dict) -> list:
    """The verdict of the Python loaders on each file, and on accept the ids of the texts."""
    from functok.tokenizer.external import load_vocabulary

    def verdict(path: str) -> dict:
        try:
            if path.endswith("t.json"):
                tok = Tokenizer.from_file(path)
                return {"verdict": "accept", "ids": [tok.encode(t).ids for t in request["texts"]]}
            vocabulary = load_vocabulary(path)
            return {"verdict": "accept", "ids": [vocabulary.encode(t) for t in request["texts"]]}
        except Exception as e:  # the JS side checks it is a TokenizerFileError
            return {"verdict": "refuse", "error": type(e).__name__, "message": str(e)[:300]}

    return [verdict(p) for p in request["paths"]]


if __name__ == "__main__":
    sys.stdout.reconfigure(encoding="utf-8", errors="surrogatepass")
    request = json.loads(sys.stdin.buffer.read().decode("utf-8", "surrogatepass"))
    answer = {"train": train, "encode": encode, "decode": decode, "hf": hf, "tiktoken": tiktoken, "digests": digests,
              "files": files}[sys.argv[1]](request)
    # json.dumps, not json.dump: dump streams through the pure-Python encoder, many times slower.
    sys.stdout.write(json.dumps(answer, ensure_ascii=True))
