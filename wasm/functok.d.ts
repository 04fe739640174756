// Type declarations for functok.mjs: functok (the Python package) running under Pyodide.
// Offsets (start, end, FormatError.offset) are code point indexes, as in the spec; use
// codePointToUtf16() to turn one into a JavaScript string index.
//
// The option values and the shared fields of a piece come from js/index.d.ts, the JavaScript
// package's declarations (wasm/build.mjs copies that file beside this one into dist/). Names
// differ where the bridge answers Python's JSON: `slot_starts`, an instruction's `label`,
// snake_case options. js/test/types.test.mjs type-checks this file.
import type {
  Splitter, Normalize, ProfileName, Fold, Case, FuseMode, ErrorKind, Segmentation, TieBreak,
  Piece as JsPiece,
} from "../js/index.d.ts";

export type { Splitter, Normalize, ProfileName, Fold, Case, FuseMode, ErrorKind, Segmentation, TieBreak };

export interface CodecOptions {
  /** "nfc" (default) or null for no normalization. */
  normalize?: Normalize;
  splitter?: Splitter;
  /** The encoder profile, "paper" (default) or "compact" (spec 6.6). */
  profile?: ProfileName;
  /** Overrides the profile's fold (spec 6.1); absent or null: the profile's. */
  fold?: Fold | null;
  /** Overrides the profile's case (spec 6.2); absent or null: the profile's. */
  case?: Case | null;
}

export interface PretokenOptions extends CodecOptions {
  split_operators?: boolean;
  /** The pre-token rule (spec 9); overrides split_operators. */
  fuse?: FuseMode | null;
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

/** A piece as the bridge answers it: the JavaScript Piece's fields, in Python's names where they differ. */
export interface Piece extends Omit<JsPiece, "instructions" | "slotStarts"> {
  instructions: Instruction[];
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
  segmentation?: Segmentation;
  tie_break?: TieBreak;
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
  /** The engine functok runs on: the C core in WebAssembly, or the pure-Python reference. */
  engine: "wasm" | "pure";
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
  /** The C core in WebAssembly; defaults to functok-core.wasm beside functok.mjs. */
  coreURL?: string | URL;
  /** Run the pure-Python reference instead of the C core (in Node, FUNCTOK_PURE=1 does too). */
  pure?: boolean;
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
  /** A format error's kind (spec 8.1); null for other errors. */
  kind: ErrorKind | null;
  offset: number | null;
}
