"""The session generator: a model of a chat session, VS Code's log writer, and the golden corpus.

Scenario plans drive a model session; the writer turns its saves into a `.jsonl` log the way
VS Code's ObjectMutationLog does (or a legacy flat `.json`); the plan alone gives the expected
count. `python -m rebootspec.generators build` writes `fixtures/`.
"""
