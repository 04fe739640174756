// External vocabularies for segmentation (as Python's functok.tokenizer.external): a Hugging
// Face tokenizer.json with a BPE model (byte-level or byte fallback), and a tiktoken rank file
// (or js-tiktoken's packed ranks). Each loader returns a TokenVocabulary, so optimal
// segmentation can be compared with greedy BPE on a production vocabulary. Pre-tokenizers run
// here, over the pinned tables: the ones production files use (ByteLevel, Split with the GPT-2
// or llama3 pattern, Metaspace, and Sequences of them; normalizers NFC, Prepend, Replace);
// for anything else pass `preTokenizer`.
import { BPE, TiktokenBPE } from './bpe.mjs';
import { TokenVocabulary, CHARACTERS, UTF8_BYTES } from './vocabulary.mjs';
import { checkBpe } from './bpe_model.mjs';
import { MAX_DEPTH, decodeUtf8, parseJson, readTiktokenRanks } from './file_reader.mjs';
import { Checker, TokenizerFileError, describe, field, isObject } from './json_checks.mjs';
import { firstSurrogate } from '../text.mjs';
import { gpt2Split, byteLevel } from './gpt2.mjs';
import { split } from '../splitting.mjs';
import { nfc } from '../normalize.mjs';

/** The Split patterns recognized by text (as tokenizer.json writes them), run by the pinned splitters. */
const LLAMA3 = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const PAPER = LLAMA3.replace('\\p{N}{1,3}', '\\p{N}');
const GPT2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
const GPT2_ALT = "'(?:[sdmt]|ll|ve|re)| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
export const PATTERNS = Object.freeze({
  gpt2: gpt2Split, llama3: (t) => split(t, { splitter: 'llama3' }), paper: (t) => split(t, { splitter: 'paper' }),
});

function splitterOf(pattern) {
  if (pattern === LLAMA3) return PATTERNS.llama3;
  if (pattern === PAPER) return PATTERNS.paper;
  if (pattern === GPT2 || pattern === GPT2_ALT) return PATTERNS.gpt2;
  return null;
}

const unsupported = (file, where, what) => new TokenizerFileError(file, where,
  `${what} is not one this loader runs (ByteLevel, Split with the GPT-2 or llama3 pattern, Metaspace, Sequence; normalizers NFC, Prepend, Replace): pass preTokenizer`);

const isBool = (v) => typeof v === 'boolean';
/** A string `tokenizers` can read: no lone surrogate (serde_json refuses one in any string). */
const isText = (v) => typeof v === 'string' && firstSurrogate(v) < 0;
const isChar = (v) => isText(v) && [...v].length === 1; // one code point, as a Rust char
const TEXT = 'a string';

/**
 * The checks of a normalizer or pre-tokenizer object at `where`, `depth` levels deep in the file:
 * what `tokenizers` 0.23 refuses is refused (a missing or mistyped member it requires), so that
 * no value is made up (spec 14.8).
 */
class Part {
  constructor(file, where, value, depth, what) {
    this.c = new Checker(file);
    this.file = file; this.where = where; this.value = value; this.depth = depth;
    if (depth > MAX_DEPTH) this.c.fail(where, `expected JSON nested at most ${MAX_DEPTH} deep (arrays and objects)`);
    if (!isObject(value) || typeof value.type !== 'string') this.c.fail(where, `expected a ${what} object with a type, got ${describe(value)}`);
  }
  /** A required member; `dflt` (not MISSING) makes it optional. */
  get(name, expected, ok, ...dflt) { return this.c.get(this.value, this.where, name, expected, ok, ...dflt); }
  /** The items of a list member, each a Part one object deeper (the list is a level of its own). */
  items(name, what) {
    const list = this.get(name, 'a list', Array.isArray);
    return list.map((x, k) => new Part(this.file, `${field(this.where, name)}[${k}]`, x, this.depth + 2, what));
  }
  /** A {"String": s} or {"Regex": r} pattern: [kind, text]. */
  pattern() {
    const p = this.get('pattern', 'an object with one key, "String" or "Regex"', (v) => isObject(v) && Object.keys(v).length === 1 && ['String', 'Regex'].includes(Object.keys(v)[0]));
    const [kind] = Object.keys(p);
    this.c.get(p, field(this.where, 'pattern'), kind, TEXT, isText);
    return [kind, p[kind]];
  }
}

/** A normalizer as a function of text, or null for none. */
function normalizerOf(n, file, where, depth) {
  if (n === null || n === undefined) return null;
  const part = new Part(file, where, n, depth, 'normalizer');
  switch (n.type) {
    case 'NFC': return nfc;
    case 'Prepend': {
      const prepend = part.get('prepend', TEXT, isText);
      return (t) => (t === '' ? t : prepend + t);
    }
    case 'Replace': {
      const [kind, from] = part.pattern();
      const to = part.get('content', TEXT, isText);
      if (kind !== 'String') throw unsupported(file, where, 'a Replace normalizer with a regex');
      return (t) => t.split(from).join(to);
    }
    case 'Sequence': {
      const steps = part.items('normalizers', 'normalizer').map((x) => normalizerOf(x.value, file, x.where, x.depth));
      return (t) => steps.reduce((acc, f) => f(acc), t);
    }
    default: throw unsupported(file, where, `the normalizer ${describe(n.type)}`);
  }
}

const SCHEMES = ['always', 'never', 'first'];
const BEHAVIORS = ['Removed', 'Isolated', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'];

/** A pre-tokenizer as a function from a list of pieces to a list of pieces. */
function preTokenizerOf(p, file, where, depth) {
  const part = new Part(file, where, p, depth, 'pre-tokenizer');
  switch (p.type) {
    case 'ByteLevel': {
      const addPrefixSpace = part.get('add_prefix_space', 'true or false', isBool);
      part.get('trim_offsets', 'true or false', isBool);
      const cut = part.get('use_regex', 'true or false', isBool, true) ? gpt2Split : (t) => [t];
      return (pieces) => pieces.flatMap((t) => cut(addPrefixSpace && !t.startsWith(' ') ? ` ${t}` : t).map(byteLevel));
    }
    case 'Split': {
      const [kind, pattern] = part.pattern();
      const behavior = part.get('behavior', `one of ${BEHAVIORS.join(', ')}`, (v) => BEHAVIORS.includes(v));
      const invert = part.get('invert', 'true or false', isBool);
      const cut = kind === 'Regex' ? splitterOf(pattern) : null;
      if (cut === null || behavior !== 'Isolated' || invert) throw unsupported(file, where, 'this Split pattern or behavior');
      return (pieces) => pieces.flatMap(cut);
    }
    case 'Metaspace': return metaspace(part);
    case 'Sequence': {
      const steps = part.items('pretokenizers', 'pre-tokenizer').map((x) => preTokenizerOf(x.value, file, x.where, x.depth));
      return (pieces) => steps.reduce((acc, f) => f(acc), pieces);
    }
    default: throw unsupported(file, where, `the pre-tokenizer ${describe(p.type)}`);
  }
}

/** Metaspace: spaces become `replacement` (one character), which may start each piece and begins each word. */
function metaspace(part) {
  const r = part.get('replacement', 'one character', isChar);
  const scheme = part.get('prepend_scheme', `one of ${SCHEMES.join(', ')}`, (v) => SCHEMES.includes(v), null);
  const addPrefixSpace = part.get('add_prefix_space', 'true or false', isBool, null);
  // tokenizers: add_prefix_space false means the scheme "never", and refuses any other with it
  if (addPrefixSpace === false && scheme !== 'never') {
    part.c.fail(field(part.where, 'add_prefix_space'), `expected add_prefix_space true, or prepend_scheme "never" with false, got false with ${scheme === null ? 'no prepend_scheme' : JSON.stringify(scheme)}`);
  }
  const split = part.get('split', 'true, false or null', (v) => v === null || isBool(v), null) ?? true;
  const prepend = scheme ?? 'always';
  return (pieces) => pieces.flatMap((t, k) => {
    if (t === '') return [];
    let s = t.split(' ').join(r);
    if ((prepend === 'always' || (prepend === 'first' && k === 0)) && !s.startsWith(r)) s = r + s;
    if (!split) return [s];
    const out = []; // each replacement starts a piece (MergedWithNext)
    let start = 0;
    for (let i = s.indexOf(r, 1); i >= 0; i = s.indexOf(r, i + 1)) { out.push(s.slice(start, i)); start = i; }
    if (start < s.length) out.push(s.slice(start));
    return out.filter((x) => x !== '');
  });
}

/** Does a string anywhere in the JSON value `v` hold "ByteLevel"? (A loop, no recursion, no spread of long lists.) */
function mentionsByteLevel(v) {
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string' && x.includes('ByteLevel')) return true;
    if (x !== null && typeof x === 'object') {
      for (const item of Array.isArray(x) ? x : Object.values(x)) stack.push(item);
      if (!Array.isArray(x)) for (const key of Object.keys(x)) stack.push(key);
    }
  }
  return false;
}

/**
 * A Hugging Face tokenizer.json (its text or parsed object) with a BPE model. Greedy ids are
 * Hugging Face's BPE; pre-tokens come from the file's normalizer and pre-tokenizer, unless
 * `preTokenizer` (text -> pre-tokens, spelled as the vocabulary's tokens are) replaces them.
 */
export function loadHF(source, { preTokenizer = null, name = 'tokenizer.json' } = {}) {
  const text = source instanceof Uint8Array ? decodeUtf8(source, name) : source;
  const data = typeof text === 'string' ? parseJson(text, name) : text;
  const checked = checkBpe(data, name, '$');
  const { model } = checked;
  const c = new Checker(name);
  for (const key of ['continuing_subword_prefix', 'end_of_word_suffix']) {
    c.get(model, '$.model', key, 'null or "": subword prefixes and suffixes are not supported by the segmenter', (v) => v === null || v === '', null);
  }
  const unk = c.get(model, '$.model', 'unk_token', 'null or a token of the vocabulary', (v) => v === null || (typeof v === 'string' && checked.vocab.has(v)), null);
  const bpe = new BPE(checked.vocab, checked.merges, {
    byteFallback: Boolean(model.byte_fallback), unkToken: unk, fuseUnk: Boolean(model.fuse_unk), ignoreMerges: Boolean(model.ignore_merges),
  });
  let pre = preTokenizer;
  if (pre === null) {
    const normalize = normalizerOf(data.normalizer, name, '$.normalizer', 2);
    const steps = data.pre_tokenizer == null ? null : preTokenizerOf(data.pre_tokenizer, name, '$.pre_tokenizer', 2);
    pre = (text) => {
      const t = normalize === null ? text : normalize(text);
      return steps === null ? (t ? [t] : []) : steps([t]).filter((x) => x !== '');
    };
  }
  return new TokenVocabulary({
    name, tokens: checked.vocab, specialTokens: checked.specialTokens, model: bpe, preTokenizer: pre,
    symbols: mentionsByteLevel([data.pre_tokenizer, data.decoder]) ? { ...CHARACTERS, alphabet: 'byte-level' } : CHARACTERS,
  });
}

/**
 * A tiktoken vocabulary: `pattern` 'gpt2' (default) or 'llama3', or a function text -> pieces.
 * Greedy ids are tiktoken's byte-pair merge; symbols are bytes. `specialTokens`: Map or object
 * (GPT-2's <|endoftext|> is not in the rank file; js-tiktoken's object carries it).
 */
export function loadTiktoken(source, { pattern = 'gpt2', specialTokens, name = 'ranks' } = {}) {
  const ranks = readTiktokenRanks(source, name);
  const cut = typeof pattern === 'function' ? pattern : PATTERNS[pattern];
  if (cut === undefined) throw new TypeError(`unknown pattern ${JSON.stringify(pattern)}; known: ${Object.keys(PATTERNS).join(', ')}, or a function`);
  const specials = specialTokens ?? source?.special_tokens ?? {};
  const specialMap = specials instanceof Map ? specials : new Map(Object.entries(specials));
  return new TokenVocabulary({ name, tokens: ranks, specialTokens: specialMap, model: new TiktokenBPE(ranks), preTokenizer: cut, symbols: UTF8_BYTES });
}
