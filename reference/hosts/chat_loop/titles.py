"""The title a person sees for a chat_loop session in `rebootspec sessions` (informative).

Why apart from the count: a title never changes an answer, so it is kept out of the reader and
out of mutation testing; `HOST.count(..., with_title=True)` asks for it on the same pass.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass


def first_query(path: str) -> str:
    """The first `**You:**` line of the file: the first thing the user asked in it."""
    from ...core.files import open_regular

    marker = b"**You:**"
    with open_regular(path) as stream:
        for raw in stream.read(1 << 17).splitlines():
            if raw.startswith(marker):
                return raw[len(marker) :].decode("utf-8", "replace").strip()
    return ""
