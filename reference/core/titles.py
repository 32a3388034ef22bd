"""A session's title for people (`sessions`): a name its user gave, else its first user message.

Why beside the readers, not in them: the title is informative and never changes a count, so the
readers (the definition, mutation-tested) do not carry it; a host names the two kinds of record
that give a title, and `watch` notes them as the values pass on to the reader, in the same pass.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

    Picker = Callable[[dict[str, Any]], "str | None"]


def watch(
    values: Iterable[tuple[int, Any]],
    first_message: Picker,
    given_name: Picker | None,
    found: list[str],
) -> Iterator[tuple[int, Any]]:
    """Pass the values through; afterwards `found` holds the title (the last name the user
    gave, else the first user message), or nothing."""
    first: str | None = None
    name: str | None = None
    for line, value in values:
        if isinstance(value, dict):
            if first is None:
                first = first_message(value)
            if given_name is not None:
                name = given_name(value) or name
        yield line, value
    title = name or first
    if title:
        found.append(title)


def text_of(content: Any) -> str | None:
    """A message's text: a string, or the `text` members of its parts joined by a space."""
    if isinstance(content, str):
        return content or None
    if isinstance(content, list):
        texts = [
            part["text"]
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        ]
        return " ".join(texts) or None
    return None
