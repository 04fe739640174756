// functok for JavaScript, the codec alone (spec 2 to 9): `functok/codec` loads no tokenizer
// module, for pages that only encode and decode. src/index.mjs is this and the tokenizer.
export { SPEC_VERSION, UNICODE_VERSION } from './tables.mjs';
export { encode, pieces, pretokens, FUSE_MODES, Instruction, FEATURES, PROFILES, FOLDS, CASES, DEFAULT_PROFILE, encoderOptions } from './encoding.mjs';
export { decode, DEFAULT_MAX_OUTPUT } from './decoding.mjs';
export { split, SPLITTERS } from './splitting.mjs';
export { FormatError, ERROR_KINDS } from './errors.mjs';
export { nfc } from './normalize.mjs';
export const VERSION = '0.2.0';
