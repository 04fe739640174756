// The functok tokenizer file (spec 14.1 to 14.3): {"functok": header, "tokenizer": tokenizer.json}.
// A file this package cannot read is refused with a TokenizerFileError naming the file and the
// JSON path, saying what was expected there. The file is read by file_reader.mjs, its BPE model
// checked by bpe_model.mjs.
import { SPEC_VERSION } from '../tables.mjs';
import { PROFILES, DEFAULT_PROFILE, FUSE_MODES } from '../encoding.mjs';
import { SPLITTERS } from '../splitting.mjs';
import { BYTE_TOKENS } from './bpe.mjs';
import { checkBpe } from './bpe_model.mjs';
import { Checker, TokenizerFileError, describe, field, isObject } from './json_checks.mjs';

export const FORMAT_VERSION = 1;
export const ALPHABET = 'characters+byte-fallback';
const NULL_FIELDS = ['normalizer', 'pre_tokenizer', 'post_processor', 'decoder', 'truncation', 'padding'];
const NULL_MODEL_FIELDS = ['dropout', 'unk_token', 'continuing_subword_prefix', 'end_of_word_suffix'];

function versionParts(v) {
  const m = typeof v === 'string' ? /^([0-9]{1,9})\.([0-9]{1,9})\.([0-9]{1,9})$/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}
/** Same MAJOR and no newer MINOR (spec 11.2). */
export function covers(implemented, saved) {
  const a = versionParts(implemented), b = versionParts(saved);
  return a !== null && b !== null && a[0] === b[0] && b[1] <= a[1];
}

/** Check the header; returns the settings it stands for: { splitter, normalize, profile, fuse, specVersion }. */
export function checkHeader(header, file = '<object>') {
  const c = new Checker(file);
  const at = '$.functok';
  if (!isObject(header)) c.fail(at, `not a functok tokenizer file: expected the header object, got ${describe(header)}`);
  const version = header.format_version;
  if (version !== FORMAT_VERSION) {
    c.fail(field(at, 'format_version'), `functok tokenizer file format version ${JSON.stringify(version) ?? 'undefined'} is not supported: expected ${FORMAT_VERSION}, the version this functok reads`);
  }
  const spec = header.spec_version;
  if (!covers(SPEC_VERSION, spec)) {
    c.fail(field(at, 'spec_version'), `tokenizer was saved for format spec_version ${typeof spec === 'string' && spec.length < 40 ? spec : describe(spec)}; this functok implements spec_version ${SPEC_VERSION}: expected ${SPEC_VERSION.split('.')[0]}.0.0 up to ${SPEC_VERSION}`);
  }
  const splitter = c.get(header, at, 'splitter', `one of ${SPLITTERS.join(', ')} (unknown splitter)`, (v) => SPLITTERS.includes(v));
  const normalize = c.get(header, at, 'normalize', '"nfc" or null (unknown normalization)', (v) => v === 'nfc' || v === null);
  const splitOperators = c.get(header, at, 'split_operators', 'true or false', (v) => typeof v === 'boolean');
  const profile = c.get(header, at, 'profile', `one of ${Object.keys(PROFILES).join(', ')} (unknown profile)`,
    (v) => typeof v === 'string' && Object.hasOwn(PROFILES, v), DEFAULT_PROFILE);
  c.get(header, at, 'alphabet', `${JSON.stringify(ALPHABET)} (unknown alphabet)`, (v) => v === ALPHABET, ALPHABET);
  // `fuse` (spec 9): absent, it is what split_operators says ("none" when true, "all" when false)
  const fuse = c.get(header, at, 'fuse', `one of ${FUSE_MODES.join(', ')} (unknown fuse mode)`, (v) => FUSE_MODES.includes(v), null);
  // with both, they must agree: split_operators is false exactly for "all" (spec 14.2)
  if (fuse !== null && (fuse !== 'all') !== splitOperators) {
    c.fail(field(at, 'fuse'), `fuse ${JSON.stringify(fuse)} contradicts split_operators ${splitOperators}: expected split_operators false for "all" and true otherwise`);
  }
  return { splitter, normalize, profile, fuse: fuse ?? (splitOperators ? 'none' : 'all'), splitOperators, specVersion: spec };
}

/** The `tokenizer` part of a functok file: BPE with byte fallback and all 256 byte tokens, nothing that changes its ids. */
export function checkFunctokModel(hf, file) {
  const root = '$.tokenizer';
  const checked = checkBpe(hf, file, root, { addedInVocab: true });
  const c = new Checker(file), at = field(root, 'model');
  c.get(checked.model, at, 'byte_fallback', "true: a functok tokenizer's BPE model must have byte_fallback", (v) => v === true);
  for (const name of NULL_FIELDS) c.get(hf, root, name, 'null (functok makes the pre-tokens and ids itself)', (v) => v === null, null);
  for (const name of NULL_MODEL_FIELDS) c.get(checked.model, at, name, "null (functok's BPE has none)", (v) => v === null, null);
  c.get(checked.model, at, 'ignore_merges', 'false', (v) => v === false, false);
  const missing = BYTE_TOKENS.filter((t) => !checked.vocab.has(t)).sort();
  if (missing.length) c.fail(field(at, 'vocab'), `the vocabulary lacks byte-fallback tokens, e.g. ${missing[0]}: expected all 256, <0x00> to <0xFF>, or ids would not be lossless`);
  [...checked.specialTokens.keys()].forEach((token, k) => {
    if (BYTE_TOKENS.includes(token)) c.fail(`${field(root, 'added_tokens')}[${k}]`, `expected a special token, got the byte token ${token}`);
  });
  return checked;
}

/** The checked header and the tokenizer part of a parsed file. */
export function fileParts(data, source) {
  if (!isObject(data) || !Object.hasOwn(data, 'functok') || !Object.hasOwn(data, 'tokenizer')) {
    throw new TokenizerFileError(source, '$', `not a functok tokenizer file: expected an object with the keys "functok" and "tokenizer", got ${describe(data)}`);
  }
  return [checkHeader(data.functok, source), data.tokenizer];
}
