// External vocabularies for segmentation (as Python's functok.tokenizer.external): a Hugging
// Face tokenizer.json with a BPE model (byte-level or byte fallback), and a tiktoken rank file
// (or js-tiktoken's packed ranks). Each loader returns a TokenVocabulary, so optimal
// segmentation can be compared with greedy BPE on a production vocabulary. Pre-tokenizers run
// here, over the pinned tables: the ones production files use (ByteLevel, Split with the GPT-2
// or llama3 pattern, Metaspace, and Sequences of them; normalizers NFC, Prepend, Replace);
// for anything else pass `preTokenizer`.
import { BPE, TiktokenBPE } from './bpe.mjs';
import { TokenVocabulary, CHARACTERS, UTF8_BYTES } from './vocabulary.mjs';
import { Checker, TokenizerFileError, checkBpe, describe, parseJson } from './file.mjs';
import { gpt2Split, byteLevel } from './gpt2.mjs';
import { split } from '../split.mjs';
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

/** A normalizer as a function of text, or null for none. */
function normalizerOf(n, file, where) {
  if (n === null || n === undefined) return null;
  switch (n.type) {
    case 'NFC': return nfc;
    case 'Prepend': return (t) => (t === '' ? t : n.prepend + t);
    case 'Replace': {
      if (typeof n.pattern?.String !== 'string') throw unsupported(file, where, 'a Replace normalizer with a regex');
      const from = n.pattern.String, to = n.content;
      return (t) => t.split(from).join(to);
    }
    case 'Sequence': {
      const steps = n.normalizers.map((x, k) => normalizerOf(x, file, `${where}.normalizers[${k}]`)).filter(Boolean);
      return (t) => steps.reduce((acc, f) => f(acc), t);
    }
    default: throw unsupported(file, where, `the normalizer ${describe(n.type)}`);
  }
}

/** A pre-tokenizer as a function from a list of pieces to a list of pieces. */
function preTokenizerOf(p, file, where) {
  switch (p.type) {
    case 'ByteLevel': {
      const cut = p.use_regex === false ? (t) => [t] : gpt2Split;
      return (pieces) => pieces.flatMap((t, k) => {
        const text = p.add_prefix_space && !t.startsWith(' ') ? ` ${t}` : t;
        return cut(text).map(byteLevel);
      });
    }
    case 'Split': {
      const cut = splitterOf(p.pattern?.Regex ?? null);
      if (cut === null || p.behavior !== 'Isolated' || p.invert) throw unsupported(file, where, 'this Split pattern or behavior');
      return (pieces) => pieces.flatMap(cut);
    }
    case 'Metaspace': {
      const r = p.replacement ?? '\u2581';
      const scheme = p.prepend_scheme ?? (p.add_prefix_space === false ? 'never' : 'always');
      return (pieces) => pieces.flatMap((t, k) => {
        if (t === '') return [];
        let s = t.split(' ').join(r);
        if ((scheme === 'always' || (scheme === 'first' && k === 0)) && !s.startsWith(r)) s = r + s;
        if (p.split === false) return s ? [s] : [];
        const out = []; // each replacement starts a piece (MergedWithNext)
        let start = 0;
        for (let i = s.indexOf(r, 1); i >= 0; i = s.indexOf(r, i + 1)) { out.push(s.slice(start, i)); start = i; }
        if (start < s.length) out.push(s.slice(start));
        return out.filter((x) => x !== '');
      });
    }
    case 'Sequence': {
      const steps = p.pretokenizers.map((x, k) => preTokenizerOf(x, file, `${where}.pretokenizers[${k}]`));
      return (pieces) => steps.reduce((acc, f) => f(acc), pieces);
    }
    default: throw unsupported(file, where, `the pre-tokenizer ${describe(p.type)}`);
  }
}

function mentionsByteLevel(v) {
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'string' && x.includes('ByteLevel')) return true;
    if (x !== null && typeof x === 'object') stack.push(...(Array.isArray(x) ? x : [...Object.keys(x), ...Object.values(x)]));
  }
  return false;
}

/**
 * A Hugging Face tokenizer.json (its text or parsed object) with a BPE model. Greedy ids are
 * Hugging Face's BPE; pre-tokens come from the file's normalizer and pre-tokenizer, unless
 * `preTokenizer` (text -> pre-tokens, spelled as the vocabulary's tokens are) replaces them.
 */
export function loadHF(source, { preTokenizer = null, name = 'tokenizer.json' } = {}) {
  const data = typeof source === 'string' ? parseJson(source, name) : source;
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
    const normalize = normalizerOf(data.normalizer, name, '$.normalizer');
    const steps = data.pre_tokenizer ? preTokenizerOf(data.pre_tokenizer, name, '$.pre_tokenizer') : null;
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
 * tiktoken ranks: the text (or bytes) of a rank file, one `base64(token) rank` per line, or
 * js-tiktoken's packed ranks object ({ bpe_ranks, special_tokens, pat_str }, as in
 * js-tiktoken/ranks/gpt2). Returns Map byte string -> rank; refuses a file without all 256 bytes.
 */
export function readTiktokenRanks(source, name = 'ranks') {
  const ranks = new Map(), seen = new Set();
  const add = (b64, rank, where) => {
    let token;
    try { token = atob(b64); } catch { throw new TokenizerFileError(name, where, 'expected "<base64 token> <rank>", but the token is not base64'); }
    if (ranks.has(token)) throw new TokenizerFileError(name, where, `expected each token once, got ${JSON.stringify(b64)} again`);
    if (seen.has(rank)) throw new TokenizerFileError(name, where, `expected a unique rank, got ${rank} again`);
    ranks.set(token, rank); seen.add(rank);
  };
  if (source !== null && typeof source === 'object' && typeof source.bpe_ranks === 'string') {
    for (const line of source.bpe_ranks.split('\n')) {
      if (!line) continue;
      const [, offset, ...tokens] = line.split(' ');
      tokens.forEach((t, k) => add(t, Number(offset) + k, 'bpe_ranks'));
    }
  } else {
    const text = typeof source === 'string' ? source : new TextDecoder().decode(source);
    text.split(/\r\n|\r|\n/).forEach((line, k) => {
      const parts = line.trim().split(/[ \t\v\f]+/);
      if (parts.length === 1 && parts[0] === '') return;
      if (parts.length !== 2 || !/^[0-9]{1,10}$/.test(parts[1])) throw new TokenizerFileError(name, `line ${k + 1}`, 'expected "<base64 token> <rank>"');
      add(parts[0], Number(parts[1]), `line ${k + 1}`);
    });
  }
  if (ranks.size === 0) throw new TokenizerFileError(name, null, 'expected lines "<base64 token> <rank>", got an empty file');
  for (let b = 0; b < 256; b++) {
    if (!ranks.has(String.fromCharCode(b))) throw new TokenizerFileError(name, null, `expected a rank for each of the 256 single bytes, but byte 0x${b.toString(16).toUpperCase().padStart(2, '0')} has none`);
  }
  return ranks;
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
