"""`rebootspec anonymize` and `add-fixture`: the corpus tools, with the reference wired in.

The generator package never imports the reference (its expected counts come from plans and
people, never from a counter); the contribution tools still want to show what the reference
sees, so this layer, which may import both, hands them the reference as a plain function: a
`ReferenceView` (generators/view.py) built from `count_path`, `explain` and `Rejection`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...generators.anonymize.command import cli as anonymize_cli
from ...generators.corpus.add_fixture import cli as add_fixture_cli
from ...reference import count_path
from ...reference.core.errors import Rejection
from ...reference.core.userio import shown


def reference_view(session: Path) -> tuple[dict[str, Any], str]:
    """The reference's answer for `session` as plain data, and the text to show a person.

    A count is the OUT-1 JSON plus `"outcome": "count"`, shown as the `explain` timeline; a
    rejection is its code, line and reason, shown as the reference's one-line error.
    """
    try:
        result = count_path(session)
    except Rejection as rejection:
        answer = {
            "outcome": "reject",
            "error": rejection.code,
            "line": rejection.line,
            "reason": rejection.reason,
        }
        reason = f"{rejection.code}: {shown(rejection.reason)}"
        text = f"error: {shown(str(session))}:{rejection.line}: {reason}\n"
        return answer, text
    text = result.timeline()
    return {"outcome": "count", **result.to_json()}, text


class HostsView:
    """The hosts as `anonymize` sees them (generators/view.py `HostView`): the policy of the
    host that claims an input (its `anonymize_policy()`), and the reference's answer."""

    def policy(self, path: Path) -> Any:
        from ...reference.core import registry

        try:
            return registry.detect(path).anonymize_policy()
        except (Rejection, OSError):
            return None  # no host claims it: VS Code's rules judge it, as before

    def count(self, path: Path, session: str | None) -> dict[str, Any]:
        try:
            result = count_path(path, session=session)
        except Rejection as rejection:
            return {"outcome": "reject", "error": rejection.code, "line": rejection.line}
        return {"outcome": "count", **result.to_json()}


def anonymize(argv: list[str]) -> int:
    return int(anonymize_cli(argv, reference_view, HostsView()))


def add_fixture(argv: list[str]) -> int:
    return int(add_fixture_cli(argv, reference_view, HostsView()))
