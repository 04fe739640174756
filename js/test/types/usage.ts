// Type-checked by js/test/types.test.mjs (tsc --noEmit, strict): the package's declarations, as
// a user imports them (`functok`, `functok/codec`, through js/package.json's exports). Never run.
import { encode, decode, pieces, pretokens, Tokenizer, DecodeStream, FormatError, loadHF, segment, Vocabulary, TIE_BREAKS } from 'functok';
import type { Piece, TokenizerEncodeOptions } from 'functok';
import * as codec from 'functok/codec';

const stream: string = encode('Héllo World', { profile: 'compact', fold: 'no-whitespace', case: null });
const text: string = decode(stream, { errors: 'replace', maxOutput: 2 ** 20 });
const first: Piece = pieces(text)[0];
const starts: number[] = first.slotStarts;
const labels: string[] = first.instructions.map((i) => i.toString() + i.code + i.name + i.args.join());
const cut: string[] = pretokens(text, { fuse: 'frequent', splitOperators: false });
try { decode('ab\uefff'); } catch (e) { if (e instanceof FormatError) { const k: string = e.kind; const at: number = e.offset; void k; void at; } }

const tok = Tokenizer.fromStr('{}');
const options: TokenizerEncodeOptions = { segmentation: 'optimal', tieBreak: 'prefer-greedy', reachableOnly: true, allowedSpecial: 'all' };
const ids: number[] = tok.encode('Héllo', options).ids;
const ds = new DecodeStream(tok, { errors: 'replace' });
const chunk: string | null = ds.step(ids[0]);
const pieceIds: number[] = loadHF('{}').ids('hello', { segmentation: 'optimal' });
const vocabulary = new Vocabulary({ tokens: ['a', 'b', 'ab'], merges: [['a', 'b']], byteFallback: true });
const tokens: string[] = segment('ab', vocabulary, { tieBreak: TIE_BREAKS[1], reachableOnly: true });

// the codec entry: the codec's names, and none of the tokenizer's
const again: string = codec.encode(codec.decode(stream), { profile: codec.DEFAULT_PROFILE });
const kinds: readonly codec.ErrorKind[] = codec.ERROR_KINDS;
// @ts-expect-error: the tokenizer is not in functok/codec
codec.Tokenizer;
// @ts-expect-error: an unknown profile
encode('x', { profile: 'tiny' });
// @ts-expect-error: Python's name, not the JavaScript one
first.slot_starts;

void [starts, labels, cut, chunk, pieceIds, tokens, again, kinds];
