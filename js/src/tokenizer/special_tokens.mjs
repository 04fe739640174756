// The first step of the tokenizer's encode path (spec 14.4, step 1): cut the text at the
// allowed special tokens, as tiktoken cuts it (python/functok/tokenizer/special_tokens.py).

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export class SpecialTokens {
  /** `ids`: Map special token text -> id. */
  constructor(ids) {
    this.ids = ids;
    this.textOf = new Map([...ids].map(([t, i]) => [i, t]));
    // longest first, as tiktoken matches (by code points; a prefix is shorter in any unit)
    const tokens = [...ids.keys()].sort((a, b) => [...b].length - [...a].length);
    this.pattern = tokens.length ? new RegExp(tokens.map(escapeRegExp).join('|'), 'g') : null;
  }

  /**
   * The text cut at allowed special tokens: stretches (strings) and special ids, in order. A
   * special token's text throws a TypeError unless it is in `allowed` ('all': every one) or not
   * in `disallowed` ('all': every one not allowed; []: none, so it is ordinary text).
   */
  split(text, allowed = [], disallowed = 'all') {
    // the options first, before the text is looked at (spec 14.4, step 1)
    const allow = new Set(allowed === 'all' ? this.ids.keys() : allowed);
    const unknown = [...allow].filter((t) => !this.ids.has(t));
    if (unknown.length) throw new TypeError(`not special tokens of this tokenizer: ${JSON.stringify(unknown.sort())}`);
    const deny = disallowed === 'all' ? new Set([...this.ids.keys()].filter((t) => !allow.has(t))) : new Set(disallowed);
    if (typeof text !== 'string') throw new TypeError(`expected a string, not ${typeof text}`);
    if (this.pattern === null) return text ? [text] : [];
    const parts = [];
    let start = 0;
    this.pattern.lastIndex = 0;
    for (const m of text.matchAll(this.pattern)) {
      const token = m[0];
      if (deny.has(token)) {
        throw new TypeError(`text contains the special token ${JSON.stringify(token)}: pass allowedSpecial: [${JSON.stringify(token)}] `
          + 'to encode it as the special token, or disallowedSpecial: [] to encode it as ordinary text');
      }
      if (allow.has(token)) {
        if (m.index > start) parts.push(text.slice(start, m.index));
        parts.push(this.ids.get(token));
        start = m.index + token.length;
      }
    }
    if (start < text.length) parts.push(text.slice(start));
    return parts;
  }
}
