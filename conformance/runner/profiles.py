"""Profiles: the features (tags of spec/tags.toml) a candidate claims to implement.

A case is claimed when none of its tags is unclaimed; an unclaimed case is reported as
"not claimed", never as a failure. Profiles are TOML files (`name`, `description`,
`unclaimed = [tags]`, and optionally `match_codes = true`: a rejection then passes only with the
case's expected `E-*` code); `spec-v2` (the default: everything), `spec-v1` (a spec 1.0 counter: not
the cases 2.0 changed) and `seed-rubric-2026-02` are bundled in `profiles/`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .. import PACKAGE_DIR
from .corpus import Case

BUNDLED = PACKAGE_DIR / "profiles"
DEFAULT_PROFILE = "spec-v2"


class ProfileError(Exception):
    """A profile that cannot be used (one line)."""


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    unclaimed: frozenset[str]
    # PRO-4: a rejection must carry the case's expected E-* code (else it is a `fail`).
    match_codes: bool = False

    def missing(self, case: Case) -> list[str]:
        """The tags of `case` this profile does not claim (empty: the case is claimed)."""
        return [tag for tag in case.tags if tag in self.unclaimed]


def bundled_names() -> list[str]:
    return sorted(path.stem for path in BUNDLED.glob("*.toml"))


def load_profile(spec: str | None, tags: list[str]) -> Profile:
    """A bundled profile by name or a TOML file by path; its tags must be in `tags` (if given)."""
    spec = spec or DEFAULT_PROFILE
    path = BUNDLED / f"{spec}.toml" if spec in bundled_names() else Path(spec)
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError:
        names = ", ".join(bundled_names())
        raise ProfileError(f"profile {spec!r}: no such file or bundled profile ({names})") from None
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{path}: not TOML: {error}") from None
    unclaimed = data.get("unclaimed", [])
    if not isinstance(unclaimed, list) or not all(isinstance(t, str) for t in unclaimed):
        raise ProfileError(f"{path}: `unclaimed` must be a list of tags")
    unknown = sorted(set(unclaimed) - set(tags)) if tags else []
    if unknown:
        raise ProfileError(f"{path}: unknown tags (not in spec/tags.toml): {', '.join(unknown)}")
    match_codes = data.get("match_codes", False)
    if not isinstance(match_codes, bool):
        raise ProfileError(f"{path}: `match_codes` must be true or false")
    return Profile(
        match_codes=match_codes,
        name=str(data.get("name", path.stem)),
        description=str(data.get("description", "")),
        unclaimed=frozenset(unclaimed),
    )
