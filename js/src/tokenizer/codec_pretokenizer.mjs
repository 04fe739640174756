// The second step of the tokenizer's encode path (after special_tokens.mjs): the codec's
// pre-tokens (spec 9) of each stretch under the file's `fuse`
// (python/functok/tokenizer/codec_pretokenizer.py).
import { pretokens as codecPretokens } from '../encoding.mjs';

/**
 * The codec's pre-tokens of text under `fuse`: "none", each instruction its own pre-token and
 * then the base (split_operators true); "all", group and base one pre-token (split_operators
 * false); "frequent", a piece whose group is non-empty joins the pre-token before it, and every
 * other piece is its own pre-token (group + base).
 */
export function codecPreTokenizer({ normalize, splitter, profile, fuse }) {
  const options = { normalize, splitter, profile, fuse };
  codecPretokens('', options); // an unknown option throws now, not at the first encode
  return (text) => codecPretokens(text, options);
}
