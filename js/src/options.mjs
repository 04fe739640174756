// The encoder's options (spec 6.6 profiles; 6.1 `fold`, 6.2 `case`, the measurement `features`)
// as one small integer, and the checks every encoder call makes of its input (4.1, 4.3).
import { FormatError } from './errors.mjs';
import { firstSurrogate } from './text.mjs';
import { nfc } from './normalize.mjs';

export const FEATURES = Object.freeze(['case', 'marks', 'repeat']);
/** The values of the `fold` option (spec 6.1) and of the `case` option (spec 6.2). */
export const FOLDS = Object.freeze(['all', 'no-whitespace', 'none']);
export const CASES = Object.freeze(['capitalize', 'range']);
/** The encoder profiles (spec 6.6): name -> { fold, case }. `paper` is the 1.0 encoder and the default. */
export const PROFILES = Object.freeze({
  paper: Object.freeze({ fold: 'all', case: 'capitalize' }),
  compact: Object.freeze({ fold: 'none', case: 'range' }),
});
export const DEFAULT_PROFILE = 'paper';

// An encoder configuration is one small integer: the features (bits 0..2: case, marks, repeat),
// the fold option (bit 3 "no-whitespace", bit 4 "none"; neither: "all") and the case option
// (bit 5: "range"; clear: "capitalize"). The default, profile paper with every feature, is 7.
export const F_CASE = 1, F_MARKS = 2, F_REPEAT = 4, FOLD_NO_WHITESPACE = 8, FOLD_NONE = 16, CASE_RANGE = 32;
const DEFAULT_CONFIG = F_CASE | F_MARKS | F_REPEAT;

/** Whether folding (6.1) emits repeats under `cfg`: the feature is on and the fold is not "none". */
export const foldsRepeats = (cfg) => (cfg & F_REPEAT) !== 0 && (cfg & FOLD_NONE) === 0;

function featureFlags(features) {
  if (features === undefined) return DEFAULT_CONFIG;
  let flags = 0;
  for (const f of features) {
    const k = FEATURES.indexOf(f);
    if (k < 0) throw new TypeError(`unknown feature ${JSON.stringify(f)}; known: ${FEATURES.join(', ')}`);
    flags |= 1 << k;
  }
  return flags;
}

/**
 * The `fold` and `case` options in effect (spec 6.6): the profile's, each overridden by an option
 * given explicitly (undefined or null: the profile's). Throws a TypeError (a usage error, not a
 * FormatError) for an unknown profile or value.
 */
export function encoderOptions(profile = DEFAULT_PROFILE, fold = null, caseOption = null) {
  const chosen = typeof profile === 'string' && Object.hasOwn(PROFILES, profile) ? PROFILES[profile] : undefined;
  if (chosen === undefined) {
    throw new TypeError(`unknown profile ${JSON.stringify(profile)}; known: ${Object.keys(PROFILES).join(', ')}`);
  }
  const f = fold ?? chosen.fold, c = caseOption ?? chosen.case;
  if (!FOLDS.includes(f)) throw new TypeError(`fold must be one of ${FOLDS.join(', ')}, not ${JSON.stringify(f)}`);
  if (!CASES.includes(c)) throw new TypeError(`case must be one of ${CASES.join(', ')}, not ${JSON.stringify(c)}`);
  return { fold: f, case: c };
}

/** The configuration integer of an encoder call's options. */
export function configOf(features, profile, fold, caseOption) {
  const flags = featureFlags(features);
  if (profile === DEFAULT_PROFILE && fold == null && caseOption == null) return flags; // the common call
  const o = encoderOptions(profile, fold, caseOption);
  return flags | (o.fold === 'no-whitespace' ? FOLD_NO_WHITESPACE : o.fold === 'none' ? FOLD_NONE : 0)
    | (o.case === 'range' ? CASE_RANGE : 0);
}

/** A TypeError unless `normalize` is a mode of spec 4.1. */
export function checkNormalize(normalize) {
  if (normalize !== 'nfc' && normalize !== null) {
    throw new TypeError(`normalize must be 'nfc' or null, not ${JSON.stringify(normalize)}`);
  }
}

/** A TypeError for a non-string, a FormatError for a lone surrogate (spec 4.3). */
export function checkText(text) {
  if (typeof text !== 'string') throw new TypeError(`expected a string, not ${typeof text}`);
  const k = firstSurrogate(text);
  if (k >= 0) {
    throw new FormatError('lone-surrogate', k, 'a surrogate code point is not a Unicode scalar value');
  }
}

/** The checked text, normalized as `normalize` says. */
export function normalized(text, normalize) {
  checkText(text);
  return normalize === 'nfc' ? nfc(text) : text;
}
