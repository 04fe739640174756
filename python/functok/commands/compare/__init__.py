"""The experiment behind ``functok compare``: the paper's vocabulary measurement and the
equal-budget table, in one room.

:mod:`.command` (the command and its steps), :mod:`.corpus` (the corpora, held-out documents and
bad input, on the shared reader :mod:`functok.commands.corpus`), :mod:`.train` (the variants,
their pre-token counts and trainings, through :func:`functok.tokenizer.train.train_counts`, the
trainer ``Tokenizer.train`` uses), :mod:`.budgets` (the equal-budget table) and the reports,
:mod:`.report` and :mod:`.budgets_report`.
"""
