"""The byte and line changes both fast-path equality suites apply to a log (VS Code's and the
record hosts'): one place for what a broken, torn or hand-edited file looks like."""

from __future__ import annotations

import random


def byte_or_line_change(
    data: bytes, lines: list[bytes], choice: int, rng: random.Random, junk: list[bytes]
) -> bytes | None:
    """Change `choice` 0-6 (flip, insert junk, delete, truncate, drop, duplicate, swap), or
    None when it does not apply (the caller then tries its own changes)."""
    if choice == 0 and data:  # flip a byte
        at = rng.randrange(len(data))
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1 :]
    if choice == 1:  # insert structural junk
        at = rng.randrange(len(data) + 1)
        return data[:at] + rng.choice(junk) + data[at:]
    if choice == 2 and data:  # delete a range
        at = rng.randrange(len(data))
        return data[:at] + data[at + rng.randint(1, 40) :]
    if choice == 3 and data:  # truncate (a torn tail)
        return data[: rng.randrange(len(data))]
    if choice == 4 and len(lines) > 1:  # drop a line
        del lines[rng.randrange(len(lines))]
        return b"\n".join(lines)
    if choice == 5 and lines:  # duplicate a line
        at = rng.randrange(len(lines))
        lines.insert(at, lines[at])
        return b"\n".join(lines)
    if choice == 6 and len(lines) > 1:  # swap two lines
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
        return b"\n".join(lines)
    return None
