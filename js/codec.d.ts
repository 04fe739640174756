// Type declarations for `functok/codec` (src/codec.mjs): the codec's names of index.d.ts, and
// nothing of the tokenizer's. js/test/types.test.mjs checks that they are the module's exports.
export {
  SPEC_VERSION, UNICODE_VERSION, VERSION,
  encode, pieces, pretokens, FUSE_MODES, Instruction, FEATURES, PROFILES, FOLDS, CASES, DEFAULT_PROFILE, encoderOptions,
  decode, DEFAULT_MAX_OUTPUT, split, SPLITTERS, FormatError, ERROR_KINDS, nfc,
} from './index.js';
export type {
  Normalize, Splitter, Feature, ProfileName, Fold, Case, Profile, EncodeOptions, PretokensOptions, FuseMode,
  DecodeOptions, ErrorKind, Piece,
} from './index.js';
