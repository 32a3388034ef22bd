"""Bundled profiles: the default claims everything; spec-v1 leaves out what 2.0 changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from rebootspec.conformance.runner.corpus import Case, known_tags
from rebootspec.conformance.runner.profiles import (
    DEFAULT_PROFILE,
    ProfileError,
    bundled_names,
    claimed_profile,
    load_profile,
)
from rebootspec.conformance.runner.records import check_case


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
    assert profile.unclaimed == frozenset({"count-changed-v2", "near-miss"})
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


# HST-1: which hosts' cases a run claims --------------------------------------------------------

KNOWN_HOSTS = ["vscode", "codex", "pi"]


def host_case(host: str) -> Case:
    return Case(
        id="ABCD",
        title="t",
        rules=("CDX-3",),
        tags=(),
        era="C4",
        container="jsonl",
        input=Path("session.jsonl"),
        expect={"outcome": "count", "reboots": 1},
        host=host,
    )


class VsCodeOnlyTool:
    hosts = ("vscode",)  # what the qhoami and seed-script presets declare


def test_the_default_profile_claims_every_host() -> None:
    profile = claimed_profile(load_profile(None, known_tags()), None, object(), KNOWN_HOSTS)
    assert all(profile.claims_host(h) for h in KNOWN_HOSTS)


def test_hosts_option_leaves_other_hosts_not_claimed() -> None:
    base = load_profile(None, known_tags())
    profile = claimed_profile(base, "vscode, codex", object(), KNOWN_HOSTS)
    assert [h for h in KNOWN_HOSTS if profile.claims_host(h)] == ["vscode", "codex"]


def test_a_preset_that_counts_vscode_only_never_fails_a_codex_case(tmp_path: Path) -> None:
    profile = claimed_profile(load_profile(None, known_tags()), None, VsCodeOnlyTool(), KNOWN_HOSTS)
    record = check_case(
        host_case("codex"),
        candidate=VsCodeOnlyTool(),  # type: ignore[arg-type]  # never run: not claimed
        reader=None,  # type: ignore[arg-type]
        expected={"outcome": "count", "reboots": 1},
        profile=profile,
        divergence=None,
        timeout=1.0,
    )
    assert (str(record.outcome), str(record.gate), record.host) == (
        "not-claimed",
        "not-claimed",
        "codex",
    )


def test_spec_v1_claims_vscode_only() -> None:
    profile = load_profile("spec-v1", known_tags())
    assert profile.claims_host("vscode") and not profile.claims_host("pi")


def test_an_unknown_host_name_is_a_one_line_error() -> None:
    wanted = r"unknown host.*copilot.*known hosts: vscode, codex, pi"
    with pytest.raises(ProfileError, match=wanted):
        claimed_profile(load_profile(None, known_tags()), "copilot", object(), KNOWN_HOSTS)
