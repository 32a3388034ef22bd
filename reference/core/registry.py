"""The registry of hosts (HST-1), built from `spec/hosts.toml`, and detection (HST-2).

Why here: one table of hosts that every command reads. A row of `spec/hosts.toml` names the
host's package under `reference/hosts/` (`module`) and its place in HST-2's order
(`detect_rank`); the package's `HOST` says the rest. Adding a host is one package and one row.

Detection asks every row (HST-2), never the first that fits: each row claims by the marks only
its host's writer leaves, and a file that no row's marks fit, or two rows' marks fit, is
`E-HOST` (HST-4), whose line names what the nearest rows missed (`Host.near_miss`).

Detection reads a bounded prefix of the file (`PEEK` bytes), never the whole first line of a
log whose first line can be hundreds of megabytes: the rows decided before any value (a folder,
`.md`, `.json`, a SQLite header) look at the prefix only (a `.json` document through
`peek.prefix_view`), and the first value is parsed from it when it ends inside it. A first line
that begins `{"kind":` and a number and does not name `"projectHash"` within the prefix is VS
Code's (HST-2: VS Code's `kind` is a number, Gemini CLI's a string). Only a first value of
another shape that runs past the prefix is read to its end (the record hosts' readers read it
anyway).
"""

from __future__ import annotations

import os

from .errors import E_HOST, Rejection
from .paths import HOSTS_FILE
from .peek import PEEK

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from .host import Host


_HOSTS: tuple[Host, ...] | None = None


def hosts() -> tuple[Host, ...]:
    """Every host, in HST-1's order (the order of spec/hosts.toml)."""
    global _HOSTS
    if _HOSTS is None:
        _HOSTS = _load()
    return _HOSTS


def host_keys() -> tuple[str, ...]:
    """The hosts' keys, as a case's `host` and `--host` name them."""
    return tuple(host.key for host in hosts())


def get(key: str) -> Host:
    """The host named `key`; E-HOST naming the known ones otherwise (HST-3)."""
    for host in hosts():
        if host.key == key:
            return host
    raise Rejection(0, E_HOST, f"unknown host {key!r} (known: {', '.join(host_keys())})")


def _table() -> dict[str, Any]:
    """spec/hosts.toml, from its literal `hosts_table.py` while the file has the bytes the
    literal was written from (no TOML parsing on a count or a whoami), else parsed."""
    with open(HOSTS_FILE, "rb") as handle:
        data = handle.read()
    from . import hosts_table

    if data == hosts_table.SOURCE:
        return hosts_table.TABLE
    import tomllib

    return tomllib.loads(data.decode())  # what tomllib.load does with the bytes


def table_module() -> str:
    """The text of `hosts_table.py` for spec/hosts.toml as it is now."""
    import pprint
    import tomllib

    with open(HOSTS_FILE, "rb") as handle:
        data = handle.read()
    table = tomllib.loads(data.decode())
    return (
        '"""spec/hosts.toml as a Python literal (start-up: no TOML parsing on a count).\n\n'
        "Written by `python -m rebootspec.reference.core.registry`; used only while\n"
        'spec/hosts.toml has exactly the bytes of SOURCE (registry.py). Do not edit."""\n\n'
        "# fmt: off\n"
        f"SOURCE = {pprint.pformat(data, width=88)}\n\n"
        f"TABLE = {pprint.pformat(table, width=88, sort_dicts=False)}\n"
    )


def _load() -> tuple[Host, ...]:
    import sys

    table = _table()
    found = []
    hosts_package = f"{__package__.rpartition('.')[0]}.hosts"  # rebootspec.reference.hosts
    for key, row in table.items():
        if not isinstance(row, dict):
            continue
        name = f"{hosts_package}.{row['module']}"
        __import__(name)  # not importlib: its package imports `warnings`, on every count
        host: Host = sys.modules[name].HOST
        host.key = key
        host.name = row["name"]
        host.chapter = row["chapter"]
        host.rank = int(row["detect_rank"])
        host.fallback = bool(row.get("fallback", False))
        host.family = str(row.get("family", ""))  # HST-1: the owner whose reader it uses
        found.append(host)
    return tuple(found)


def store_variables() -> str:
    """The variables that move the hosts' stores, every host's (for help and hints)."""
    return ", ".join(name for host in hosts() for name in host.store_variables)


def by_rank() -> list[Host]:
    """HST-2's order: the order in which the hosts' rows are asked."""
    return sorted(hosts(), key=lambda host: host.rank)


def fallback() -> Host:
    """The host whose rules reject what is no object at all (HST-2's last row)."""
    return next(host for host in hosts() if host.fallback)


def detect(path: str | os.PathLike[str]) -> Host:
    """HST-2: the host of the file or folder at `path`; E-HOST when none (ERR-13, HST-4).

    Every row is asked, never the first that fits: a file that no row's marks fit, or that two
    rows' marks fit, is `E-HOST` (HST-4), and the line names what the nearest rows missed."""
    from .files import open_log
    from .jsontext import BOM

    name = os.fspath(path)
    ranked = by_rank()
    if os.path.isdir(name):
        folders = [host for host in ranked if host.claims_input(name, True, b"")]
        return _only(folders, None) if folders else fallback()  # its rules: no folder (ERR-12)
    with open_log(path) as stream:
        head = stream.read(PEEK)
    claimed = [host for host in ranked if host.claims_input(name, False, head)]
    if claimed:
        return _only(claimed, None)
    if name.endswith(".md"):  # HST-2: a markdown file is no JSON; an empty one is ERR-1's
        return fallback() if not head else _only([], "a markdown file")
    if name.endswith(".json"):  # HST-2: one document, judged by what the prefix shows of it
        from .peek import prefix_view

        view = prefix_view(head)
        if not view.document:
            return fallback()  # no JSON at all: VS Code's rules (ERR-1, ERR-3, ERR-8)
        return _only([], view.value)
    body = head[len(BOM) :] if head.startswith(BOM) else head
    first = body[len(body) - len(body.lstrip(b"\n")) :]
    if b"\n" not in first and len(head) == PEEK:  # the first line runs past the prefix
        if not first.lstrip(b" \t\r").startswith(b"{"):
            return fallback()  # no object can start there: never read a whole 1 GiB line
        if _vscode_entry(first):
            return first_row({"kind": 0})  # a VS Code entry (see the module's docstring)
        with open_log(path) as stream:  # another shape: read the first line to its end,
            stream.read(len(head) - len(first))  # once, never copied (JSV-4)
            line = stream.readline()
    else:
        line = first.split(b"\n", 1)[0]
    if not line:
        return fallback()  # no entry at all: ERR-1
    value = _first_value(line)
    if not isinstance(value, dict):
        return fallback()  # not JSON, or not an object: VS Code's rules reject it (ERR-3, ERR-4)
    return first_row(value)


def _vscode_entry(first: bytes) -> bool:
    """A first line that begins as VS Code's writer begins every entry, `{"kind":` and a
    number, and names no `projectHash` within the prefix (HST-2, RPL-3)."""
    return (
        first.startswith(b'{"kind":')
        and first[8:9] in b"-0123456789"
        and (b'"projectHash"' not in first)
    )


def first_row(value: dict[str, Any]) -> Host:
    """HST-2 on a first JSON value: the one row whose marks fit it (HST-4 otherwise)."""
    return _only([host for host in by_rank() if host.claims_value(value)], value)


def _only(fitting: list[Host], value: Any) -> Host:
    """The one host that fits; E-HOST when none or several do (HST-4, ERR-13)."""
    if len(fitting) == 1:
        return fitting[0]
    known = f"({', '.join(host_keys())})"
    if fitting:
        both = " and ".join(host.key for host in fitting)
        raise Rejection(0, E_HOST, f"the marks of more than one host fit: {both} {known}")
    reason = f"not a session of a known host {known}"
    if isinstance(value, str):
        reason += f"; {value}"
    elif isinstance(value, list):
        reason += "; a JSON array"
    elif isinstance(value, dict):
        near = [(host.key, host.near_miss(value)) for host in by_rank()]
        missing = [f"{key} ({miss})" for key, miss in near if miss]
        if missing:
            reason += f"; nearest: {', '.join(missing)}"
    raise Rejection(0, E_HOST, reason)


def _first_value(line: bytes) -> Any:
    """The first JSON value of the first line: the whole line, else the first of several glued
    values (JSV-1); None when it does not parse."""
    from .jsontext import LONG_LINE, js_int, parse_json, reject_constant

    if len(line) >= LONG_LINE:  # on its bytes, never decoded whole as text (JSV-4)
        from .longline import split_long

        values = split_long(memoryview(line), 1)
        try:
            return next(values)[1]
        except StopIteration as done:
            if done.value is True or done.value is False:
                return None
            line = bytes(done.value)  # only the text parser reads it (escaped surrogates)
        except Rejection:
            return None
    try:
        return parse_json(line, 1)
    except Rejection:
        pass
    import json

    # The hosts' own loaders (JavaScript, Rust) refuse NaN and Infinity: so does detection.
    strict = json.JSONDecoder(parse_constant=reject_constant, parse_int=js_int)
    try:
        value, _ = strict.raw_decode(line.decode("utf-8", "replace").lstrip(" \t\r"))
    except (ValueError, RecursionError):
        return None
    return value


if __name__ == "__main__":
    with open(os.path.join(os.path.dirname(__file__), "hosts_table.py"), "w") as out:
        out.write(table_module())
