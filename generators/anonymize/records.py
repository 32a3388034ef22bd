"""A record host's JSON text rewritten under its policy (Codex, pi, Claude Code, Gemini CLI,
and the `data` columns of opencode).

The token-level rewrite of generators/anonymize/scan.py, unchanged for structure: whitespace,
key order, the numbers of the schema, escapes of kept strings, line ends, malformed pieces
(masked the same way) all stay byte for byte; a number under a member that is not the schema's
is a person's data and gets a pseudonym of the same shape (`_scalar`). The judgement of a
string differs from VS Code's: a member name is kept when the host's policy lists it, a value by
its member's rule, an id by its shape (generators/anonymize/hostpolicy.py). A log is rewritten
line by line (LF splits, as JSV-1 reads records), each line a JSON text of one or more values
(glued records stay glued).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import BinaryIO

import orjson

from .hostpolicy import Replacer
from .scan import Rewriter

BOM = b"\xef\xbb\xbf"


class RecordRewriter(Rewriter):
    """scan.Rewriter with the host policy's judgement of strings (`log_line` is never set)."""

    replacer: Replacer

    @classmethod
    def of(cls, replacer: Replacer) -> RecordRewriter:
        rewriter = cls(policy=None, names=replacer.names)  # type: ignore[arg-type]
        rewriter.replacer = replacer
        return rewriter

    def _key(self, token: bytes, value: str, invalid: frozenset[int]) -> bytes:
        """A member name, judged by the host policy (scan.Rewriter reads the string)."""
        if invalid:
            return b'"' + self._pseudonym(value, invalid) + b'"'
        replaced = self.replacer.key(value)
        return token if replaced == value else orjson.dumps(replaced)

    def _value(
        self, token: bytes, value: str, invalid: frozenset[int], base: list[str] | None, log: bool
    ) -> bytes:
        """A value, judged by the host policy with the member it belongs to."""
        member = self._stack[-1].key if self._stack and self._stack[-1].is_object else None
        if invalid:  # undecodable bytes: the plain pseudonym, 0xFF where they were (scan.py)
            self.replacer.ledger.replaced(value)
            return b'"' + self._pseudonym(value, invalid) + b'"'
        replaced = self.replacer.value(value, member)
        if replaced == value:
            self.kept += 1
            return token
        return orjson.dumps(replaced)

    def _scalar(self, token: bytes) -> bytes:
        """A number is structure only under a member the host's policy keeps (a token count,
        a line number, a flag of the schema) and outside the members whose whole value is a
        person's data (`data`: a tool's input and output, whatever their inner names); any
        other number is a person's data (a card number in a tool's JSON result, an amount, a
        phone number): its digits get a keyed pseudonym of the same shape."""
        if token in (b"true", b"false", b"null") or not self._stack:
            return token
        text = token.decode("ascii")
        policy = self.replacer.policy
        member = next((f.key for f in reversed(self._stack) if f.is_object), None)
        inside_data = any(f.is_object and f.key in policy.data_members for f in self._stack)
        if member is not None and member in policy.keys and not inside_data:
            self.replacer.ledger.keep(text)
            return token
        self.replacer.ledger.replaced(text)
        return self.replacer.names.number(text).encode("ascii")


def rewrite_lines(lines: Iterable[bytes], target: BinaryIO, rewriter: RecordRewriter) -> int:
    """A `.jsonl` log: each line keeps its terminator, a BOM before the first stays."""
    count = 0
    for raw in lines:
        count += 1
        terminated = raw.endswith(b"\n")
        body = raw[:-1] if terminated else raw
        head = b""
        if count == 1 and body.startswith(BOM):
            head, body = BOM, body[len(BOM) :]
        out = head + rewriter.rewrite(body, log_line=False)
        target.write(out + b"\n" if terminated else out)
    return count


def rewrite_document(data: bytes, rewriter: RecordRewriter) -> bytes:
    """One JSON document (a `.json` file, a database's JSON column)."""
    if data.startswith(BOM):
        return BOM + rewriter.rewrite(data[len(BOM) :], log_line=False)
    return rewriter.rewrite(data, log_line=False)


def rewrite_file(source: BinaryIO, target: BinaryIO, suffix: str, rewriter: RecordRewriter) -> int:
    """A record host's file: a `.json` document whole, anything else line by line."""
    if suffix == ".json":
        data = source.read()
        target.write(rewrite_document(data, rewriter))
        return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    return rewrite_lines(source, target, rewriter)


def rewrite_bytes(data: bytes, suffix: str, rewriter: RecordRewriter) -> bytes:
    target = io.BytesIO()
    rewrite_file(io.BytesIO(data), target, suffix, rewriter)
    return target.getvalue()
