// Type declarations for functok (JavaScript), written by hand. Spec: spec/SPEC.md 1.2.1. The
// codec's names are re-exported by codec.d.ts (`functok/codec`); wasm/functok.d.ts takes the
// shared option types from here. js/test/types.test.mjs type-checks all three (tsc --noEmit).

/** The format version this package implements (spec 11.1). */
export const SPEC_VERSION: string;
/** The pinned Unicode version of the character tables (spec 3.1). */
export const UNICODE_VERSION: string;
/** This package's version. */
export const VERSION: string;

/** The engines (src/engine.mjs): the C core built to WebAssembly, or the JavaScript reference. */
export type EngineName = 'wasm' | 'reference';
export const ENGINES: readonly EngineName[];
/** The engine that runs: 'wasm' wherever WebAssembly exists and the core loaded, else 'reference'. */
export function engine(): EngineName;
/** Run on `name` from now on ('wasm' throws when the core did not load: FUNCTOK_PURE, no WebAssembly, an unbuilt checkout). */
export function setEngine(name: EngineName): void;
/** The engine, why the wasm core is not loaded (null when it is), and the wasm memory's size in bytes (null without it). */
export function engineInfo(): { engine: EngineName; wasmUnavailable: string | null; wasmMemoryBytes: number | null };

export type Normalize = 'nfc' | null;
export type Splitter = 'llama3' | 'paper';
export type Feature = 'case' | 'marks' | 'repeat';
export const SPLITTERS: readonly Splitter[];
export const FEATURES: readonly Feature[];

/** The encoder profiles of spec 6.6: 'paper' (the 1.0 encoder, the default) and 'compact'. */
export type ProfileName = 'paper' | 'compact';
/** The `fold` option (spec 6.1): 'all' (paper), 'no-whitespace', 'none' (compact). */
export type Fold = 'all' | 'no-whitespace' | 'none';
/** The `case` option (spec 6.2): 'capitalize' (paper) or 'range' (compact: UPPERCASE for runs of capitals). */
export type Case = 'capitalize' | 'range';
/** A named choice of the encoder options (spec 6.6). Python: `functok.Profile`. */
export interface Profile {
  readonly fold: Fold;
  readonly case: Case;
}
/** The profiles, frozen: `{ paper: { fold: 'all', case: 'capitalize' }, compact: { fold: 'none', case: 'range' } }`. */
export const PROFILES: Readonly<Record<ProfileName, Profile>>;
export const DEFAULT_PROFILE: 'paper';
export const FOLDS: readonly Fold[];
export const CASES: readonly Case[];
/** The fold and case in effect (spec 6.6): the profile's, overridden by explicit values. Throws a TypeError for unknown ones. */
export function encoderOptions(profile?: ProfileName, fold?: Fold | null, caseOption?: Case | null): Profile;

export interface EncodeOptions {
  /** 'nfc' (default) or null: no normalization (spec 4.1). Python: `normalize`, None = null. */
  normalize?: Normalize;
  /** 'llama3' (default) or 'paper' (spec 5.1). */
  splitter?: Splitter;
  /** The encoder profile, 'paper' (default) or 'compact' (spec 6.6). An unknown one throws a TypeError. */
  profile?: ProfileName;
  /** Overrides the profile's fold (spec 6.1); undefined or null: the profile's. */
  fold?: Fold | null;
  /** Overrides the profile's case (spec 6.2); undefined or null: the profile's. */
  case?: Case | null;
  /** For measurement only: the steps to run (default all); the output is then canonical only where it equals an option set's. */
  features?: Iterable<Feature>;
}

export interface PretokensOptions extends EncodeOptions {
  /** Each instruction its own pre-token (default true, spec 9.1). Python: `split_operators`. */
  splitOperators?: boolean;
  /** The pre-token rule (spec 9): 'none' (9.1), 'all' (9.2) or 'frequent' (context chains, 9.4); overrides splitOperators. */
  fuse?: FuseMode | null;
}

export type FuseMode = 'none' | 'all' | 'frequent';
export declare const FUSE_MODES: readonly FuseMode[];

export interface DecodeOptions {
  /** 'strict' (default) throws a FormatError; 'replace' never fails (spec 8). */
  errors?: 'strict' | 'replace';
  /** Bound on the code points produced through repeats (default 2**26, spec 7.8). Python: `max_output`. */
  maxOutput?: number;
}

export type ErrorKind =
  | 'unknown-opcode' | 'truncated-instruction' | 'stray-argument' | 'bad-count' | 'bad-range'
  | 'position-out-of-range' | 'dangling-group' | 'escape-at-end' | 'output-too-large' | 'lone-surrogate';
export const ERROR_KINDS: readonly ErrorKind[];
export const DEFAULT_MAX_OUTPUT: number;

/** A stream or text the format cannot accept (spec 8). */
export class FormatError extends Error {
  readonly name: 'FormatError';
  /** The spec's name for the error. */
  readonly kind: ErrorKind;
  /** Index, in code points (not UTF-16 units), of the offending code point in the input. */
  readonly offset: number;
  /** The non-normative message, without kind and offset. */
  readonly detail: string;
  constructor(kind: ErrorKind, offset: number, message: string);
}

/** One instruction of a group. */
export class Instruction {
  readonly name: string;
  readonly args: number[];
  constructor(name: string, args: number[]);
  /** `ACUTE(1)`, `REPEAT(0,4)`. */
  toString(): string;
  /** As written in the stream: the opcode, then its argument code points. */
  readonly code: string;
}

/** One splitter piece and its encoding (spec 6.5). */
export interface Piece {
  /** The piece after normalization. */
  text: string;
  /** Code point offsets in the original text (spec 4.4). */
  start: number;
  end: number;
  /** In serialization order (spec 6.4). */
  instructions: Instruction[];
  /** As written in the stream, escapes included. */
  base: string;
  /** Group + base. */
  encoded: string;
  /** For slot j, the code point offset in `text` where it begins. Python: `slot_starts`. */
  slotStarts: number[];
}

/** Encode text to a stream (spec 6). Throws FormatError('lone-surrogate') on a lone surrogate. */
export function encode(text: string, options?: EncodeOptions): string;
/** Decode a stream (spec 7, 8). */
export function decode(stream: string, options?: DecodeOptions): string;
/** Each piece with its offsets, instructions and base (spec 6.5). */
export function pieces(text: string, options?: EncodeOptions): Piece[];
/** The pre-tokens a BPE trainer or tokenizer sees (spec 9); they concatenate to encode(text). */
export function pretokens(text: string, options?: PretokensOptions): string[];
/** The pieces of `text` as given, without normalization (spec 5.3). */
export function split(text: string, options?: { splitter?: Splitter }): string[];
/** NFC at the pinned Unicode version (spec 4.2), not the host's. */
export function nfc(text: string): string;

// --- The tokenizer (functok tokenizer files, spec 14; greedy BPE and optimal segmentation, spec 10) ---

export type TieBreak = 'leftmost-longest' | 'prefer-greedy';
export const TIE_BREAKS: readonly TieBreak[];

export interface VocabularyOptions {
  /** The tokens in id order. */
  tokens: string[];
  /** Merges in rank order, as [left, right]. */
  merges?: [string, string][];
  /** Never candidates (spec 10.1). Python: `special_tokens`. */
  specialTokens?: string[];
  /** Characters missing from the vocabulary fall back to the tokens <0x00>..<0xFF>. Python: `byte_fallback`. */
  byteFallback?: boolean;
  /** Greedy BPE: a pre-token that is a token is that token. */
  ignoreMerges?: boolean;
}

/** A character vocabulary (symbols are code points) for segmentation: a thin wrapper over the TokenVocabulary that loadHF makes of it. */
export class Vocabulary {
  constructor(options: VocabularyOptions);
  /** The tokens in id order, the byte-fallback tokens the options left out appended. */
  readonly tokens: string[];
  /** The vocabulary every Tokenizer runs: its segmenter answers `segment`. */
  readonly vocabulary: TokenVocabulary;
  /** Greedy BPE as Hugging Face applies it (spec 14.5). */
  greedy(pretoken: string): string[];
  /** The candidate tokens V (spec 10.1). */
  candidateSet(reachableOnly?: boolean): Set<string>;
}

export interface SegmentOptions {
  /** Default 'leftmost-longest' (spec 10.3). Python: `tie_break`. */
  tieBreak?: TieBreak;
  /** Only tokens reachable by the merges (spec 10.1). Python: `reachable_only`. */
  reachableOnly?: boolean;
}

/** Minimum-token segmentation of one pre-token (spec 10.2, 10.3): the token strings. */
export function segment(pretoken: string, vocabulary: Vocabulary, options?: SegmentOptions): string[];

export type Segmentation = 'greedy' | 'optimal';
export const SEGMENTATIONS: readonly Segmentation[];
/** The tokenizer file format version this package reads. */
export const TOKENIZER_FORMAT_VERSION: 1;
export const BYTE_TOKENS: readonly string[];

/** A tokenizer file that cannot be read: `where` is a JSON path such as `$.functok.fuse` (or `line 3`, or null). */
export class TokenizerFileError extends Error {
  readonly name: 'TokenizerFileError';
  readonly file: string;
  readonly where: string | null;
  readonly problem: string;
}
/** An id that is not in the vocabulary. Python: UnknownTokenIdError (a ValueError). */
export class UnknownTokenIdError extends RangeError {
  readonly id: number;
  /** Position of the id in the ids. Python: `id_index`. */
  readonly idIndex: number;
}
/** Byte-fallback ids that are not UTF-8. */
export class ByteFallbackError extends Error {
  readonly bytes: number[];
  readonly reason: string;
  readonly idIndex: number;
}
/** A FormatError in the stream of ids; `offset` counts code points since the last special token. */
export class TokenFormatError extends FormatError {
  readonly idIndex: number;
}
/** A pre-token the vocabulary cannot spell (a symbol with no token and no byte fallback). */
export class SegmentationError extends Error {}

export interface TokenizerEncodeOptions {
  /** Default 'greedy'. */
  segmentation?: Segmentation;
  /** For 'optimal': default 'leftmost-longest'. Python: `tie_break`. */
  tieBreak?: TieBreak;
  /** For 'optimal': only tokens the merges build. Python: `reachable_only`. */
  reachableOnly?: boolean;
  /** Special tokens whose text becomes the special token: 'all' or a list (default none). Python: `allowed_special`. */
  allowedSpecial?: 'all' | Iterable<string>;
  /** Special tokens whose text throws: 'all' (default: every one not allowed) or a list ([]: ordinary text). Python: `disallowed_special`. */
  disallowedSpecial?: 'all' | Iterable<string>;
}

export interface TokenizerDecodeOptions {
  /** 'strict' (default): the first error in id order; 'replace': U+FFFD, never throws. */
  errors?: 'strict' | 'replace';
  /** Python: `skip_special_tokens`. */
  skipSpecialTokens?: boolean;
  /** Per stretch between special tokens (spec 7.8). Python: `max_output`. */
  maxOutput?: number;
}

/** The ids of one encode call. */
export class Encoding {
  readonly ids: number[];
  /** The token of each id. */
  readonly tokens: (string | null)[];
  readonly length: number;
}

export interface TokenizerSettings {
  splitter?: Splitter;
  normalize?: Normalize;
  profile?: ProfileName;
  fuse?: FuseMode;
  /** Read when `fuse` is absent: true is 'none', false is 'all'. */
  splitOperators?: boolean;
  specVersion?: string;
  /** Names the tokenizer in a TokenizerFileError. */
  source?: string;
}

/** A functok tokenizer file put to work. Python: `functok.Tokenizer`. */
export class Tokenizer {
  /** `hf`: the tokenizer.json part of a file, parsed. */
  constructor(hf: object, settings?: TokenizerSettings);
  /** From the parsed file `{ functok: header, tokenizer: tokenizer.json }`. Python: `from_data`. */
  static fromJSON(data: unknown, source?: string): Tokenizer;
  /** From the file's text. Python: `from_str`. */
  static fromStr(text: string, options?: { source?: string }): Tokenizer;
  /** From a file (Node only). Python: `from_file`. */
  static fromFile(path: string): Tokenizer;
  /** The file's text. Python: `to_str`. */
  toStr(options?: { indent?: number }): string;
  readonly header: Record<string, unknown>;
  readonly fuse: FuseMode;
  readonly profile: ProfileName;
  readonly vocabSize: number;
  readonly specialTokens: Map<string, number>;
  /** The codec's pre-tokens of text under the file's settings. */
  readonly preTokenizer: (text: string) => string[];
  readonly vocabulary: TokenVocabulary;
  tokenToId(token: string): number | null;
  idToToken(id: number): string | null;
  getVocab(): Record<string, number>;
  encode(text: string, options?: TokenizerEncodeOptions): Encoding;
  encodeBatch(texts: Iterable<string>, options?: TokenizerEncodeOptions): Encoding[];
  decode(ids: Iterable<number>, options?: TokenizerDecodeOptions): string;
  decodeBatch(batch: Iterable<Iterable<number>>, options?: TokenizerDecodeOptions): string[];
}

/** Incremental decoding: what step() and finish() return concatenates to Tokenizer.decode of the same ids. */
export class DecodeStream {
  constructor(tokenizer: Tokenizer, options?: TokenizerDecodeOptions);
  /** Take one id; the text that has become final, or null. */
  step(id: number): string | null;
  /** The rest of the text once the ids end (throws in strict mode on an error). */
  finish(): string;
}

export interface VocabularyEncodeOptions {
  segmentation?: Segmentation;
  tieBreak?: TieBreak;
  reachableOnly?: boolean;
}

/** A merge model's tokens, pre-tokenizer and both segmentations (Python: functok.tokenizer.vocabulary.Vocabulary). */
export class TokenVocabulary {
  readonly name: string;
  /** Token -> id (a tiktoken vocabulary's tokens are byte strings: one char per byte). */
  readonly tokens: Map<string, number>;
  readonly specialTokens: Map<string, number>;
  /** 'characters' or 'byte-level'. */
  readonly alphabet: string;
  readonly byteFallback: boolean;
  readonly size: number;
  preTokenize(text: string): string[];
  /** All ids of text: its pre-tokens' ids, concatenated. */
  encode(text: string, options?: VocabularyEncodeOptions): number[];
  /** The ids of one pre-token. */
  ids(pretoken: string, options?: VocabularyEncodeOptions): number[];
  encodePretokens(pretokens: Iterable<string>, options?: VocabularyEncodeOptions): number[];
  /** Forget the cached ids. */
  clearCache(): void;
}

/** Hugging Face BPE (greedy: lowest merge rank, then leftmost; byte fallback). */
export class BPE {
  constructor(vocab: Map<string, number>, merges: [string, string][], options?: { byteFallback?: boolean; ignoreMerges?: boolean; unkToken?: string | null; fuseUnk?: boolean });
  tokenize(word: string): number[];
}
/** tiktoken's byte-pair merge over ranks (Map byte string -> rank). */
export class TiktokenBPE {
  constructor(ranks: Map<string, number>);
  tokenize(piece: string): number[];
}

/** Pre-tokenizers by name, over the pinned tables: 'gpt2', 'llama3', 'paper'. */
export const PATTERNS: Readonly<Record<'gpt2' | 'llama3' | 'paper', (text: string) => string[]>>;
/** A Hugging Face tokenizer.json (text or parsed) with a BPE model. */
export function loadHF(source: string | Uint8Array | object, options?: { preTokenizer?: (text: string) => string[]; name?: string }): TokenVocabulary;
/** tiktoken ranks: a rank file's text or bytes, or js-tiktoken's packed ranks object (e.g. `js-tiktoken/ranks/gpt2`). */
export function loadTiktoken(source: string | Uint8Array | { bpe_ranks: string; special_tokens?: Record<string, number> },
  options?: { pattern?: 'gpt2' | 'llama3' | 'paper' | ((text: string) => string[]); specialTokens?: Map<string, number> | Record<string, number>; name?: string }): TokenVocabulary;
export function readTiktokenRanks(source: string | Uint8Array | { bpe_ranks: string }, name?: string): Map<string, number>;
