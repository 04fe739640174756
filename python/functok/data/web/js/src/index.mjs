// functok for JavaScript: the Functionalizer format (spec 1.1.0), written from spec/SPEC.md.
export { SPEC_VERSION, UNICODE_VERSION } from './tables.mjs';
export { encode, pieces, pretokens, FUSE_MODES, Instruction, FEATURES, PROFILES, FOLDS, CASES, DEFAULT_PROFILE, encoderOptions } from './encode.mjs';
export { decode, DEFAULT_MAX_OUTPUT } from './decode.mjs';
export { split, SPLITTERS } from './split.mjs';
export { FormatError, ERROR_KINDS } from './errors.mjs';
export { nfc } from './normalize.mjs';
export { segment, Vocabulary, TIE_BREAKS } from './segment.mjs';
export const VERSION = '0.1.0';
