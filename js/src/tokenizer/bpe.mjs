// Greedy BPE (the tokenizer file's section of the spec; Hugging Face `tokenizers`' BPE model and
// tiktoken's byte-pair merge), over integer ids. Neither caches: TokenVocabulary keeps the one
// cache of ids per pre-token.

const hex2 = (b) => b.toString(16).toUpperCase().padStart(2, '0');
/** The byte-fallback tokens <0x00>..<0xFF>, as `tokenizers` spells them, by byte. */
export const BYTE_TOKENS = Object.freeze(Array.from({ length: 256 }, (_, b) => `<0x${hex2(b)}>`));

/** The UTF-8 bytes of one code point (a surrogate code point has none: it cannot fall back). */
export function utf8Bytes(cp) {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp >= 0xd800 && cp <= 0xdfff) return null;
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

const PAIR = 2 ** 32;
/** A pair of ids as one number, left * 2**32 + right (exact while left < 2**21; larger ids use a string key). */
const pairKey = (a, b) => (a < 0x200000 ? a * PAIR + b : `${a},${b}`);

/** The tokens the merges can build: the one-symbol tokens, then merges of reachable tokens, to a fixed point. */
export function reachableByMerges(vocab, merges) {
  const out = new Set();
  for (const t of vocab.keys()) if ([...t].length === 1) out.add(t);
  for (let grew = true; grew;) {
    grew = false;
    for (const [a, b] of merges) {
      const ab = a + b;
      if (!out.has(ab) && out.has(a) && out.has(b)) { out.add(ab); grew = true; }
    }
  }
  for (const t of out) if (!vocab.has(t)) out.delete(t);
  return out;
}

/**
 * Hugging Face BPE: a word starts as one symbol per character (byte-fallback tokens for
 * characters missing from the vocabulary), then the pair with the lowest merge rank is merged,
 * leftmost first, until no listed pair is left. A later duplicate of a merge overwrites the
 * earlier one (as Rust's HashMap::from_iter does). `vocab`: Map token -> id.
 */
export class BPE {
  constructor(vocab, merges, { byteFallback = false, ignoreMerges = false, unkToken = null, fuseUnk = false } = {}) {
    this.vocab = vocab;
    this.byteFallback = byteFallback;
    this.ignoreMerges = ignoreMerges;
    this.unkToken = unkToken;
    this.fuseUnk = fuseUnk;
    this.mergeList = merges;
    this.merges = new Map(); // pair key -> [rank, new id]
    merges.forEach(([left, right], rank) => {
      const a = vocab.get(left), b = vocab.get(right), ab = vocab.get(left + right);
      if (a === undefined || b === undefined || ab === undefined) throw new RangeError(`merge ${rank}: ${JSON.stringify([left, right])} is not a merge of tokens`);
      this.merges.set(pairKey(a, b), [rank, ab]);
    });
    this.bytes = byteFallback ? BYTE_TOKENS.map((t) => vocab.get(t)) : null;
  }

  /** The greedy ids of one pre-token. */
  tokenize(word) {
    if (word === '') return [];
    if (this.ignoreMerges) {
      const whole = this.vocab.get(word);
      if (whole !== undefined) return [whole];
    }
    return mergeAll(this.symbols(word), this.merges);
  }

  reachable() { return reachableByMerges(this.vocab, this.mergeList); }

  /** Byte-fallback ids of one character missing from the vocabulary; [] when impossible. */
  fallback(cp) {
    if (this.bytes === null) return [];
    const b = utf8Bytes(cp);
    if (b === null) return [];
    const ids = b.map((x) => this.bytes[x]);
    return ids.includes(undefined) ? [] : ids;
  }

  symbols(word) {
    const out = [];
    let unk = null; // pending unk id (merge_word flushes it at the next known character or the end)
    for (const ch of word) {
      const id = this.vocab.get(ch);
      if (id !== undefined) {
        if (unk !== null) { out.push(unk); unk = null; }
        out.push(id);
        continue;
      }
      const f = this.fallback(ch.codePointAt(0));
      if (f.length) { for (const x of f) out.push(x); continue; }
      if (this.unkToken !== null) {
        if (unk !== null && !this.fuseUnk) out.push(unk);
        unk = this.vocab.get(this.unkToken);
      }
    }
    if (unk !== null) out.push(unk);
    return out;
  }
}

/** Merge the lowest (rank, position) pair until none is listed (`Word::merge_all`). */
function mergeAll(sym, merges) {
  const n = sym.length;
  if (n < 2) return sym;
  const next = new Int32Array(n), alive = new Uint8Array(n).fill(1);
  for (let k = 0; k < n; k++) next[k] = k + 1;
  next[n - 1] = -1;
  const prev = new Int32Array(n);
  for (let k = 0; k < n; k++) prev[k] = k - 1;
  // a binary heap of entries [rank, pos, newId], ordered by (rank, pos)
  const heap = [];
  const less = (x, y) => x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
  const push = (e) => {
    heap.push(e);
    for (let i = heap.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!less(heap[i], heap[p])) break;
      [heap[i], heap[p]] = [heap[p], heap[i]]; i = p;
    }
  };
  const pop = () => {
    const top = heap[0], last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l], heap[m])) m = l;
        if (r < heap.length && less(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]]; i = m;
      }
    }
    return top;
  };
  for (let pos = 0; pos + 1 < n; pos++) {
    const m = merges.get(pairKey(sym[pos], sym[pos + 1]));
    if (m !== undefined) push([m[0], pos, m[1]]);
  }
  if (heap.length === 0) return sym;
  while (heap.length) {
    const [, pos, newId] = pop();
    if (!alive[pos]) continue;
    const right = next[pos];
    if (right === -1) continue;
    const m = merges.get(pairKey(sym[pos], sym[right]));
    if (m === undefined || m[1] !== newId) continue; // a stale entry
    sym[pos] = newId;
    alive[right] = 0;
    const after = next[right];
    next[pos] = after;
    if (after !== -1) prev[after] = pos;
    const before = prev[pos];
    if (before >= 0) {
      const mb = merges.get(pairKey(sym[before], newId));
      if (mb !== undefined) push([mb[0], before, mb[1]]);
    }
    if (after !== -1) {
      const ma = merges.get(pairKey(newId, sym[after]));
      if (ma !== undefined) push([ma[0], pos, ma[1]]);
    }
  }
  const out = [];
  for (let k = 0; k < n; k++) if (alive[k]) out.push(sym[k]);
  return out;
}

/**
 * tiktoken's byte-pair merge over a rank table (Map from a byte string, one char per byte, to
 * its rank, which is its id): parts start as single bytes and the adjacent pair whose
 * concatenation has the lowest rank is merged, leftmost first. A piece that is a token is that token.
 */
export class TiktokenBPE {
  constructor(ranks) {
    this.ranks = ranks;
    this.byteFallback = false;
  }

  /** The ids of one pre-token given as a byte string. */
  tokenize(piece) {
    const whole = this.ranks.get(piece);
    if (whole !== undefined) return [whole];
    const get = (a, b) => { const r = this.ranks.get(piece.slice(a, b)); return r === undefined ? Infinity : r; };
    const starts = [];
    for (let i = 0; i <= piece.length; i++) starts.push(i);
    const rank = [];
    for (let i = 0; i + 1 < piece.length; i++) rank.push(get(i, i + 2));
    while (rank.length) {
      let best = Infinity, i = -1;
      for (let k = 0; k < rank.length; k++) if (rank[k] < best) { best = rank[k]; i = k; }
      if (i < 0) break;
      starts.splice(i + 1, 1);
      rank.splice(i, 1);
      if (i < rank.length) rank[i] = get(starts[i], starts[i + 2]);
      if (i > 0) rank[i - 1] = get(starts[i - 1], starts[i + 1]);
    }
    const out = [];
    for (let k = 0; k + 1 < starts.length; k++) out.push(this.ranks.get(piece.slice(starts[k], starts[k + 1])));
    return out;
  }

  /** A token is reachable when it is one byte or joins two reachable tokens. */
  reachable() {
    const out = new Set();
    const tokens = [...this.ranks.keys()].sort((a, b) => a.length - b.length);
    for (const t of tokens) {
      if (t.length === 1) { out.add(t); continue; }
      for (let k = 1; k < t.length; k++) if (out.has(t.slice(0, k)) && out.has(t.slice(k))) { out.add(t); break; }
    }
    return out;
  }
}
