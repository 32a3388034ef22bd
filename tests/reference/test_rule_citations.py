"""Every rule of a host's chapter is cited in that host's package (`grep -rn RULE reference/`).

Why: the README promises that a rule leads to its code; a rule no code names is either not
implemented or implemented where nobody will look.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOSTS = tomllib.loads((ROOT / "spec" / "hosts.toml").read_text("utf-8"))


@pytest.mark.parametrize("key", sorted(HOSTS))
def test_every_rule_of_the_chapter_is_cited_in_the_hosts_code(key: str) -> None:
    row = HOSTS[key]
    chapter = (ROOT / "spec" / row["chapter"]).read_text("utf-8")
    prefixes = "|".join(row["rule_prefixes"])
    rules = sorted(set(re.findall(rf"^#+ ((?:{prefixes})-\d+)\b", chapter, re.M)))
    assert rules, key
    # A family's member (HST-1 `family`) shares its owner's reader: a rule is cited in the
    # member's own package (its marks, its labels) or in its owner's (the shared rules).
    owner = HOSTS[row["family"]] if "family" in row else row
    packages = {ROOT / "reference" / "hosts" / h["module"] for h in (row, owner)}
    code = "".join(path.read_text("utf-8") for p in sorted(packages) for path in p.glob("*.py"))
    missing = [rule for rule in rules if not re.search(rf"{rule}(?!\d)", code)]
    assert not missing, f"{key}: rules no code cites: {missing}"
