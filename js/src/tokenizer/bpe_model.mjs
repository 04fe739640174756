// A tokenizer.json's BPE model (spec 14.3, and external vocabularies): its vocabulary, merges and
// added tokens, checked so that each fault is a TokenizerFileError naming its place.
import { Checker, MAX_ID, describe, field, isId, isObject, shown } from './json_checks.mjs';

/** The BPE parts of a tokenizer.json at JSON path `root`: { model, vocab: Map, merges, specialTokens: Map, idToToken: Map }. */
export function checkBpe(data, file, root, { addedInVocab = false } = {}) {
  const c = new Checker(file);
  if (!isObject(data)) c.fail(root, `expected an object (a tokenizer.json), got ${describe(data)}`);
  const model = c.get(data, root, 'model', 'an object', isObject);
  const at = field(root, 'model');
  c.get(model, at, 'type', '"BPE"', (v) => v === 'BPE', 'BPE');
  const vocabObject = c.get(model, at, 'vocab', 'an object (token to id)', isObject);
  const vocab = new Map(), idToToken = new Map();
  for (const [token, id] of Object.entries(vocabObject)) {
    const where = `${field(at, 'vocab')}[${shown(token)}]`;
    if (!isId(id)) c.fail(where, `expected an integer id from 0 to ${MAX_ID - 1}, got ${describe(id)}`);
    if (idToToken.has(id)) c.fail(where, `expected a unique id, got ${id}, the id of ${shown(idToToken.get(id))}`);
    vocab.set(token, id + 0); idToToken.set(id + 0, token); // + 0: -0 is the id 0
  }
  const rawMerges = c.get(model, at, 'merges', 'a list of merges', Array.isArray);
  const merges = rawMerges.map((m, k) => {
    const here = `${field(at, 'merges')}[${k}]`;
    let pair = null;
    if (typeof m === 'string' && m.split(' ').length === 2) pair = m.split(' ');
    else if (Array.isArray(m) && m.length === 2 && m.every((t) => typeof t === 'string')) pair = m;
    else c.fail(here, `expected a merge, "left right" or ["left", "right"], got ${describe(m)}`);
    for (const t of pair) if (!vocab.has(t)) c.fail(here, `expected a token of the vocabulary, got ${describe(t)}`);
    if (!vocab.has(pair[0] + pair[1])) c.fail(here, `expected a merge whose result is a token, but ${shown(pair[0] + pair[1])} is not in the vocabulary`);
    return [pair[0], pair[1]];
  });
  const added = c.get(data, root, 'added_tokens', 'a list of tokens', (v) => v === null || Array.isArray(v), null);
  const specialTokens = new Map(), ids = new Set();
  (added ?? []).forEach((token, k) => {
    const here = `${field(root, 'added_tokens')}[${k}]`;
    if (!isObject(token)) c.fail(here, `expected an object with content and id, got ${describe(token)}`);
    const content = c.get(token, here, 'content', 'a non-empty string', (v) => typeof v === 'string' && v !== '');
    const id = c.get(token, here, 'id', `an integer id from 0 to ${MAX_ID - 1}`, isId) + 0;
    if (vocab.has(content) || addedInVocab) {
      if (vocab.get(content) !== id) c.fail(field(here, 'id'), `expected the vocabulary's id of ${shown(content)} (${vocab.get(content) ?? 'none: it is not in the vocabulary'}), got ${id}`);
    } else if (idToToken.has(id)) c.fail(field(here, 'id'), `expected an id no vocabulary token has, got ${id}, the id of ${shown(idToToken.get(id))}`);
    if (specialTokens.has(content)) c.fail(here, `expected each added token once, got ${shown(content)} again`);
    if (ids.has(id)) c.fail(field(here, 'id'), `expected a unique id, got ${id} again`);
    specialTokens.set(content, id); ids.add(id);
  });
  return { model, vocab, merges, specialTokens, idToToken };
}
