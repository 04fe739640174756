// functok for JavaScript: the Functionalizer format (spec 1.2.1), written from spec/SPEC.md: the
// codec (codec.mjs) and the tokenizer.
export * from './codec.mjs';
export { Tokenizer, Encoding } from './tokenizer/tokenizer.mjs';
export { TokenizerFileError, FORMAT_VERSION as TOKENIZER_FORMAT_VERSION } from './tokenizer/file.mjs';
export { UnknownTokenIdError, ByteFallbackError, TokenFormatError } from './tokenizer/decoding.mjs';
export { TokenVocabulary, SEGMENTATIONS, TIE_BREAKS } from './tokenizer/vocabulary.mjs';
export { segment, Vocabulary } from './tokenizer/segment.mjs';
export { BPE, TiktokenBPE, BYTE_TOKENS } from './tokenizer/bpe.mjs';
export { SegmentationError } from './tokenizer/segmenter.mjs';
export { DecodeStream } from './tokenizer/stream.mjs';
export { loadHF, loadTiktoken, readTiktokenRanks, PATTERNS } from './tokenizer/external.mjs';
