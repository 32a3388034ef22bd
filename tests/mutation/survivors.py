"""`python tests/mutation/survivors.py`: the mutation score, and every survivor explained or not.

Run after `mutmut run` (tox -e mutation does both). Reads `mutmut results`, matches each mutant
that was not killed against tests/mutation/equivalent.toml (a glob over mutant names and the
reason it cannot change a count, a rejection code or a line), and prints killed / equivalent /
total. Exit 1 when a survivor has no reason: that is a rule the corpus cannot tell from its
mistake, to be killed with a new fixture (or explained in the file, in review).
"""

from __future__ import annotations

import fnmatch
import subprocess
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
# A timeout is a detection: the mutant made a case run away (e.g. a hole bound removed, so a
# billion holes are padded), which the corpus noticed.
NOT_KILLED = ("survived", "no tests", "suspicious", "skipped")


def results() -> dict[str, str]:
    """mutant name -> status, for every mutant `mutmut results --all true` lists."""
    done = subprocess.run(
        ["mutmut", "results", "--all", "true"], capture_output=True, text=True, check=True
    )
    found = {}
    for line in done.stdout.splitlines():
        name, _, status = line.strip().partition(": ")
        if name.startswith("reference."):
            found[name] = status.strip()
    return found


def explanations(path: Path = HERE / "equivalent.toml") -> list[tuple[str, str]]:
    table = tomllib.loads(path.read_text("utf-8"))
    return [(entry["mutants"], entry["reason"]) for entry in table["equivalent"]]


def main() -> int:
    statuses = results()
    reasons = explanations()
    killed = sum(1 for status in statuses.values() if status in ("killed", "timeout"))
    unexplained = []
    equivalent = 0
    used = set()
    for name, status in sorted(statuses.items()):
        if status not in NOT_KILLED:
            continue
        match = next((glob for glob, _ in reasons if fnmatch.fnmatchcase(name, glob)), None)
        if match is None:
            unexplained.append(f"{name}: {status}")
        else:
            equivalent += 1
            used.add(match)
    total = len(statuses)
    print(
        f"mutants: {total}, killed {killed}, equivalent {equivalent}, "
        f"unexplained {len(unexplained)}"
    )
    if total:
        print(
            f"score: {killed / total:.1%} killed, {(killed + equivalent) / total:.1%} accounted for"
        )
    for glob, _ in reasons:
        if glob not in used:
            print(f"note: no mutant matches {glob} any more (remove or update it)")
    for line in unexplained:
        print(f"UNEXPLAINED {line}   (see: mutmut show {line.split(':')[0]})")
    return 1 if unexplained or not total else 0


if __name__ == "__main__":
    sys.exit(main())
