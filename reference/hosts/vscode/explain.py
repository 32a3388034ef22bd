"""`explain` for VS Code: one row per compaction event or phantom of the replayed state.

Why apart from `count.py`: the timeline is for people (informative), imported only by
`explain`, and needs `datetime`, which `count` never pays for.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def timeline(result: Any) -> str:
    """`result` is a `count.Count` (not imported: count imports this module lazily)."""
    """A human timeline: one row per compaction event or phantom, then the totals."""
    from ...core.printable import printable  # ERR-10: texts from the file, escaped

    rows = [f"{'request':>7}  {'time (UTC)':<19}  {'marker':<33}  {'evidence':<34}  verdict"]
    by_request: dict[int, list[Any]] = {}
    for event in result.events:
        by_request.setdefault(event.request, []).append(event)
    for view in result.views:
        when = _time(view.timestamp)
        marker = printable(view.marker or "-")
        if view.removed:
            rows.append(f"{view.index:>7}  {when:<19}  {marker:<33}  {'-':<34}  removed (CNT-5)")
            continue
        for event in by_request.get(view.index, []):
            label = event.key if event.kind == "provider" else _preview(event.key)
            evidence = printable(f"{event.source} {label}")
            verdict = "REBOOT" if event.reboot else "same as previous"
            rows.append(
                f"{view.index:>7}  {when:<19}  {marker:<33}  {evidence[:34]:<34}  {verdict}"
            )
        if view.phantom_reason is not None:
            rows.append(
                f"{view.index:>7}  {when:<19}  {marker:<33}  {'-':<34}"
                f"  phantom: {view.phantom_reason}"
            )
    for notice in result.notices:
        where = f"line {notice.line}" if notice.line is not None else f"request {notice.request}"
        rows.append(f"warning {notice.code} ({where}): {printable(notice.message)}")
    rows.append(
        f"reboots: {result.reboots}  (requests: {result.requests}, events: {len(result.events)})"
    )
    if result.reboots_possible != result.reboots:
        lost = result.reboots_possible - result.reboots
        rows.append(
            f"reboots_possible: {result.reboots_possible}  ({lost} phantom(s) lost-after-error:"
            " the request ended in an error that dropped its summary entries, so the model"
            " probably continued from a summary whose text is not on disk; not counted, OUT-3)"
        )
    return "\n".join(rows) + "\n"


def _preview(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat[:14] + ("..." if len(flat) > 14 else ""))


def _time(timestamp: float | None) -> str:
    if timestamp is None:
        return "-"
    from datetime import UTC, datetime  # only explain needs it

    try:
        return datetime.fromtimestamp(timestamp / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return "-"
