"""Bundled profiles: the default claims everything; spec-v1 leaves out what 2.0 changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from rebootspec.conformance.runner.corpus import Case, known_tags
from rebootspec.conformance.runner.profiles import (
    DEFAULT_PROFILE,
    ProfileError,
    bundled_names,
    load_profile,
)


def case(*tags: str) -> Case:
    return Case(
        id="ABCD",
        title="t",
        rules=("CNT-2",),
        tags=tags,
        era="compacted",
        container="jsonl",
        input=Path("session.jsonl"),
        expect={"outcome": "count", "reboots": 1},
    )


def test_bundled_profiles() -> None:
    assert {"spec-v2", "spec-v1", "seed-rubric-2026-02"} <= set(bundled_names())


def test_the_default_is_spec_v2_and_claims_every_tag() -> None:
    assert DEFAULT_PROFILE == "spec-v2"
    profile = load_profile(None, known_tags())
    assert profile.name == "spec-v2"
    assert profile.unclaimed == frozenset()
    assert profile.missing(case(*known_tags())) == []


def test_spec_v1_leaves_out_the_cases_2_0_changed() -> None:
    profile = load_profile("spec-v1", known_tags())
    assert profile.unclaimed == frozenset({"count-changed-v2"})
    assert profile.missing(case("summary-without-marker", "count-changed-v2")) == [
        "count-changed-v2"
    ]
    assert profile.missing(case("summary-without-marker", "rejection", "export")) == []


def test_the_seed_rubric_leaves_out_the_cases_2_0_changed() -> None:
    profile = load_profile("seed-rubric-2026-02", known_tags())
    assert "count-changed-v2" in profile.unclaimed


@pytest.mark.parametrize("name", ["spec-v2", "spec-v1", "seed-rubric-2026-02"])
def test_bundled_profiles_name_only_known_tags(name: str) -> None:
    load_profile(name, known_tags())  # raises ProfileError on a tag not in spec/tags.toml


def test_an_unknown_profile_names_the_bundled_ones() -> None:
    with pytest.raises(ProfileError, match="spec-v2"):
        load_profile("no-such-profile", known_tags())


def test_match_codes_is_off_by_default_and_read_from_the_profile(tmp_path: Path) -> None:
    assert not load_profile(None, known_tags()).match_codes
    strict = tmp_path / "strict.toml"
    strict.write_text('name = "strict"\nmatch_codes = true\n', encoding="utf-8")
    assert load_profile(str(strict), known_tags()).match_codes
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('name = "wrong"\nmatch_codes = "yes"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match="match_codes"):
        load_profile(str(wrong), known_tags())
