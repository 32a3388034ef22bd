"""The registry of hosts (HST-1), built from `spec/hosts.toml`, and detection (HST-2).

Why here: one table of hosts that every command reads. A row of `spec/hosts.toml` names the
host's package under `reference/hosts/` (`module`) and its place in HST-2's order
(`detect_rank`); the package's `HOST` says the rest. Adding a host is one package and one row.

Detection reads a bounded prefix of the file (`PEEK` bytes), never the whole first line of a
log whose first line can be hundreds of megabytes: the rows decided before any value (a folder,
`.md`, `.json`, a SQLite header) look at the prefix only, and the first value is parsed from it
when it ends inside it. A first line that begins `{"kind"` and does not name `"projectHash"`
within the prefix is VS Code's (HST-2: a Gemini CLI metadata record is a few hundred bytes and
names `projectHash` second). Only a first value of another shape that runs past the prefix is
read to its end (the record hosts' readers read it anyway).
"""

from __future__ import annotations

import os

from .errors import E_HOST, Rejection
from .paths import HOSTS_FILE

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from .host import Host

# How much of a file detection reads (HST-2): a VS Code log's first line can be hundreds of
# megabytes, and its first member is `kind`; every other host's first record is far shorter.
PEEK = 1 << 16

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
    import importlib

    table = _table()
    found = []
    for key, row in table.items():
        if not isinstance(row, dict):
            continue
        module = importlib.import_module(f"..hosts.{row['module']}", __package__)
        host: Host = module.HOST
        host.key = key
        host.name = row["name"]
        host.chapter = row["chapter"]
        host.rank = int(row["detect_rank"])
        host.fallback = bool(row.get("fallback", False))
        host.family = str(row.get("family", ""))
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
    """HST-2: the host of the file or folder at `path`; E-HOST when none (ERR-13, HST-4)."""
    from .files import open_log
    from .jsontext import BOM

    name = os.fspath(path)
    ranked = by_rank()
    if os.path.isdir(name):
        for host in ranked:
            if host.claims_input(name, True, b""):
                return host
        return fallback()  # its rules say what a folder is not (ERR-12)
    if name.endswith(".md"):
        head = b""  # HST-2: a markdown file is decided by its name; its reader opens it
    else:
        with open_log(path) as stream:
            head = stream.read(PEEK)
    for host in ranked:
        if host.claims_input(name, False, head):
            return host
    body = head[len(BOM) :] if head.startswith(BOM) else head
    first = body[len(body) - len(body.lstrip(b"\n")) :]
    if b"\n" not in first and len(head) == PEEK:  # the first line runs past the prefix
        if first.startswith(b'{"kind"') and b'"projectHash"' not in first:
            return first_row({"kind": None})  # a VS Code entry (see the module's docstring)
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


def first_row(value: dict[str, Any]) -> Host:
    for host in by_rank():
        if host.claims_value(value):
            return host
    raise Rejection(0, E_HOST, f"not a session of a known host ({', '.join(host_keys())})")


def _first_value(line: bytes) -> Any:
    """The first JSON value of the first line: the whole line, else the first of several glued
    values (JSV-1); None when it does not parse."""
    from .jsontext import js_int, parse_json, reject_constant
    from .jsonvalues import LONG_LINE

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
