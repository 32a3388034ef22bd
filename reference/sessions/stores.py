"""Where each host keeps its sessions on this machine: one table, as data (spec/STORES.md).

Why a table: `count --session ID` and `rebootspec sessions` must look in the same places, and a
new host or a moved folder should be one new row here, never a path spread over the readers.
Each row cites the host's own source file that says it; the spec's informative chapter
`spec/STORES.md` restates the table for people.

A store is a *base* folder (found from the platform and the environment) and, under it, the
folders that hold session files and how a file's name carries the session id. Nothing here
reads a file; `finder.py` walks the folders.

Platforms are named like `sys.platform` (`win32`, `darwin`, anything else follows Linux's
rules, as VS Code does); every function takes the platform, the environment and the home
folder as arguments, so tests build fake homes of every platform on any machine.
"""

from __future__ import annotations

import os
import sys

from ..core.storetypes import (  # noqa: F401  (re-exported: the table's types)
    VSCODE_USER_DATA_ENV,
    Base,
    Root,
    Store,
    expand,
    home_of,
    under,
)

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every whoami
if TYPE_CHECKING:
    from collections.abc import Mapping

# The platform the roots are found for; tests set it to build other platforms' fake homes.
PLATFORM = sys.platform


# Our own override of VS Code's user data folder, the way `code --user-data-dir DIR` moves it:
# one folder or several separated by os.pathsep; when set, nothing else is looked at for VS Code.


def roots(
    hosts: tuple[str, ...] | None = None,
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
) -> list[Root]:
    """Every base folder to look in, for the given hosts (all by default), in table order."""
    env = os.environ if env is None else env
    platform = platform or PLATFORM
    home = home_of(env, platform)
    found: list[Root] = []
    for base in _rows(hosts)[0]:
        if base.finder is not None:  # a host whose bases are several (VS Code's products)
            found += base.finder(env, platform, home)
            continue
        if base.cwd:
            found.append(Root(base.host, os.getcwd(), "the current folder"))
            continue
        value = env.get(base.env) if base.env else None
        if value and base.env_is_home:  # Gemini CLI: its variable replaces the home folder
            found.append(Root(base.host, under(expand(value, home), base.default), base.env))
        elif value and base.env_under:  # opencode: XDG_DATA_HOME/opencode
            last = base.default.split("/")[-1]
            found.append(Root(base.host, os.path.join(expand(value, home), last), base.env))
        elif value:
            found.append(Root(base.host, expand(value, home), base.env))
        else:
            found.append(Root(base.host, under(home, base.default), None))
    return found


def _rows(keys: tuple[str, ...] | None = None) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
    """Every host's rows (or those of the hosts `keys` names), in HST-1's order: each host
    keeps its own (Host.stores), each row under its host's key. Only the hosts asked import
    their rows: `whoami` by a Codex id reads Codex's, not thirteen modules."""
    from ..core.registry import hosts

    bases: list[Base] = []
    stores: list[Store] = []
    for host in hosts():
        if keys is not None and host.key not in keys:
            continue
        own_bases, own_stores = host.stores()
        bases += own_bases
        stores += own_stores
    return tuple(bases), tuple(stores)


def __getattr__(name: str) -> tuple[Base, ...] | tuple[Store, ...]:
    """`BASES` and `STORES`: the table, built from the registry on first use."""
    if name == "BASES":
        return _rows()[0]
    if name == "STORES":
        return _rows()[1]
    raise AttributeError(name)


def all_stores() -> tuple[Store, ...]:
    """Every host's session folders (the table's second part)."""
    return _rows()[1]


def stores_of(host: str) -> tuple[Store, ...]:
    return tuple(store for store in _rows((host,))[1] if store.host == host)


def session_id(name: str) -> tuple[str, str] | None:
    """(host, id) from a file name alone, for folders outside the table (`--path`); or None.

    The names of the stores marked `distinct` (a Codex rollout, a pi session, a Gemini CLI chat)
    say their host; any other `.json`/`.jsonl` is taken as the fallback host's (VS Code's
    `<sessionId>.jsonl`): its content decides the host when it is counted.
    """
    from ..core.registry import fallback

    rows = _rows()[1]
    named = [store for store in rows if store.distinct and not store.within]
    last = [store for store in rows if store.host == fallback().key and not store.within][:1]
    for store in (*named, *last):
        match = store.fullmatch(name)
        if match:
            return store.host, match["id"]
    return None
