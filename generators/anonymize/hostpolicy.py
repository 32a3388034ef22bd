"""A host's anonymization policy applied to strings: what stays, what becomes a pseudonym.

The policy is the host's own data (reference/hosts/<host>/anonymize.py, read through the view
`rebootspec` injects: this package never imports the reference); this module applies any of them
the same way, so a new host needs a policy and no code here. The order of the rules for a string:

1. the empty string and whitespace stay (an empty summary, an empty note: their emptiness is read);
2. a value the policy keeps under its member (`values`: an enum set or a whole-value pattern);
3. an id shape (`ids`): the pieces its groups name are replaced, the rest stays;
4. a path (no white space, a `/` or `\\` in it): each component alone, separators and a known
   file extension kept, so a file name inside a path gets the pseudonym the file gets;
5. a text holding markers (`markers`): the markers and the white space at each piece's edges
   stay, the pieces between are replaced;
6. anything else: its pseudonym (generators/anonymize/pseudonym.py).

Every replaced original of at least `MIN_SECRET` bytes is noted in the `Ledger`, with every
string kept verbatim, for the leak scan that runs before anything is said to be written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .pseudonym import Pseudonyms

# The scan looks for replaced strings of at least this many bytes: a shorter one (a word, a
# digit) can appear in any pseudonym or kept text by chance.
MIN_SECRET = 8
FORMATS = frozenset({"vscode", "records", "opencode", "markdown", "folder"})
_PATH = re.compile(r"[^\s]*[/\\][^\s]*")
_SEPARATORS = re.compile(r"([/\\]+)")
_EXTENSIONS = (".jsonl.zst", ".jsonl", ".json", ".md", ".db")
_KEPT_COMPONENTS = frozenset({"", ".", "..", "~"})
_DRIVE = re.compile(r"[A-Za-z]:")
_EDGES = re.compile(r"(\s*)(.*?)(\s*)\Z", re.S)


@dataclass
class Ledger:
    """What one run replaced and kept, for the leak scan (generators/anonymize/leaks.py)."""

    secrets: set[str] = field(default_factory=set)
    kept: set[str] = field(default_factory=set)

    def replaced(self, text: str) -> None:
        if len(text.encode("utf-8", "surrogatepass")) >= MIN_SECRET:
            self.secrets.add(text)

    def keep(self, text: str) -> None:
        if len(text.encode("utf-8", "surrogatepass")) >= MIN_SECRET:
            self.kept.add(text)


class HostPolicy:
    """One host's policy data, checked and compiled."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.format = str(data["format"])
        if self.format not in FORMATS:
            raise ValueError(f"unknown anonymization format {self.format!r}")
        self.data = data
        self.keys: frozenset[str] = frozenset(data.get("keys", ()))
        self.values: dict[str, frozenset[str] | re.Pattern[str]] = {
            member: re.compile(rule) if isinstance(rule, str) else frozenset(rule)
            for member, rule in data.get("values", {}).items()
        }
        self.ids = tuple(re.compile(pattern) for pattern in data.get("ids", ()))
        markers = tuple(data.get("markers", ()))
        self.markers = re.compile("|".join(markers)) if markers else None
        # Markers that are plain text may be cut across two strings (a message's text parts,
        # joined when read): the start and end of a marker at a string's edges stay too.
        literal = [m for m in markers if re.escape(m) == m or m.replace("\\", "") == m]
        heads = {m[:n] for m in literal for n in range(1, len(m))}
        tails = {m[n:] for m in literal for n in range(1, len(m))}
        self.marker_heads = tuple(sorted(heads, key=len, reverse=True))
        self.marker_tails = tuple(sorted(tails, key=len, reverse=True))
        self.answer_text: frozenset[str] = frozenset(data.get("answer_text", ()))

    def reserved(self) -> set[str]:
        """Strings a pseudonym must never become: the kept member names and enum values."""
        found = set(self.keys)
        for rule in self.values.values():
            if isinstance(rule, frozenset):
                found |= rule
        return found

    def keeps_value(self, text: str, member: str | None) -> bool:
        rule = self.values.get(member) if member is not None else None
        if rule is None:
            return False
        if isinstance(rule, frozenset):
            return text in rule
        return rule.fullmatch(text) is not None


class Replacer:
    """Applies one policy with one run's pseudonyms, noting what it did in the ledger."""

    def __init__(self, policy: HostPolicy, names: Pseudonyms, ledger: Ledger) -> None:
        self.policy = policy
        self.names = names
        self.ledger = ledger
        self.kept = 0

    def key(self, text: str) -> str:
        """A member name: kept when it is structure, else replaced like any string."""
        if text in self.policy.keys:
            self._keep(text)
            return text
        return self.value(text, None)

    def value(self, text: str, member: str | None) -> str:
        """A string value under `member` (None: a data key, an array item's own member)."""
        if not text.strip() or self.policy.keeps_value(text, member):
            self._keep(text)
            return text
        out = self._id(text)
        if out is None and _PATH.fullmatch(text):
            out = self.path(text)
        if out is None and self.policy.markers is not None:
            out = self._marked(text, self.policy.markers)
        if out is None:
            out = self.names.of(text)
        if out != text:
            self.ledger.replaced(text)
        return out

    def name(self, text: str) -> str:
        """A name (an agent's): its plain pseudonym, the same wherever it stands."""
        if not text.strip():
            return text
        self.ledger.replaced(text)
        return self.names.of(text)

    def text(self, text: str) -> str:
        """Free text: its pseudonym (white space-only text stays)."""
        if not text.strip():
            return text
        self.ledger.replaced(text)
        return self.names.of(text)

    def ident(self, text: str) -> str:
        """An id: by the policy's id shapes, else its plain pseudonym."""
        out = self._id(text)
        if out is None:
            out = self.names.of(text) if text else text
        if out != text:
            self.ledger.replaced(text)
        return out

    def path(self, text: str) -> str:
        """Each component of a path alone; separators, `.`, `..`, `~`, a drive and a known
        extension stay, so `<id>.md` at the end of a path is the file's own pseudonym."""
        out: list[str] = []
        for piece in _SEPARATORS.split(text):
            out.append(self.component(piece))
        replaced = "".join(out)
        if replaced != text:
            self.ledger.replaced(text)
        return replaced

    def component(self, piece: str) -> str:
        """One file or folder name (also a name of the output's own files)."""
        if piece in _KEPT_COMPONENTS or _SEPARATORS.fullmatch(piece) or _DRIVE.fullmatch(piece):
            return piece
        stem, extension = piece, ""
        for suffix in _EXTENSIONS:
            if piece.endswith(suffix) and len(piece) > len(suffix):
                stem, extension = piece[: -len(suffix)], suffix
                break
        replaced = self.ident(stem) + extension
        if replaced != piece:
            self.ledger.replaced(piece)
        return replaced

    def _id(self, text: str) -> str | None:
        for pattern in self.policy.ids:
            match = pattern.fullmatch(text)
            if match is None:
                continue
            pieces: list[tuple[str, str]] = []
            at = 0
            spans = [(name, *match.span(name)) for name in pattern.groupindex]
            for name, start, end in sorted(
                (span for span in spans if span[1] >= 0), key=lambda span: span[1]
            ):
                pieces.append(("keep", text[at:start]))
                mode = next(m for m in ("keep", "hex", "b62", "name") if name.startswith(m))
                pieces.append((mode, text[start:end]))
                at = end
            pieces.append(("keep", text[at:]))
            for mode, piece in pieces:
                if mode == "keep":
                    self.ledger.keep(piece)
            return self.names.shaped(pieces)
        return None

    def _marked(self, text: str, markers: re.Pattern[str]) -> str | None:
        found = list(markers.finditer(text))
        start = next((t for t in self.policy.marker_tails if text.startswith(t)), "")
        end = next((h for h in self.policy.marker_heads if text.endswith(h)), "")
        if not found and not start and not end:
            return None
        if len(start) + len(end) > len(text) or (found and found[0].start() < len(start)):
            start = ""
        if found and found[-1].end() > len(text) - len(end):
            end = ""
        out: list[str] = [start]
        at = len(start)
        for match in found:
            out.append(self._inner(text[at : match.start()]))
            out.append(match.group())
            at = match.end()
        out.append(self._inner(text[at : len(text) - len(end)]))
        out.append(end)
        return "".join(out)

    def _inner(self, piece: str) -> str:
        """A piece between markers: white space at its edges stays (GEM-3 strips it)."""
        match = _EDGES.match(piece)
        assert match is not None  # the pattern matches any string
        head, middle, tail = match.groups()
        if middle:
            self.ledger.replaced(middle)
            middle = self.names.of(middle)
        return head + middle + tail

    def _keep(self, text: str) -> None:
        self.names.reserve(text)
        self.ledger.keep(text)
        self.kept += 1
