"""The last check before `anonymize` says "wrote": none of the original's user strings is left.

The rewriter noted every string it replaced (a message, a path, an id, a name: generators/
anonymize/hostpolicy.py `Ledger`); this scan looks for each of at least `MIN_SECRET` bytes in
every byte of the output and in the names of its files, as UTF-8 and as JSON would escape it.
It does not trust the rewriter's own output: a string the policy kept by mistake, a file name,
a page of a database would all be found. A find inside a string that was also kept verbatim
(a user who typed a record type) is no leak: that text is structure somewhere else.

The scan slides a window of `MIN_SECRET` bytes over the output and looks each window up in a
table of the secrets' first bytes, so it is linear in the output, whatever the number of strings.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from .hostpolicy import MIN_SECRET, Ledger


def _forms(text: str) -> set[bytes]:
    """The byte sequences a string can be stored as: UTF-8, and JSON's escaped spellings."""
    forms = {text.encode("utf-8", "surrogatepass")}
    forms.add(json.dumps(text, ensure_ascii=False)[1:-1].encode("utf-8", "surrogatepass"))
    forms.add(json.dumps(text)[1:-1].encode("ascii"))
    return {form for form in forms if len(form) >= MIN_SECRET}


class Scanner:
    """The secrets of one run, indexed by their first `MIN_SECRET` bytes."""

    def __init__(self, ledger: Ledger) -> None:
        self.kept = "\x00".join(sorted(ledger.kept))
        self.table: dict[bytes, list[tuple[bytes, str]]] = {}
        self._structure: dict[str, bool] = {}
        for secret in ledger.secrets:
            for form in _forms(secret):
                self.table.setdefault(form[:MIN_SECRET], []).append((form, secret))

    def find(self, data: bytes) -> tuple[int, str] | None:
        """(byte offset, the secret) of the first secret in `data`, or None."""
        table = self.table
        if not table:
            return None
        for start in range(len(data) - MIN_SECRET + 1):
            candidates = table.get(data[start : start + MIN_SECRET])
            if candidates is None:
                continue
            for form, secret in candidates:
                if data.startswith(form, start) and not self._is_structure(secret):
                    return start, secret
        return None

    def _is_structure(self, secret: str) -> bool:
        """Also kept verbatim elsewhere (a record type a user typed): not this string's leak."""
        known = self._structure.get(secret)
        if known is None:
            known = self._structure[secret] = secret in self.kept
        return known


def first_leak(ledger: Ledger, blobs: Iterable[tuple[str, bytes]]) -> str | None:
    """A one-line description of the first secret found in (where, bytes) pairs, or None.

    The secret itself is never shown (it is a person's text): its length and where it is.
    """
    scanner = Scanner(ledger)
    for where, data in blobs:
        found = scanner.find(data)
        if found is not None:
            offset, secret = found
            size = len(secret)
            return f"{where}: a replaced string of {size} characters is still there (byte {offset})"
    return None
