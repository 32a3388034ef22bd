"""The host table's literal (`reference/core/hosts_table.py`) is spec/hosts.toml, byte for byte.

The registry reads the literal instead of parsing TOML on every count and every `whoami` (issue
#34: start-up). After an edit of spec/hosts.toml a person runs
`python -m rebootspec.reference.core.registry`; until then the registry parses the TOML (never
a stale table), and this test says to run it.
"""

from __future__ import annotations

import os
import tomllib

from rebootspec.reference.core import hosts_table, registry


def test_the_writer_writes_the_checked_in_literal() -> None:
    checked_in = os.path.join(os.path.dirname(registry.__file__), "hosts_table.py")
    with open(checked_in, encoding="utf-8") as handle:
        expected = handle.read()
    assert registry.table_module() == expected, "run: python -m rebootspec.reference.core.registry"


def test_the_literal_is_the_toml() -> None:
    with open(registry.HOSTS_FILE, "rb") as handle:
        data = handle.read()
    assert data == hosts_table.SOURCE
    assert tomllib.loads(data.decode()) == hosts_table.TABLE
