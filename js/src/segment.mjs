// Optimal segmentation (spec 10) over a character vocabulary (symbols are code points), with
// byte fallback, and the greedy BPE that the `prefer-greedy` tie-break compares against.
import { codePoints, fromCodePoints } from './text.mjs';

export const TIE_BREAKS = Object.freeze(['leftmost-longest', 'prefer-greedy']);

const hex2 = (b) => b.toString(16).toUpperCase().padStart(2, '0');
/** The byte-fallback tokens <0x00>..<0xFF>, as `tokenizers` spells them, by byte. */
export const BYTE_TOKENS = Object.freeze(Array.from({ length: 256 }, (_, b) => `<0x${hex2(b)}>`));

/** The UTF-8 bytes of one code point (a surrogate code point has none: it cannot fall back). */
export function utf8(cp) {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp >= 0xd800 && cp <= 0xdfff) return null;
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

function buildTrie(tokens) {
  const root = new Map();
  for (const t of tokens) {
    let node = root;
    for (const c of codePoints(t)) {
      let next = node.get(c);
      if (next === undefined) { next = new Map(); node.set(c, next); }
      node = next;
    }
    node.end = true;
  }
  return root;
}

/**
 * A character vocabulary: `tokens` in id order, `merges` in rank order ([left, right] pairs),
 * `specialTokens` (never candidates), `byteFallback` (the tokens <0x00>..<0xFF> serve characters
 * missing from the vocabulary; they need not be listed in `tokens`).
 */
export class Vocabulary {
  constructor({ tokens, merges = [], specialTokens = [], byteFallback = false, ignoreMerges = false }) {
    this.tokens = [...tokens];
    this.merges = merges.map(([a, b]) => [a, b]);
    this.specialTokens = new Set(specialTokens);
    this.byteFallback = byteFallback;
    this.ignoreMerges = ignoreMerges;
    this.ids = new Map();
    this.tokens.forEach((t, id) => { if (!this.ids.has(t)) this.ids.set(t, id); });
    const bytes = new Set(byteFallback ? BYTE_TOKENS : []);
    // 10.1 candidate tokens: never special tokens, never byte-fallback tokens
    this.candidates = new Set(this.tokens.filter((t) => !this.specialTokens.has(t) && !bytes.has(t)));
    this.ranks = new Map(); // left -> Map(right -> rank)
    this.merges.forEach(([a, b], rank) => {
      let m = this.ranks.get(a);
      if (m === undefined) { m = new Map(); this.ranks.set(a, m); }
      m.set(b, rank); // a pair listed twice takes its last rank (spec 14.3, as tokenizers does)
    });
    this._tries = new Map();
    this._caches = new Map();
  }

  /** The candidate tokens V, optionally only those reachable by the merges (10.1). */
  candidateSet(reachableOnly = false) {
    if (!reachableOnly) return this.candidates;
    if (this._reachable === undefined) {
      const reach = new Set();
      for (const t of this.tokens) if (codePoints(t).length === 1) reach.add(t);
      let added = true;
      while (added) {
        added = false;
        for (const [a, b] of this.merges) {
          const ab = a + b;
          if (!reach.has(ab) && reach.has(a) && reach.has(b)) { reach.add(ab); added = true; }
        }
      }
      this._reachable = new Set([...this.candidates].filter((t) => reach.has(t)));
    }
    return this._reachable;
  }

  _trie(reachableOnly) {
    let t = this._tries.get(reachableOnly);
    if (t === undefined) { t = buildTrie(this.candidateSet(reachableOnly)); this._tries.set(reachableOnly, t); }
    return t;
  }

  /** The fallback tokens of one symbol, or null when it has none. */
  _fallback(cp) {
    if (!this.byteFallback) return null;
    const b = utf8(cp);
    return b === null ? null : b.map((x) => BYTE_TOKENS[x]);
  }

  /**
   * Greedy BPE as Hugging Face applies it (10.3): the adjacent pair with the lowest merge rank is
   * merged first, the leftmost on ties; a character missing from the vocabulary becomes its
   * byte-fallback tokens. Returns token strings.
   */
  greedy(pretoken) {
    if (pretoken === '') return [];
    if (this.ignoreMerges && this.ids.has(pretoken)) return [pretoken];
    const symbols = [];
    for (const c of codePoints(pretoken)) {
      const s = fromCodePoints([c]);
      if (this.ids.has(s)) symbols.push(s);
      else {
        const f = this._fallback(c);
        if (f === null) throw new Error(`greedy: U+${c.toString(16).toUpperCase()} is not in the vocabulary`);
        symbols.push(...f);
      }
    }
    for (;;) {
      let best = -1, bestRank = Infinity;
      for (let k = 0; k + 1 < symbols.length; k++) {
        const r = this.ranks.get(symbols[k])?.get(symbols[k + 1]);
        if (r !== undefined && r < bestRank && this.ids.has(symbols[k] + symbols[k + 1])) { bestRank = r; best = k; }
      }
      if (best < 0) return symbols;
      symbols.splice(best, 2, symbols[best] + symbols[best + 1]);
    }
  }
}

/**
 * Minimum-token segmentation of one pre-token (spec 10.2) with a tie-break (10.3). Returns the
 * token strings (byte-fallback tokens as `<0xNN>`).
 */
export function segment(pretoken, vocabulary, { tieBreak = 'leftmost-longest', reachableOnly = false } = {}) {
  if (!TIE_BREAKS.includes(tieBreak)) throw new TypeError(`tieBreak must be one of ${TIE_BREAKS.join(', ')}`);
  const key = `${tieBreak}|${reachableOnly}`;
  let cache = vocabulary._caches.get(key);
  if (cache === undefined) { cache = new Map(); vocabulary._caches.set(key, cache); }
  const hit = cache.get(pretoken);
  if (hit !== undefined) return hit.slice();
  const result = segmentUncached(pretoken, vocabulary, tieBreak, reachableOnly);
  if (cache.size >= 1 << 16) cache.clear();
  cache.set(pretoken, result);
  return result.slice();
}

function segmentUncached(pretoken, vocabulary, tieBreak, reachableOnly) {
  const x = codePoints(pretoken);
  const n = x.length;
  if (n === 0) return [];
  const root = vocabulary._trie(reachableOnly);
  // cost[i] and, for each i, the token ends j reachable from i
  const cost = new Float64Array(n + 1);
  const ends = new Array(n);
  const fallbackCost = new Float64Array(n); // 0: x[i] is a candidate (no fallback edge)
  for (let i = n - 1; i >= 0; i--) {
    const js = [];
    let node = root;
    for (let j = i; j < n; j++) {
      node = node.get(x[j]);
      if (node === undefined) break;
      if (node.end) js.push(j + 1);
    }
    ends[i] = js;
    let best = Infinity;
    for (const j of js) if (1 + cost[j] < best) best = 1 + cost[j];
    if (js.length === 0 || js[0] !== i + 1) { // x[i] is not itself a candidate
      const f = vocabulary._fallback(x[i]);
      if (f !== null) {
        fallbackCost[i] = f.length;
        if (f.length + cost[i + 1] < best) best = f.length + cost[i + 1];
      }
    }
    if (best === Infinity) {
      throw new Error(`segment: U+${x[i].toString(16).toUpperCase()} is not in the vocabulary and has no fallback`);
    }
    cost[i] = best;
  }
  if (tieBreak === 'prefer-greedy') {
    const g = vocabulary.greedy(pretoken);
    if (g.length === cost[0]) return g;
  }
  // leftmost-longest: the largest j with edge cost + cost[j] == cost[i]
  const out = [];
  let i = 0;
  while (i < n) {
    let next = -1;
    const js = ends[i];
    for (let k = js.length - 1; k >= 0; k--) {
      if (1 + cost[js[k]] === cost[i]) { next = js[k]; break; }
    }
    if (next > 0) { out.push(fromCodePoints(x, i, next)); i = next; continue; }
    // only the fallback edge is left (j = i + 1)
    out.push(...vocabulary._fallback(x[i]));
    i += 1;
  }
  return out;
}
