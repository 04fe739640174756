// Optimal segmentation (spec 10) over integer symbols: code points for a character vocabulary
// (or GPT-2's byte alphabet), bytes for a tiktoken rank file. The fewest tokens per pre-token,
// ties broken leftmost-longest (the first token as long as possible, recursively); the
// `prefer-greedy` tie-break is the caller's (TokenVocabulary), which has the greedy ids.
//
// The trie is one open-addressing hash table of edges (node, symbol) -> child, in typed arrays,
// so a step is a multiply and a probe or two; from each position the DP walks it as far as the
// text matches a token prefix (bounded by the longest token, not by the vocabulary's size).

const EMPTY = -1;

export class Segmenter {
  /**
   * `tokens`: an iterable of [symbols (array of non-negative integers), id], the candidate
   * tokens. `fallback(symbol)`: the ids for a symbol that is not itself a candidate, or null
   * (then such a symbol makes the pre-token unsegmentable).
   */
  constructor(tokens, fallback = null) {
    this.fallback = fallback;
    this._fallbackCache = new Map();
    const list = [...tokens];
    let edges = 0;
    for (const [s] of list) edges += s.length;
    let size = 16;
    while (size < 2 * edges + 2) size *= 2;
    this.mask = size - 1;
    this.keyNode = new Int32Array(size).fill(EMPTY);
    this.keySymbol = new Int32Array(size);
    this.child = new Int32Array(size);
    const ids = [EMPTY]; // the token id ending at each node (node 0 is the root)
    let nodes = 1;
    for (const [symbols, id] of list) {
      let node = 0;
      for (const c of symbols) {
        let slot = this._slot(node, c);
        if (this.keyNode[slot] === EMPTY) {
          this.keyNode[slot] = node; this.keySymbol[slot] = c; this.child[slot] = nodes;
          ids.push(EMPTY);
          nodes++;
        }
        node = this.child[slot];
      }
      if (node !== 0 && ids[node] === EMPTY) ids[node] = id;
    }
    this.tokenId = Int32Array.from(ids);
  }

  _slot(node, c) {
    const { keyNode, keySymbol, mask } = this;
    for (let i = (Math.imul(node, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b)) & mask; ; i = (i + 1) & mask) {
      const k = keyNode[i];
      if (k === EMPTY || (k === node && keySymbol[i] === c)) return i;
    }
  }

  /** The child of `node` by symbol `c`, or -1. */
  step(node, c) {
    const i = this._slot(node, c);
    return this.keyNode[i] === EMPTY ? -1 : this.child[i];
  }

  _fallbackIds(c) {
    if (this.fallback === null) return null;
    let ids = this._fallbackCache.get(c);
    if (ids === undefined) { ids = this.fallback(c); this._fallbackCache.set(c, ids); }
    return ids;
  }

  /** The leftmost-longest optimal ids of the symbols `s` (an array of integers). */
  segment(s) {
    const n = s.length;
    if (n === 0) return [];
    const cost = new Float64Array(n + 1);
    const length = new Int32Array(n + 1), first = new Int32Array(n + 1);
    const tokenId = this.tokenId;
    for (let i = n - 1; i >= 0; i--) {
      let best = Infinity, pick = 0, pickId = 0;
      let node = this.step(0, s[i]);
      if (node < 0 || tokenId[node] === EMPTY) {
        // the symbol is not a token: its fallback edge (length one, so a token of equal cost wins)
        const fb = this._fallbackIds(s[i]);
        if (fb !== null && fb.length) best = cost[i + 1] + fb.length;
      }
      let j = i + 1;
      while (node >= 0) {
        const tid = tokenId[node];
        if (tid !== EMPTY) {
          const c = cost[j] + 1;
          if (c <= best) { best = c; pick = j - i; pickId = tid; } // ties: the longer token
        }
        if (j === n) break;
        node = this.step(node, s[j]);
        j++;
      }
      if (best === Infinity) {
        throw new SegmentationError(`no segmentation: symbol ${s[i]} at ${i} is not in the vocabulary and has no byte fallback`);
      }
      cost[i] = best; length[i] = pick; first[i] = pickId;
    }
    const ids = [];
    for (let i = 0; i < n;) {
      if (length[i]) { ids.push(first[i]); i += length[i]; } else { for (const x of this._fallbackIds(s[i])) ids.push(x); i += 1; }
    }
    return ids;
  }
}

/** A pre-token the vocabulary cannot spell (a symbol with no token and no byte fallback). */
export class SegmentationError extends Error {
  constructor(message) { super(message); this.name = 'SegmentationError'; }
}
