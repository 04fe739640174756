"""The integrations: functok as a transformers tokenizer (and in transformers' own generate, with
torch), the datatrove blocks and datasets helper, and functok tokenize on Ray."""
