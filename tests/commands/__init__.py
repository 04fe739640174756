"""The commands: the CLI's encode and decode, compare and its budgets, the corpus reader, train,
tokenize and demo, end to end."""
