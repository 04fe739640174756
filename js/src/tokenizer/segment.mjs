// One pre-token's optimal segmentation (spec 10) over a character vocabulary given as lists:
// the conformance `segment` op, and the package's `segment` export. The lists become a
// tokenizer.json and go through loadHF to a TokenVocabulary, the one every Tokenizer runs, as
// Python's functok.conformance.ops.segment goes through load_hf. There is no second segmenter.
import { BYTE_TOKENS } from './bpe.mjs';
import { loadHF } from './external.mjs';

/**
 * A character vocabulary: `tokens` in id order (the id is the index), `merges` in rank order
 * ([left, right] pairs), `specialTokens` (never candidates, spec 10.1), `byteFallback` (the
 * tokens <0x00>..<0xFF> serve characters missing from the vocabulary; those not listed are
 * added after `tokens`), `ignoreMerges` (greedy BPE: a pre-token that is a token is that token).
 */
export class Vocabulary {
  constructor({ tokens, merges = [], specialTokens = [], byteFallback = false, ignoreMerges = false }) {
    const listed = new Set(tokens);
    this.tokens = [...tokens, ...(byteFallback ? BYTE_TOKENS.filter((t) => !listed.has(t)) : [])];
    const vocab = new Map(this.tokens.map((t, id) => [t, id])); // a token listed twice: its last id
    this.vocabulary = loadHF({
      model: {
        type: 'BPE', vocab: Object.fromEntries(vocab), merges: merges.map(([a, b]) => [a, b]),
        byte_fallback: Boolean(byteFallback), ignore_merges: Boolean(ignoreMerges),
      },
      added_tokens: specialTokens.map((t) => ({ content: t, id: vocab.get(t) })),
    }, { name: 'vocabulary' });
  }

  /** Greedy BPE as Hugging Face applies it (spec 14.5): the token strings. */
  greedy(pretoken) { return this._spell(this.vocabulary.ids(pretoken, { segmentation: 'greedy' })); }

  /** The candidate tokens V (spec 10.1), optionally only those the merges reach. */
  candidateSet(reachableOnly = false) { return new Set(this.vocabulary.candidates({ reachableOnly }).keys()); }

  _spell(ids) { return ids.map((id) => this.tokens[id]); }
}

/**
 * Minimum-token segmentation of one pre-token (spec 10.2) with a tie-break (10.3), by the
 * vocabulary's own segmenter. Returns the token strings (byte-fallback tokens as `<0xNN>`).
 */
export function segment(pretoken, vocabulary, { tieBreak = 'leftmost-longest', reachableOnly = false } = {}) {
  const ids = vocabulary.vocabulary.ids(pretoken, { segmentation: 'optimal', tieBreak, reachableOnly });
  return vocabulary._spell(ids);
}
