// GPT-2 as a Hugging Face tokenizer.json, made from js-tiktoken's GPT-2 ranks (for the peers
// that read tokenizer.json: @huggingface/tokenizers, and functok's loadHF). Each token of two
// or more bytes is the merge of the two parts that byte-pair merging with the lower ranks leaves
// (the usual tiktoken-to-tokenizer.json conversion); the ids are the ranks.
import { readTiktokenRanks } from '../../js/src/tokenizer/file_reader.mjs';
import { BYTE_TO_CHAR } from '../../js/src/tokenizer/gpt2.mjs';

const spell = (bytes) => { let s = ''; for (let k = 0; k < bytes.length; k++) s += BYTE_TO_CHAR[bytes.charCodeAt(k)]; return s; };

/** The two parts of `token` under the ranks below `rank` (tiktoken's merge, leftmost lowest). */
function lastMerge(token, rank, ranks) {
  let parts = [...token];
  for (;;) {
    let best = Infinity, at = -1;
    for (let k = 0; k + 1 < parts.length; k++) {
      const r = ranks.get(parts[k] + parts[k + 1]);
      if (r !== undefined && r < rank && r < best) { best = r; at = k; }
    }
    if (at < 0) return parts;
    parts = [...parts.slice(0, at), parts[at] + parts[at + 1], ...parts.slice(at + 2)];
  }
}

export function gpt2TokenizerJson(packed) {
  const ranks = readTiktokenRanks(packed);
  const vocab = {}, merges = [];
  const byRank = [...ranks].sort((a, b) => a[1] - b[1]);
  for (const [token, rank] of byRank) {
    vocab[spell(token)] = rank;
    if (token.length < 2) continue;
    const parts = lastMerge(token, rank, ranks);
    if (parts.length !== 2) throw new Error(`rank ${rank}: ${parts.length} parts`);
    merges.push([spell(parts[0]), spell(parts[1])]);
  }
  const special = Object.entries(packed.special_tokens ?? {}).map(([content, id]) => ({
    id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));
  return {
    version: '1.0', truncation: null, padding: null, added_tokens: special, normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null, decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '',
      fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab, merges },
  };
}
