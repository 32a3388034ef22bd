"""A basic-agent-chat-loop session file rewritten under its host's line patterns.

Line by line (LF splits; a CR before it, a BOM, a missing last newline all stay), so every line
keeps its number: the count's answer names lines (BCL-3, ERR-16). A line is matched against the
policy's `lines` patterns in order; the named groups of the first that matches are replaced
(`id…` by the id shape, `name…` by the name's pseudonym, `path…` component by component,
`text…` whole) and the rest of the line stays. A line no pattern matches is replaced whole; a
blank line stays.
"""

from __future__ import annotations

import re

from .hostpolicy import Replacer

BOM = b"\xef\xbb\xbf"


class MarkdownRewriter:
    """One policy's line patterns with one run's replacer."""

    def __init__(self, replacer: Replacer) -> None:
        self.replacer = replacer
        self.patterns = tuple(re.compile(p) for p in replacer.policy.data.get("lines", ()))

    def rewrite(self, data: bytes) -> bytes:
        head = BOM if data.startswith(BOM) else b""
        text = data[len(head) :].decode("utf-8", "surrogateescape")
        out = [self._line(line) for line in text.split("\n")]
        return head + "\n".join(out).encode("utf-8", "surrogateescape")

    def _line(self, line: str) -> str:
        body, cr = (line[:-1], "\r") if line.endswith("\r") else (line, "")
        if not body.strip(" \t"):
            return line
        if any("\udc80" <= char <= "\udcff" for char in body):  # bytes that are not UTF-8
            return (
                self.replacer.text(
                    body.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                )
                + cr
            )
        for pattern in self.patterns:
            match = pattern.fullmatch(body)
            if match is not None:
                return self._groups(body, match) + cr
        return self.replacer.text(body) + cr

    def _groups(self, body: str, match: re.Match[str]) -> str:
        spans = sorted(
            (span for span in ((n, *match.span(n)) for n in match.re.groupindex) if span[1] >= 0),
            key=lambda span: span[1],
        )
        out: list[str] = []
        at = 0
        for name, start, end in spans:
            out.append(body[at:start])
            piece = body[start:end]
            if name.startswith("id"):
                out.append(self.replacer.ident(piece))
            elif name.startswith("name"):
                out.append(self.replacer.name(piece))
            elif name.startswith("path"):
                out.append(self.replacer.path(piece))
            else:
                out.append(self.replacer.text(piece))
            self.replacer.ledger.keep(body[at:start])
            at = end
        out.append(body[at:])
        self.replacer.ledger.keep(body[at:])
        return "".join(out)
