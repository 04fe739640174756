// Pre-tokens (spec 9): the stream cut where BPE may not merge across. Each piece's encoding is
// one pre-token (9.2, fuse "all"), or each instruction and then the base (9.1, fuse "none"), or a
// piece with a group joins the pre-token before it (9.4, fuse "frequent": context chains).
import { pieceEnd, digitsOf } from './splitting.mjs';
import { configOf, checkNormalize, normalized, foldsRepeats, DEFAULT_PROFILE } from './options.mjs';
import { SPECIAL, specialMask, encodesToItself } from './piece.mjs';
import { encodePiece, instructionCodes } from './serialize.mjs';

/** The pre-token rules of spec 9: split (9.1), whole pieces (9.2), context chains (9.4). */
export const FUSE_MODES = Object.freeze(['none', 'all', 'frequent']);

/** The fuse mode of a call's options: `fuse`, or the default `splitOperators` gives; TypeError if unknown. */
export function fuseMode(fuse, splitOperators) {
  if (fuse === undefined || fuse === null) return splitOperators ? 'none' : 'all';
  if (!FUSE_MODES.includes(fuse)) throw new TypeError(`unknown fuse mode ${JSON.stringify(fuse)}: expected one of ${FUSE_MODES.join(', ')}`);
  return fuse;
}

const CACHE_LIMIT = 1 << 16;
const caches = new Map(); // configuration -> Map(piece -> encodePiece's entry)

/** Forget every cached piece. */
export function clearPretokenCaches() { caches.clear(); }

function cacheFor(cfg) {
  let c = caches.get(cfg);
  if (c === undefined) { c = new Map(); caches.set(cfg, c); }
  else if (c.size >= CACHE_LIMIT) c.clear();
  return c;
}

/** The pre-tokens BPE sees (spec 9); they concatenate to encode(text). */
export function pretokens(text, { normalize = 'nfc', splitter = 'llama3', splitOperators = true, fuse, profile = DEFAULT_PROFILE, fold, case: caseOption, features } = {}) {
  const mode = fuseMode(fuse, splitOperators);
  checkNormalize(normalize);
  const cfg = configOf(features, profile, fold, caseOption);
  const digits = digitsOf(splitter);
  const t = normalized(text, normalize);
  const cache = cacheFor(cfg);
  const mask = specialMask(cfg), repeats = foldsRepeats(cfg);
  const out = [];
  for (let start = 0, end = 0, n = t.length; start < n; start = end) {
    end = pieceEnd(t, start, n, digits);
    const piece = t.slice(start, end);
    // a piece that encodes to itself (the usual case, as in encode) is its own pre-token
    let special = 0;
    for (let i = start; i < end; i++) special |= SPECIAL[t.charCodeAt(i)];
    if (encodesToItself(t, start, end, special, mask, repeats)) { out.push(piece); continue; }
    let entry = cache.get(piece);
    if (entry === undefined) { entry = encodePiece(piece, cfg); cache.set(piece, entry); }
    const { encoded, group } = entry;
    if (mode === 'frequent') {
      // 9.4: a piece with a group joins the chain before it (V8 joins strings as ropes)
      if (out.length > 0 && group.length > 0) out[out.length - 1] += encoded;
      else out.push(encoded);
    } else if (mode === 'all' || group.length === 0) out.push(encoded);
    else {
      for (const code of instructionCodes(group)) out.push(code);
      out.push(encoded.slice(group.length)); // the group is all BMP: one UTF-16 unit per code point
    }
  }
  return out;
}
