"""The reference reboot counter of rebootspec: the spec's rules as small readable functions.

`count_path` is the whole answer for one session of any host; `python -m reference` is its
command line. The core (`core/`) decides the host from the registry of `spec/hosts.toml`
(`core/registry.py`, HST-1, HST-2) and hands the input to that host's package
(`hosts/<host>/`, its chapter `spec/hosts/<host>.md`), whose answer is the one answer type of
every host (`core/answer.py`, OUT-4).
"""

from __future__ import annotations

import os

from .core.answer import Answer, RecordCount
from .core.errors import Notice, Rejection
from .core.records import FAST_FROM_BYTES

__all__ = [
    "FAST_FROM_BYTES",
    "Answer",
    "Notice",
    "RecordCount",
    "Rejection",
    "count_path",
]


def count_path(
    path: str | os.PathLike[str],
    *,
    readable: bool = False,
    host: str | None = None,
    session: str | None = None,
) -> Answer:
    """Count the reboots of one session of any host; raises Rejection (ERR-*).

    `host` names the host (HST-3); without it the content decides (HST-2). `session` names the
    session inside a store of several (an opencode database or storage folder, ERR-15); a file
    that is one session's log (every other host) is that session, and the id is not read.
    """
    from .core import registry

    chosen = registry.detect(path) if host is None else registry.get(host)
    return chosen.count(os.fspath(path), session=session, readable=readable)
