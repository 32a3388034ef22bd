"""Kilo's rows of the store table (spec/STORES.md): where its sessions live.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.
"""

from __future__ import annotations

from ...core.storetypes import Base, Store

# A Kilo store of many sessions (spec/hosts/kilo.md, "Where it lives"): `kilo.db`; a build of
# another release channel's `kilo-<channel>.db`, or the `opencode-<channel>.db` such a build
# keeps using when it finds one in Kilo's folder. The sessions are inside: the finder lists
# them (`within`).
KILO_STORE = r"(?P<id>kilo(?:-[A-Za-z0-9._-]+)?\.db|opencode-[A-Za-z0-9._-]+\.db)"

BASES: tuple[Base, ...] = (
    Base(
        "kilo",
        "XDG_DATA_HOME",
        ".local/share/kilo",
        "Kilo-Org/kilocode packages/opencode/src/global/index.ts (the app name kilo: "
        "xdg-basedir's data folder, $XDG_DATA_HOME or ~/.local/share on every platform, then "
        "kilo)",
        env_under=True,
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "kilo",
        "store",
        "",
        False,
        KILO_STORE,
        "Kilo-Org/kilocode packages/opencode/src/storage/db.ts (<data>/kilo.db; 7.7 and later: "
        "KILO_DB names another file, absolute or under <data>, and a build of another channel "
        "uses kilo-<channel>.db, or opencode-<channel>.db when only that exists)",
        within=True,
    ),
)
