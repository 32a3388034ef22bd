"""What the contribution tools are told about the reference: a plain function, injected.

The generator never imports the reference (its expectations come from plans and people, never
from a counter). `anonymize` and `add-fixture` still show and compare what the reference says,
so whoever starts them (conformance/commands/contribute.py) passes a `ReferenceView`: given a
session file, it returns the reference's answer as plain data and the text to show a person.

The answer is either the reference's count JSON (OUT-1) with `"outcome": "count"` added, or
`{"outcome": "reject", "error": "E-...", "line": N, "reason": "..."}`. The text is the
`explain` timeline for a count and the rejection's one-line message for a rejection.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

ReferenceView = Callable[[Path], tuple[dict[str, Any], str]]


class HostView(Protocol):
    """What `anonymize` is told about the hosts, also injected (issue #33).

    `policy` is the anonymization policy of the host that claims the input (its
    `anonymize_policy()`: plain data, see reference/core/anonymize.py), None when no host claims
    it; `count` is the reference's answer for one session of an input, as `ReferenceView` gives
    it (`session` names one session of a store of several).
    """

    def policy(self, path: Path) -> Mapping[str, Any] | None: ...

    def count(self, path: Path, session: str | None) -> dict[str, Any]: ...
