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

from collections.abc import Callable
from pathlib import Path
from typing import Any

ReferenceView = Callable[[Path], tuple[dict[str, Any], str]]
