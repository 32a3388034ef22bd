"""Keyed pseudonyms for the anonymizer: equal strings stay equal, different strings stay different.

A pseudonym is derived from HMAC-SHA256(secret, original) and expanded with SHAKE-256 into
letters and digits, one per code point of the original, so only a holder of the secret could
test a guess. The secret is random per run unless a test passes one in.

Two different originals could in theory derive the same pseudonym; the table below notices it
and derives again with a counter, so the "different stay different" promise holds exactly,
not just with high probability. A pseudonym never equals a string the anonymizer keeps
verbatim (the reserved set), so a replaced summary can never become equal to a kept one.
The era table's strings and the keys the reference reads are reserved from the start; other
kept strings (keys, kinds) are reserved when first met. That order cannot change a count: the
reference compares replaced strings only with each other and with the era table's strings.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

_ALNUM = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_UPPER = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ALNUM_TABLE = bytes(_ALNUM[b % len(_ALNUM)] for b in range(256))
_UPPER_TABLE = bytes(_UPPER[b % len(_UPPER)] for b in range(256))
_DIGIT_TABLE = bytes(b"0123456789"[b % 10] for b in range(256))
REPLACEMENT = "\ufffd"
# After this many collisions at one length the pseudonym grows by one character: a file can hold
# more distinct one-character strings than there are one-character pseudonyms.
_TRIES_PER_LENGTH = 64
_HEX_DIGITS = "0123456789abcdefABCDEF"
_MAX_SHAPED_TRIES = 4096


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class Pseudonyms:
    """One run's pseudonym table (the secret plus what has been handed out so far)."""

    def __init__(self, secret: bytes, reserved: Iterable[str] = ()) -> None:
        self._secret = secret
        self._reserved: set[str] = set(reserved)
        self._owner: dict[bytes, bytes] = {}  # digest(pseudonym) -> digest(original)
        self._retries: dict[bytes, int] = {}  # digest(original) -> counter, when not 0
        self.replaced = 0  # strings replaced (occurrences), for the run's report

    def reserve(self, text: str) -> None:
        """A string kept verbatim somewhere: no later pseudonym may equal it."""
        self._reserved.add(text)

    def of(self, text: str) -> str:
        """The pseudonym of `text`: same length in code points, U+FFFD kept where it stands.

        U+FFFD stays because it is what undecodable bytes become (RPL-2); the caller may put
        the original bytes back at those places so an invalid-UTF-8 file stays invalid.
        """
        if not text:
            return text
        self.replaced += 1
        original = _digest(text)
        counter = self._retries.get(original, 0)
        while True:
            candidate = self._derive(text, counter)
            owner_key = _digest(candidate)
            owner = self._owner.get(owner_key)
            if owner == original or (owner is None and candidate not in self._reserved):
                self._owner[owner_key] = original
                if counter:
                    self._retries[original] = counter
                return candidate
            counter += 1

    def shaped(self, pieces: list[tuple[str, str]]) -> str:
        """The pseudonym of an id made of `(mode, text)` pieces, its shape kept: `keep` stays,
        `name` becomes that text's own pseudonym (`of`), `hex` keyed hex digits (case kept),
        `b62` keyed letters and digits; other characters of a `hex`/`b62` piece stay.

        Like `of`, equal ids stay equal and different ids stay different: a candidate that
        another id or a kept string already holds is derived again.
        """
        whole = "".join(text for _, text in pieces)
        if not whole:
            return whole
        self.replaced += 1
        original = _digest(whole)
        counter = self._retries.get(original, 0)
        while True:
            candidate = "".join(
                self._piece(mode, text, whole, counter, index)
                for index, (mode, text) in enumerate(pieces)
            )
            owner_key = _digest(candidate)
            owner = self._owner.get(owner_key)
            if owner == original or (owner is None and candidate not in self._reserved):
                self._owner[owner_key] = original
                if counter:
                    self._retries[original] = counter
                return candidate
            counter += 1
            if counter > _MAX_SHAPED_TRIES:  # the shape has no room left: refuse, never reuse
                raise ValueError("no distinct pseudonym of this shape is left")

    def _piece(self, mode: str, text: str, whole: str, counter: int, index: int) -> str:
        if mode == "keep" or not text:
            return text
        if mode == "name":
            return self.of(text)
        message = (
            b"s"
            + bytes([index % 256])
            + counter.to_bytes(4, "big")
            + whole.encode("utf-8", "surrogatepass")
        )
        stream = iter(self._stream(message, len(text), _ALNUM_TABLE))
        out: list[str] = []
        for char in text:
            letter = next(stream)
            if mode == "hex" and char in _HEX_DIGITS:
                digit = _HEX_DIGITS[_ALNUM.index(letter.encode()) % 16]
                out.append(digit.upper() if char.isupper() else digit)
            elif mode == "b62" and char.isascii() and char.isalnum():
                out.append(letter)
            else:
                out.append(char)
        return "".join(out)

    def _derive(self, text: str, counter: int) -> str:
        length = len(text) + counter // _TRIES_PER_LENGTH
        message = b"p" + counter.to_bytes(4, "big") + text.encode("utf-8", "surrogatepass")
        letters = self._stream(message, length, _ALNUM_TABLE)
        if REPLACEMENT not in text:
            return letters
        return "".join(
            REPLACEMENT if index < len(text) and text[index] == REPLACEMENT else letter
            for index, letter in enumerate(letters)
        )

    def number(self, text: str) -> str:
        """A JSON number's keyed pseudonym of the same shape: each digit replaced, sign, point
        and exponent kept, so it is a JSON number of the same length (an integer part of two
        digits or more never starts with 0; a lone 0 stays 0). Equal numbers stay equal."""
        import re

        runs = list(re.finditer(r"[0-9]+", text))
        digits = self._stream(
            b"n" + text.encode("ascii"), sum(len(m[0]) for m in runs), _DIGIT_TABLE
        )
        out: list[str] = []
        position = used = 0
        for index, run in enumerate(runs):
            out.append(text[position : run.start()])
            new = digits[used : used + len(run[0])]
            used += len(run[0])
            if index == 0 and run[0] == "0":
                new = "0"
            elif index == 0 and len(new) > 1 and new[0] == "0":
                new = "1" + new[1:]
            out.append(new)
            position = run.end()
        out.append(text[position:])
        return "".join(out)

    def mask(self, text: str) -> str:
        """Capital letters for text that has no meaning to keep (garbage, broken strings).

        Capitals only: a masked run can never spell a JSON number, `true`, `false` or `null`,
        nor a valid escape letter, so a malformed line stays malformed.
        """
        message = b"m" + text.encode("utf-8", "surrogatepass")
        return self._stream(message, len(text), _UPPER_TABLE)

    def _stream(self, message: bytes, length: int, table: bytes) -> str:
        key = hmac.new(self._secret, message, hashlib.sha256).digest()
        return hashlib.shake_256(key).digest(length).translate(table).decode("ascii")
