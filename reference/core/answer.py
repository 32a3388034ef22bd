"""The one answer type of every host (OUT-4): `Answer`, and `RecordCount` of the record hosts.

Why one type: every command (count, explain, sessions, whoami, smoke, the runner) takes an
answer from any host's reader and must never ask which host made it. `Answer` is what they may
rely on: `host`, `reboots`, `notices`, `title`, `to_json()` (the JSON the reference prints) and
`timeline()` (explain's text). VS Code's answer (`hosts/vscode/count.Count`, OUT-1..OUT-3) is
built from a replayed state; the other hosts' readers collect the same kind of facts from a
stream of records, so they share `RecordCount`.
"""

from __future__ import annotations

from .plain import Plain

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from .errors import Notice


class Answer(Plain):
    """OUT-4: the normative count (`reboots`) of one session, whichever host wrote it.

    `title` is informative and never printed by `count` (the session's name or first user
    message, where its reader sees it on the way; "" otherwise): `sessions` shows it.
    """

    host: str
    reboots: int
    notices: list[Notice]
    title: str = ""
    # The other files this answer was read from (a chat-loop chain's earlier files, BCL-4): a
    # cache of answers (`sessions`) must see a change to any of them, not only to the asked one.
    sources: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The JSON object `count` prints (OUT-1, OUT-4)."""
        raise NotImplementedError

    def timeline(self) -> str:
        """The text `explain` prints: one row per counted event, then the totals."""
        raise NotImplementedError


class RecordCount(Answer):
    """OUT-4: the normative count (`reboots`) and what a person needs to check it."""

    _fields = (
        "host", "reboots", "era", "host_version", "records", "events", "inherited",
        "companions", "on_path", "notices",
    )  # fmt: skip

    def __init__(
        self,
        host: str,
        reboots: int,
        era: str | None = None,
        host_version: str | None = None,
        records: int = 0,
        events: list[dict[str, Any]] | None = None,
        inherited: list[int] | None = None,
        companions: int = 0,
        on_path: int | None = None,
        notices: list[Notice] | None = None,
    ) -> None:
        self.host = host
        self.reboots = reboots
        self.era = era
        self.host_version = host_version
        self.records = records  # JSON values read (JSV-1)
        self.events: list[dict[str, Any]] = [] if events is None else events  # counted records
        self.inherited: list[int] = [] if inherited is None else inherited  # RBT-3: copies
        self.companions = companions  # companion records seen, never counted (RBT-2)
        self.on_path = on_path  # pi: compactions on the current path (PIA-6)
        self.notices: list[Notice] = [] if notices is None else notices

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reboots": self.reboots, "host": self.host}
        if self.host_version is not None:
            out["host_version"] = self.host_version
        if self.era is not None:
            out["era"] = self.era
        out["records"] = self.records
        out["reboot_events"] = self.events
        out["inherited"] = self.inherited
        out["companions"] = self.companions
        if self.on_path is not None:
            out["on_path"] = self.on_path
        out["warnings"] = [n.to_json() for n in self.notices]
        return out

    def timeline(self) -> str:
        """A human timeline of a record host's log: counted records, inherited ones, warnings."""
        from .printable import printable  # ERR-10: ids and texts from the file, escaped

        version = f" {printable(self.host_version)}" if self.host_version else ""
        rows = [f"host: {self.host}{version}  era: {self.era or '-'}  records: {self.records}"]
        for event in self.events:  # in the order of the session's history
            details = ", ".join(_detail(k, v) for k, v in event.items() if k not in _PLACE)
            # an event of a chain of files (basic-agent-chat-loop) is at a line of its own file
            line = event["line"]
            place = f"{printable(str(event['file']))}:{line}" if "file" in event else ""
            rows.append(f"{place or f'line {line:>7}'}  REBOOT  ({details})")
        for line in self.inherited:
            rows.append(f"line {line:>7}  inherited from the source thread, not counted (RBT-3)")
        if self.companions:
            rows.append(f"companion records seen and not counted (RBT-2): {self.companions}")
        for notice in self.notices:
            where = f"line {notice.line}" if notice.line is not None else "file"
            rows.append(f"warning {notice.code} ({where}): {printable(notice.message)}")
        total = f"reboots: {self.reboots}"
        if self.on_path is not None:
            total += f"  (on the current path: {self.on_path})"
        rows.append(total)
        return "\n".join(rows) + "\n"


# A yes/no member of an event, in words (explain is read by a person, not by Python).
_FLAG_WORDS = {
    "on_path": ("on the current path", "on an abandoned branch, counted too (RBT-4)"),  # PIA-6
}


_PLACE = ("line", "file")  # where an event is; shown before it, not among its details
_WORDS = {"from": "restored from"}  # BCL-4: the previous session a file was restored from


def _detail(key: str, value: object) -> str:
    """One member of a counted event as explain shows it: `trigger auto`, `on the current
    path`; a flag is never printed as Python's `True`."""
    if isinstance(value, bool):
        yes, no = _FLAG_WORDS.get(key, (key.replace("_", " "), f"not {key.replace('_', ' ')}"))
        return yes if value else no
    from .printable import printable  # ERR-10: ids and texts from the file, escaped

    return f"{_WORDS.get(key, key)} {printable(str(value))}"
