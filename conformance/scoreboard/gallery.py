"""Which row of SPEC.md §10 (the gallery of wrong counters) a peer's miss matches.

Every row of §10 is a small counter in the checkout's `tests/gallery/wrong_counters.py` that
makes exactly that mistake. A peer's wrong answer on a case matches a row when that row's counter
gives the same answer on the same case: then the mistake has a name, and the corpus already holds
a case that tells it from the truth. A miss that no row reproduces is *unmatched*: a mistake the
gallery does not know yet (or two mistakes at once), which is what issue #36 asks to turn into
new cases.

The gallery is test code of a checkout (its counters are the reference with one rule bent), not
part of the installed package, so it is loaded by name from the checkout that holds this file;
in an installed rebootspec without one, every miss is shown unmatched and the page says why.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from ..runner.corpus import Case

ROOT = Path(__file__).resolve().parents[2]
GALLERY_MODULE = "tests.gallery.wrong_counters"
# A row that names no mistake of its own (it counts lines with a word in them): it says the same
# number as a peer by accident far more often than by the same mistake, so it never names a miss.
GENERIC = frozenset({"greps-compact"})
_ROW = re.compile(r"^\| `([a-z0-9-]+)` \|.*\|([^|]*)\|\s*$", re.M)
_TAG = re.compile(r"`([a-z0-9-]+)`")


@cache
def _section(start: str) -> str:
    try:
        from .. import SPEC_DIR  # the installed spec too, not only a checkout's

        text = (SPEC_DIR / "SPEC.md").read_text("utf-8")
        return text[text.index(start) :]
    except (OSError, ValueError):
        return ""


@cache
def row_tags() -> dict[str, frozenset[str]]:
    """§10's rows: mistake name -> the corpus tags its last column names."""
    section = _section("## 10. Known divergences")
    return {match[1]: frozenset(_TAG.findall(match[2])) for match in _ROW.finditer(section)}


@cache
def host_rows() -> frozenset[str]:
    """The rows of §10's "Other hosts" group: the mistakes of readers of hosts other than VS
    Code. Only these can name a miss on another host's case (a VS Code row rejects such a file
    for VS Code's reasons, which says nothing about a peer that reads that host)."""
    return frozenset(match[1] for match in _ROW.finditer(_section("**Other hosts**")))


@cache
def _gallery() -> tuple[dict[str, Callable[[str], int]], Callable[..., Any], Any] | None:
    if not (ROOT / "tests" / "gallery" / "wrong_counters.py").is_file():
        return None
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        module = importlib.import_module(GALLERY_MODULE)
    except Exception:  # a broken checkout: misses stay unmatched, the run goes on
        return None
    return module.GALLERY, module.answer, module.CaseInput


def available() -> bool:
    return _gallery() is not None


def peer_answer(actual: dict[str, Any]) -> tuple[str, Any] | None:
    """A peer's answer in the gallery's terms: ("count", N) or ("reject", code); None for a
    crash, a timeout or unreadable output, which no counter of the gallery reproduces."""
    if actual.get("outcome") == "count" and isinstance(actual.get("reboots"), int):
        return ("count", actual["reboots"])
    if actual.get("outcome") == "reject":
        return ("reject", actual.get("code"))
    if actual.get("outcome") == "bad-output":
        # The peer ran and gave no number: what a row that rejects the file says too (the
        # peer's own reason is no spec code, so any code matches).
        return ("reject", None)
    return None


def matching_rows(case: Case, answer: tuple[str, Any], rows: Sequence[str] = ()) -> list[str]:
    """The §10 rows whose counter says `answer` on `case` (all rows, or only `rows`)."""
    loaded = _gallery()
    if loaded is None:
        return []
    gallery, say, case_input = loaded
    given = case_input.of(str(case.input), case.session)
    names = [name for name in (rows or list(gallery)) if name in gallery and name not in GENERIC]
    if case.host != "vscode" and host_rows():
        names = [name for name in names if name in host_rows()]
    found = [name for name in names if _same(say(gallery[name], given), answer)]
    return rank(found, frozenset(case.tags))


def _same(said: tuple[str, Any], answer: tuple[str, Any]) -> bool:
    """A row's answer is the peer's: equal, or both no number when the peer gave no code."""
    if answer == ("reject", None):
        return said[0] == "reject"
    return said == answer


def rank(
    rows: list[str], tags: frozenset[str], agreement: dict[str, int] | None = None
) -> list[str]:
    """The rows that best model the peer first: generic rows last, then the rows that agree
    with the peer on the most cases of the host (`agreement`), then those whose §10 tags the
    case carries most."""
    known = row_tags()
    agree = agreement or {}

    def key(name: str) -> tuple[bool, int, int]:
        shared = len(known.get(name, frozenset()) & tags)
        return (name in GENERIC, -agree.get(name, 0), -shared)

    return sorted(rows, key=key)


def agreement(rows: set[str], said: list[tuple[Case, tuple[str, Any] | None]]) -> dict[str, int]:
    """For each row, on how many of `said`'s cases its counter answers as the peer did.

    One case can be missed alike by two rows (a sidechain's boundary counted, or its summary);
    the row that also agrees with the peer where the peer is right is the one that models it.
    """
    loaded = _gallery()
    if loaded is None:
        return {}
    gallery, say, case_input = loaded
    scores = dict.fromkeys(rows, 0)
    for case, answer in said:
        if answer is None:
            continue
        given = case_input.of(str(case.input), case.session)
        for name in rows:
            if name in gallery and _same(say(gallery[name], given), answer):
                scores[name] += 1
    return scores
