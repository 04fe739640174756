// Type declarations for functok.mjs: functok (the Python package) running under Pyodide.
// Offsets (start, end, FormatError.offset) are code point indexes, as in the spec; use
// codePointToUtf16() to turn one into a JavaScript string index.

export type Splitter = "llama3" | "paper";

export interface CodecOptions {
  /** "nfc" (default) or null for no normalization. */
  normalize?: "nfc" | null;
  splitter?: Splitter;
}

export interface PretokenOptions extends CodecOptions {
  split_operators?: boolean;
}

export interface DecodeOptions {
  /** "strict" (default) raises FormatError; "replace" is the lenient decoder. */
  errors?: "strict" | "replace";
  max_output?: number;
}

export interface Instruction {
  name: string;
  args: number[];
  /** The readable form, e.g. "ACUTE(1)" or "REPEAT(0,4)". */
  label: string;
}

export interface Piece {
  /** The piece's text after normalization. */
  text: string;
  /** Code point offsets into the original text, before NFC. */
  start: number;
  end: number;
  instructions: Instruction[];
  /** The base as written in the stream, escapes included. */
  base: string;
  /** The piece's stream form. */
  encoded: string;
  /** For slot j, the offset in `text` where it begins. */
  slot_starts: number[];
}

export interface Inspection {
  stream: string;
  pieces: Piece[];
  pretokens: string[];
  decoded: string;
  /** decode(encode(text)) equals the (normalized) text. */
  roundtrip: boolean;
}

export interface TokenizeOptions {
  segmentation?: "greedy" | "optimal";
  tie_break?: "leftmost-longest" | "prefer-greedy";
}

export interface Encoding {
  ids: number[];
  tokens: string[];
  offsets: [number, number][];
}

export interface Tokenizer {
  vocabSize: number;
  encode(text: string, options?: TokenizeOptions): Encoding;
  decode(ids: Iterable<number>, options?: { errors?: "strict" | "replace"; skip_special_tokens?: boolean }): string;
}

export interface Functok {
  /** The Pyodide instance, for callers who need the interpreter itself. */
  pyodide: unknown;
  /** functok.__version__ and functok.SPEC_VERSION of the loaded wheel. */
  version: string;
  specVersion: string;
  encode(text: string, options?: CodecOptions): string;
  decode(stream: string, options?: DecodeOptions): string;
  pieces(text: string, options?: CodecOptions): Piece[];
  pretokens(text: string, options?: PretokenOptions): string[];
  split(text: string, options?: { splitter?: Splitter }): string[];
  inspect(text: string, options?: PretokenOptions): Inspection;
  /** A saved tokenizer: the JSON text Tokenizer.save writes, or a URL to it. */
  loadTokenizer(jsonOrURL: string | URL): Promise<Tokenizer>;
  /** Runs the vector files in a folder of Pyodide's file system through the in-process runner. */
  runConformance(directory: string): ConformanceReport;
  /** Writes a file into Pyodide's file system, creating its folders. */
  writeFile(path: string, data: string | Uint8Array): void;
}

export interface ConformanceReport {
  /** e.g. "vectors: 906 passed, 0 failed, 0 skipped" */
  summary_line: string;
  counts: { passed: number; failed: number; skipped: number };
  spec_version: string;
  suite_version: string;
  implementation: Record<string, unknown>;
  not_passed: { id: string; file: string; status: string; message: string | null }[];
}

export interface LoadOptions {
  /** Where the Pyodide runtime lives; defaults to the pyodide/ folder beside functok.mjs. */
  indexURL?: string | URL;
  /** The functok wheel; defaults to the one bundle.json names, beside functok.mjs. */
  wheelURL?: string | URL;
  /** functok_bridge.py; defaults to the copy beside functok.mjs. */
  bridgeURL?: string | URL;
  /** Called with "runtime", "package" and "ready" as loading goes on. */
  onProgress?: (step: "runtime" | "package" | "ready") => void;
}

export function loadFunctok(options?: LoadOptions): Promise<Functok>;

export interface BundleInfo {
  generated_by: string;
  wheel: string;
  pyodide_version: string;
  conformance_vectors: string[];
  sha256: Record<string, string>;
}

export function readBundleInfo(): Promise<BundleInfo>;

export function codePointToUtf16(text: string, offset: number): number;

/** An error from the Python side; for a FormatError, kind and offset are the spec's. */
export class FunctokError extends Error {
  /** "FormatError" for format errors, otherwise "FunctokError". */
  name: string;
  /** The Python exception's class name. */
  pythonType: string;
  kind: string | null;
  offset: number | null;
}
