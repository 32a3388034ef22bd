"""opencode's rows of the store table (spec/STORES.md): where its sessions live.

Imported only by the session finder (`count --session`, `sessions`, `whoami`), never by `count`.
"""

from __future__ import annotations

from ...core.storetypes import Base, Store

# An opencode store of many sessions: `opencode.db` (or a release channel's `opencode-<channel>.db`)
# and the JSON storage folder `storage` of the versions before 1.2 (OPC-1). The sessions are
# inside: the finder lists them (`within`), their ids are not in a file name.
OPENCODE_STORE = r"(?P<id>opencode(?:-[A-Za-z0-9._-]+)?\.db|storage)"

BASES: tuple[Base, ...] = (
    Base(
        "opencode",
        "XDG_DATA_HOME",
        ".local/share/opencode",
        "sst/opencode packages/opencode/src/global/index.ts (Global.Path.data: xdg-basedir's "
        "data folder, $XDG_DATA_HOME or ~/.local/share on every platform, then opencode)",
        env_under=True,
    ),
)

STORES: tuple[Store, ...] = (
    Store(
        "opencode",
        "store",
        "",
        False,
        OPENCODE_STORE,
        "sst/opencode packages/opencode/src/storage/db.ts (<data>/opencode.db; a release "
        "channel's opencode-<channel>.db from 1.14) and src/storage/storage.ts (<data>/storage/"
        "session|message|part, before 1.2)",
        within=True,
    ),
)
