// functok for JavaScript: the Functionalizer format (spec 1.2.1), written from spec/SPEC.md: the
// codec (codec.mjs) and the tokenizer. The codec's encode, decode, pretokens and split, the
// Tokenizer, loadHF, loadTiktoken, Vocabulary and DecodeStream come through the engine seam
// (engine.mjs), which runs them on the C core in WebAssembly or on the JavaScript reference; the
// rest is the reference.
export * from './codec.mjs';
export { encode, decode, pretokens, split, engine, setEngine, engineInfo, ENGINES } from './engine.mjs';
export { Tokenizer, loadHF, loadTiktoken, Vocabulary, DecodeStream } from './engine.mjs';
export { Encoding } from './tokenizer/tokenizer.mjs';
export { TokenizerFileError } from './tokenizer/json_checks.mjs';
export { FORMAT_VERSION as TOKENIZER_FORMAT_VERSION } from './tokenizer/tokenizer_file.mjs';
export { UnknownTokenIdError, ByteFallbackError, TokenFormatError } from './tokenizer/decoding.mjs';
export { TokenVocabulary, SEGMENTATIONS, TIE_BREAKS } from './tokenizer/vocabulary.mjs';
export { segment } from './tokenizer/segment.mjs';
export { BPE, TiktokenBPE, BYTE_TOKENS } from './tokenizer/bpe.mjs';
export { SegmentationError } from './tokenizer/segmenter.mjs';
export { PATTERNS } from './tokenizer/external.mjs';
export { readTiktokenRanks } from './tokenizer/file_reader.mjs';
