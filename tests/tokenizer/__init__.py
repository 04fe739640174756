"""The tokenizer: training, the tokenizer file and its readers, BPE and the optimal segmenter,
fusion, DecodeStream and TSR, on the pure path (engine/ holds the compiled parts to it)."""
