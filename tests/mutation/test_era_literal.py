"""The era literal's writer reproduces the checked-in `reference/eras_table.py` exactly.

`reference/eras_table.py` holds spec/eras.toml as a Python literal so that a count parses no
TOML (eras.py says why). After an edit of the TOML a person runs
`python -m rebootspec.reference.eras`, which writes the module `table_module()` returns: that
text must be the checked-in module byte for byte (so rewriting it after no edit changes
nothing), and the module it is must hold the TOML's bytes and its table. Like
test_corpus_answers.py it runs under `tox -e mutation` against the mutated reference.
"""

from __future__ import annotations

import importlib
import os
import tomllib

PACKAGE = "reference" if "MUTANT_UNDER_TEST" in os.environ else "rebootspec.reference"
eras = importlib.import_module(PACKAGE + ".hosts.vscode.eras")


def test_the_writer_writes_the_checked_in_literal() -> None:
    checked_in = os.path.join(os.path.dirname(eras.__file__), "eras_table.py")
    with open(checked_in, encoding="utf-8") as handle:
        expected = handle.read()
    assert eras.table_module() == expected, "run: python -m rebootspec.reference.hosts.vscode.eras"


def test_the_written_literal_is_the_toml() -> None:
    with open(eras.ERAS_FILE, "rb") as handle:
        data = handle.read()
    namespace: dict[str, object] = {}
    exec(compile(eras.table_module(), "eras_table.py", "exec"), namespace)
    assert namespace["SOURCE"] == data
    assert namespace["TABLE"] == tomllib.loads(data.decode())
