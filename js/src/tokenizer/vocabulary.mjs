// A vocabulary: a merge model's tokens, its pre-tokenizer, and both segmentations over them
// (greedy BPE, and optimal segmentation of spec 10 with its two tie-breaks), with one cache of
// ids per pre-token and mode. functok's own tokenizers and external vocabularies (external.mjs)
// are both one of these.
import { BYTE_TOKENS, utf8Bytes } from './bpe.mjs';
import { Segmenter } from './segmenter.mjs';
import { codePoints } from '../text.mjs';

export const SEGMENTATIONS = Object.freeze(['greedy', 'optimal']);
/** The tie-breaks of optimal segmentation (spec 10.3). */
export const TIE_BREAKS = Object.freeze(['leftmost-longest', 'prefer-greedy']);
const CACHE_LIMIT = 1 << 17; // pre-tokens per mode; emptied when full

/**
 * How a vocabulary's pre-tokens are spelled in its model's symbols (spec 10.1). `spell` gives
 * what the merge model reads, `symbols` the integer symbols the segmenter reads (of a spelled
 * pre-token or of a token key).
 */
export const CHARACTERS = Object.freeze({ alphabet: 'characters', spell: (p) => p, symbols: codePoints });

/** Text pre-tokens over a vocabulary of byte strings (a tiktoken rank file; keys are one char per byte). */
export const UTF8_BYTES = Object.freeze({
  alphabet: 'byte-level',
  spell: latin1Utf8,
  symbols: (s) => { const out = new Array(s.length); for (let k = 0; k < s.length; k++) out[k] = s.charCodeAt(k); return out; },
});

/** The UTF-8 bytes of a string as a byte string (one char per byte). */
export function latin1Utf8(text) {
  let ascii = true;
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) >= 0x80) { ascii = false; break; }
  if (ascii) return text;
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let k = 0; k < bytes.length; k += 4096) out += String.fromCharCode.apply(null, bytes.subarray(k, k + 4096));
  return out;
}

/** A TypeError unless `segmentation` and `tieBreak` are known ones. */
export function checkMode(segmentation, tieBreak) {
  if (!SEGMENTATIONS.includes(segmentation)) throw new TypeError(`unknown segmentation ${JSON.stringify(segmentation)}; expected one of ${SEGMENTATIONS.join(', ')}`);
  if (!TIE_BREAKS.includes(tieBreak)) throw new TypeError(`unknown tieBreak ${JSON.stringify(tieBreak)}; expected one of ${TIE_BREAKS.join(', ')}`);
}

export class TokenVocabulary {
  /**
   * `tokens`: Map token -> id (every model token, special ones included); `specialTokens`:
   * Map token -> id; `model`: a BPE or TiktokenBPE; `preTokenizer`: text -> pre-tokens;
   * `symbols`: CHARACTERS or UTF8_BYTES.
   */
  constructor({ name, tokens, specialTokens = new Map(), model, preTokenizer, symbols = CHARACTERS }) {
    this.name = name;
    this.tokens = tokens;
    this.specialTokens = specialTokens;
    this.model = model;
    this.preTokenizer = preTokenizer;
    this.symbols = symbols;
    this._segmenters = new Map();
    this._modes = new Map();
  }

  get alphabet() { return this.symbols.alphabet; }
  get byteFallback() { return this.model.byteFallback; }
  get size() { return this.tokens.size; }

  preTokenize(text) { return this.preTokenizer(text); }

  /** The DP's tokens: no special tokens, no byte-fallback tokens; optionally only reachable ones. */
  candidates({ reachableOnly = false } = {}) {
    const special = new Set(this.specialTokens.values());
    const bytes = new Set(this.byteFallback ? BYTE_TOKENS : []);
    const keep = reachableOnly ? this.model.reachable() : null;
    const out = new Map();
    for (const [t, id] of this.tokens) {
      if (special.has(id) || bytes.has(t) || (keep !== null && !keep.has(t))) continue;
      out.set(t, id);
    }
    return out;
  }

  segmenter(reachableOnly = false) {
    let seg = this._segmenters.get(reachableOnly);
    if (seg === undefined) {
      const entries = [];
      for (const [t, id] of this.candidates({ reachableOnly })) entries.push([this.symbols.symbols(t), id]);
      seg = new Segmenter(entries, this.byteFallback ? (c) => this._byteFallbackIds(c) : null);
      this._segmenters.set(reachableOnly, seg);
    }
    return seg;
  }

  _byteFallbackIds(cp) {
    const b = utf8Bytes(cp);
    const ids = b === null ? [undefined] : b.map((x) => this.tokens.get(BYTE_TOKENS[x]));
    if (ids.includes(undefined)) return null;
    return ids;
  }

  /** All ids of `text`: its pre-tokens' ids, concatenated. */
  encode(text, options = {}) { return this.encodePretokens(this.preTokenize(text), options); }

  /** The ids of one pre-token. */
  ids(pretoken, options = {}) { return this.encodePretokens([pretoken], options); }

  /** The ids of each pre-token, concatenated (cached per pre-token and mode). */
  encodePretokens(pretokens, { segmentation = 'greedy', tieBreak = 'leftmost-longest', reachableOnly = false } = {}) {
    const { cache, compute } = this._mode(segmentation, tieBreak, reachableOnly);
    const out = [];
    for (const p of pretokens) {
      let found = cache.get(p);
      if (found === undefined) {
        found = compute(p);
        if (cache.size >= CACHE_LIMIT) cache.clear();
        cache.set(p, found);
      }
      for (let k = 0; k < found.length; k++) out.push(found[k]);
    }
    return out;
  }

  /** Forget the cached ids (benchmarks start cold with it). */
  clearCache() { this._modes.clear(); }

  /** A mode's { cache: Map pre-token -> ids, compute: pre-token -> ids }. */
  _mode(segmentation, tieBreak, reachableOnly) {
    checkMode(segmentation, tieBreak);
    const key = segmentation === 'greedy' ? 'greedy' : `optimal|${tieBreak}|${Boolean(reachableOnly)}`;
    let mode = this._modes.get(key);
    if (mode === undefined) { mode = { cache: new Map(), compute: this._computer(segmentation, tieBreak, Boolean(reachableOnly)) }; this._modes.set(key, mode); }
    return mode;
  }

  _computer(segmentation, tieBreak, reachableOnly) {
    const { spell, symbols } = this.symbols;
    const model = this.model;
    if (segmentation === 'greedy') return (p) => model.tokenize(spell(p));
    const seg = this.segmenter(reachableOnly);
    const best = (p) => seg.segment(symbols(spell(p)));
    if (tieBreak === 'leftmost-longest') return best;
    return (p) => { // prefer-greedy: greedy's ids when they are as few as the optimum
      const ids = best(p);
      const greedy = this.ids(p, { segmentation: 'greedy' });
      return greedy.length === ids.length ? greedy : ids;
    };
  }
}
