// The Tokenizer: a functok tokenizer file put to work. Encode: special tokens -> the codec's
// pre-tokens (spec 9, under the file's fuse) -> ids by greedy BPE or optimal segmentation
// (spec 10). Decode: ids -> the stream -> decode (spec 7).
import { SPEC_VERSION } from '../tables.mjs';
import { BPE } from './bpe.mjs';
import { decodeUtf8, parseJson, readBytes } from './file_reader.mjs';
import { FORMAT_VERSION, ALPHABET, checkHeader, checkFunctokModel, fileParts } from './tokenizer_file.mjs';
import { SpecialTokens } from './special_tokens.mjs';
import { codecPreTokenizer } from './codec_pretokenizer.mjs';
import { TokenVocabulary, checkMode } from './vocabulary.mjs';
import { TokenTable, decodeIds } from './decoding.mjs';
import { FormatError } from '../errors.mjs';
import { firstSurrogate } from '../text.mjs';

/** The ids of one encode call; `tokens` spells them. */
export class Encoding {
  constructor(tokenizer, ids) { this.ids = ids; Object.defineProperty(this, 'tokenizer', { value: tokenizer }); }
  get tokens() { return this.ids.map((i) => this.tokenizer.idToToken(i)); }
  get length() { return this.ids.length; }
}

/** Node's fs, when this runs in Node (fromFile is for Node; a page passes the text to fromStr). */
function nodeFs() {
  const fs = globalThis.process?.getBuiltinModule?.('node:fs');
  if (!fs) throw new TypeError('Tokenizer.fromFile needs Node (>= 20.16); elsewhere read the file and call Tokenizer.fromStr');
  return fs;
}

export class Tokenizer {
  /**
   * `hf`: the tokenizer.json part of a file (a parsed object). The options are the header's:
   * splitter, normalize, profile, fuse ('none' | 'all' | 'frequent'; default from
   * splitOperators), specVersion; `source` names the tokenizer in a TokenizerFileError.
   */
  constructor(hf, { splitter = 'llama3', normalize = 'nfc', splitOperators, profile = 'paper', fuse, specVersion = SPEC_VERSION, source = '<object>' } = {}) {
    // with `fuse`, split_operators is written false exactly when fuse is "all" (spec 14.2)
    const ops = fuse === undefined ? splitOperators ?? true : fuse !== 'all';
    const header = {
      format_version: FORMAT_VERSION, spec_version: specVersion, splitter, normalize,
      split_operators: ops, profile, alphabet: ALPHABET,
    };
    if (fuse !== undefined) header.fuse = fuse;
    const settings = checkHeader(header, source);
    this.header = header;
    this.splitter = splitter;
    this.normalize = normalize;
    this.profile = profile;
    this.fuse = settings.fuse;
    this.hfJson = hf;
    const checked = checkFunctokModel(hf, source);
    this._vocab = checked.vocab;
    this._idToToken = checked.idToToken;
    this.specialTokens = checked.specialTokens;
    this.special = new SpecialTokens(this.specialTokens);
    this.tokenTable = new TokenTable(this._vocab, this._idToToken, this.specialTokens);
    this.preTokenizer = codecPreTokenizer({ normalize, splitter, profile, fuse: this.fuse });
    this.vocabulary = new TokenVocabulary({
      name: 'functok', tokens: this._vocab, specialTokens: this.specialTokens,
      model: new BPE(this._vocab, checked.merges, { byteFallback: true }), preTokenizer: this.preTokenizer,
    });
  }

  /** A tokenizer from its parsed file ({ functok: header, tokenizer: tokenizer.json }). Python: from_data. */
  static fromJSON(data, source = '<object>') {
    const [h, hf] = fileParts(data, source);
    const options = { splitter: h.splitter, normalize: h.normalize, profile: h.profile, specVersion: h.specVersion, source };
    if (Object.hasOwn(data.functok, 'fuse')) options.fuse = h.fuse; else options.splitOperators = h.splitOperators;
    return new this(hf, options); // `this`: a subclass (the engine seam's) makes its own kind
  }

  /** A tokenizer from the text of its file; `source` names it in errors. */
  static fromStr(text, { source = '<string>' } = {}) { return this.fromJSON(parseJson(text, source), source); }

  /** A tokenizer from a file (Node only): UTF-8 without a BOM, else a TokenizerFileError naming it (spec 14.1). */
  static fromFile(path) {
    const source = String(path);
    return this.fromStr(decodeUtf8(readBytes(nodeFs(), path), source), { source });
  }

  /** The tokenizer file's text. */
  toStr({ indent } = {}) { return JSON.stringify({ functok: this.header, tokenizer: this.hfJson }, null, indent); }

  get vocabSize() { return this._vocab.size; }
  tokenToId(token) { return this._vocab.get(token) ?? null; }
  idToToken(id) { return this._idToToken.get(id) ?? null; }
  getVocab() { return Object.fromEntries(this._vocab); }

  /**
   * Encode text to ids. `segmentation`: 'greedy' (BPE merges) or 'optimal' (fewest tokens per
   * pre-token, ties by `tieBreak`: 'leftmost-longest' or 'prefer-greedy'; `reachableOnly` uses
   * only tokens the merges build). Special tokens as in tiktoken: their text throws unless it is
   * in `allowedSpecial` ('all' or a list; then it becomes the special token) or
   * `disallowedSpecial` is [] (then it is ordinary text). Python: tie_break, allowed_special...
   */
  encode(text, { segmentation = 'greedy', tieBreak = 'leftmost-longest', reachableOnly = false, allowedSpecial = [], disallowedSpecial = 'all' } = {}) {
    checkMode(segmentation, tieBreak);
    const options = { segmentation, tieBreak, reachableOnly };
    const ids = [];
    const parts = this.special.split(text, allowedSpecial, disallowedSpecial);
    // a surrogate in a stretch: lone-surrogate at its index in the whole text (spec 14.4, step 3)
    if (parts.some((p) => typeof p === 'string' && firstSurrogate(p) >= 0)) {
      throw new FormatError('lone-surrogate', firstSurrogate(text), 'a surrogate code point is not a Unicode scalar value');
    }
    for (const part of parts) {
      if (typeof part === 'number') ids.push(part);
      else for (const id of this.vocabulary.encode(part, options)) ids.push(id);
    }
    return new Encoding(this, ids);
  }

  encodeBatch(texts, options) { return [...texts].map((t) => this.encode(t, options)); }

  /**
   * The text of `ids`: tokens -> stream -> decode. Byte-fallback tokens are joined into UTF-8;
   * special tokens end a stretch, each decoded on its own. errors 'replace' never throws;
   * 'strict' throws the first error in id order (UnknownTokenIdError, ByteFallbackError or
   * TokenFormatError, each with `idIndex`).
   */
  decode(ids, { errors = 'strict', skipSpecialTokens = false, maxOutput } = {}) {
    return decodeIds(this.tokenTable, ids, { errors, skipSpecialTokens, maxOutput });
  }

  decodeBatch(batch, options) { return [...batch].map((ids) => this.decode(ids, options)); }
}
