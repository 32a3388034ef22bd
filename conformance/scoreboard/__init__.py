"""The peers' scoreboard (issue #36): every counter people use, run over the corpus, one table.

`board` runs the peers (`conformance/presets/peers/`) case by case; `gallery` names each miss by
the row of SPEC.md §10 that makes it; `render` writes the Markdown and HTML pages and the README's
section. The command is `rebootspec peers` (`conformance/commands/peers.py`).
"""
