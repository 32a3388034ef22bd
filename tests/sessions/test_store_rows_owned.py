"""Each host's store rows are its own (`Host.stores`): a lookup for one host reads only its rows.

`sessions/stores._rows(keys)` imports only the asked hosts' `stores.py` (`whoami` by a Codex id
reads Codex's rows, not every host's); that is the whole table only while no host lists a row
under another host's key.
"""

from __future__ import annotations

from rebootspec.reference.core.registry import hosts
from rebootspec.reference.sessions import stores


def test_each_host_lists_only_rows_of_its_own() -> None:
    for host in hosts():
        bases, rows = host.stores()
        assert bases and rows, host.key
        assert {row.host for row in (*bases, *rows)} == {host.key}


def test_the_rows_of_some_hosts_are_those_hosts_rows_of_the_whole_table() -> None:
    every_base, every_store = stores._rows()
    for keys in (("codex",), ("pi", "cline"), ("kilo-code", "vscode")):
        bases, rows = stores._rows(keys)
        assert bases == tuple(base for base in every_base if base.host in keys)
        assert rows == tuple(row for row in every_store if row.host in keys)
