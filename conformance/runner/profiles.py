"""Profiles: the features (tags of spec/tags.toml) a candidate claims to implement.

A case is claimed when none of its tags is unclaimed; an unclaimed case is reported as
"not claimed", never as a failure. Profiles are TOML files (`name`, `description`,
`unclaimed = [tags]`, optionally `hosts = [names]` (the hosts whose cases it claims; absent:
every host, HST-1) and `match_codes = true`: a rejection then passes only with the case's
expected `E-*` code); `spec-v2` (the default: everything), `spec-v1` (a spec 1.0 counter: not
the cases 2.0 changed) and `seed-rubric-2026-02` are bundled in `profiles/`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ...reference.core.userio import Refused, read_toml, shown
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
    # HST-1: the hosts whose cases are claimed; None claims every host.
    hosts: frozenset[str] | None = None

    def claims_host(self, host: str) -> bool:
        """Whether a case of `host` is claimed (a case of another host is `not-claimed`)."""
        return self.hosts is None or host in self.hosts

    def restricted(self, hosts: Iterable[str] | None) -> Profile:
        """This profile claiming only `hosts` too (None: no change); `--hosts` and presets."""
        if hosts is None:
            return self
        wanted = frozenset(hosts)
        return replace(self, hosts=wanted if self.hosts is None else self.hosts & wanted)

    def missing(self, case: Case) -> list[str]:
        """The tags of `case` this profile does not claim (empty: the case is claimed)."""
        return [tag for tag in case.tags if tag in self.unclaimed]


def bundled_names() -> list[str]:
    return sorted(path.stem for path in BUNDLED.glob("*.toml"))


def load_profile(spec: str | None, tags: list[str]) -> Profile:
    """A bundled profile by name or a TOML file by path; its tags must be in `tags` (if given)."""
    spec = spec or DEFAULT_PROFILE
    path = BUNDLED / f"{spec}.toml" if spec in bundled_names() else Path(spec)
    if not os.path.lexists(path):  # never raises (a name too long is then read's refusal)
        names = ", ".join(bundled_names())
        shown_spec = shown(repr(spec))
        raise ProfileError(f"profile {shown_spec}: no such file or bundled profile ({names})")
    try:  # a regular file, bounded (userio.py): a FIFO or /dev/zero is one line, not a hang
        data = read_toml(path, "profile")
    except Refused as refused:
        raise ProfileError(str(refused)) from None
    path = Path(shown(str(path)))  # every message below names it escaped
    unclaimed = data.get("unclaimed", [])
    if not isinstance(unclaimed, list) or not all(isinstance(t, str) for t in unclaimed):
        raise ProfileError(f"{path}: `unclaimed` must be a list of tags")
    unknown = sorted(set(unclaimed) - set(tags)) if tags else []
    if unknown:
        raise ProfileError(f"{path}: unknown tags (not in spec/tags.toml): {', '.join(unknown)}")
    hosts = data.get("hosts")
    if hosts is not None and (
        not isinstance(hosts, list) or not all(isinstance(h, str) for h in hosts)
    ):
        raise ProfileError(f"{path}: `hosts` must be a list of host names")
    match_codes = data.get("match_codes", False)
    if not isinstance(match_codes, bool):
        raise ProfileError(f"{path}: `match_codes` must be true or false")
    return Profile(
        match_codes=match_codes,
        name=str(data.get("name", path.stem)),
        description=str(data.get("description", "")),
        unclaimed=frozenset(unclaimed),
        hosts=None if hosts is None else frozenset(hosts),
    )


def claimed_profile(
    profile: Profile, hosts_option: str | None, candidate: object, known: list[str]
) -> Profile:
    """The profile narrowed to `--hosts` and to the hosts a preset declares (HST-1).

    `--hosts` is a comma-separated list of names of spec/hosts.toml; an unknown name is a
    ProfileError naming the known ones.
    """
    if hosts_option is not None:
        names = [name.strip() for name in hosts_option.split(",") if name.strip()]
        unknown = [name for name in names if known and name not in known]
        if unknown or not names:
            raise ProfileError(
                f"--hosts {hosts_option!r}: unknown host(s) {', '.join(unknown) or '(none)'};"
                f" known hosts: {', '.join(known)}"
            )
        profile = profile.restricted(names)
    declared = getattr(candidate, "hosts", None)
    return profile.restricted(declared) if declared is not None else profile
