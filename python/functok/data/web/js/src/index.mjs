// functok for JavaScript: the Functionalizer format (spec 1.2.0), written from spec/SPEC.md.
export { SPEC_VERSION, UNICODE_VERSION } from './tables.mjs';
export { encode, pieces, pretokens, FUSE_MODES, Instruction, FEATURES, PROFILES, FOLDS, CASES, DEFAULT_PROFILE, encoderOptions } from './encode.mjs';
export { decode, DEFAULT_MAX_OUTPUT } from './decode.mjs';
export { split, SPLITTERS } from './split.mjs';
export { FormatError, ERROR_KINDS } from './errors.mjs';
export { nfc } from './normalize.mjs';
export { segment, Vocabulary, TIE_BREAKS } from './segment.mjs';
export const VERSION = '0.2.0';
export { Tokenizer, Encoding } from './tokenizer/tokenizer.mjs';
export { TokenizerFileError, FORMAT_VERSION as TOKENIZER_FORMAT_VERSION } from './tokenizer/file.mjs';
export { UnknownTokenIdError, ByteFallbackError, TokenFormatError } from './tokenizer/decoding.mjs';
export { TokenVocabulary, SEGMENTATIONS } from './tokenizer/vocabulary.mjs';
export { BPE, TiktokenBPE, BYTE_TOKENS } from './tokenizer/bpe.mjs';
export { SegmentationError } from './tokenizer/segmenter.mjs';
export { DecodeStream } from './tokenizer/stream.mjs';
export { loadHF, loadTiktoken, readTiktokenRanks, PATTERNS } from './tokenizer/external.mjs';
