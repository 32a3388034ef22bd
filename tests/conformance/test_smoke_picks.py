"""`smoke`: five easy cases, one per kind of answer, and a verdict that says what is wrong."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cf_runner import corpus, fake

from rebootspec.conformance.runner.corpus import load_corpus
from rebootspec.conformance.runner.smoke import choose

REPO_ROOT = Path(__file__).resolve().parents[2]  # the checkout


def test_one_case_per_kind(tmp_path: Path) -> None:
    root, _, ids = corpus(tmp_path)
    chosen = dict(choose(load_corpus(root)))
    picked = {label: case.id if case else None for label, case in chosen.items()}
    assert picked == {
        "plain snapshot count": ids["snapshot"],
        "push": ids["push"],
        "phantom": ids["phantom"],
        "rejection": ids["reject"],
        "legacy json": ids["legacy"],
        "codex rollout": None,  # this corpus has VS Code cases only: nothing to pick (HST-1)
        "pi session": None,
        "claude-code transcript": None,
        "gemini chat": None,
        "opencode store": None,
        "kilo store": None,
        "chat-loop chain": None,
        "copilot events.jsonl": None,
        "cline task folder": None,
        "roo code task folder": None,
        "kilo code task folder": None,
        "qwen-code transcript": None,
    }


def smoke(root: Path, snaps: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "rebootspec.conformance",
        "smoke",
        "--corpus",
        str(root),
        "--conformance-snapshots",
        str(snaps),
    ]
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, cwd=REPO_ROOT, check=False
    )


def test_reference_is_wired_right(tmp_path: Path) -> None:
    root, snaps, _ = corpus(tmp_path)
    result = smoke(root, snaps)
    assert result.returncode == 0
    assert "OK: the adapter is wired right (5 cases pass" in result.stdout


def test_wrong_answer_key_gets_a_hint(tmp_path: Path) -> None:
    root, snaps, _ = corpus(tmp_path)
    result = smoke(root, snaps, "--answer-key", "patch")
    assert result.returncode == 1
    assert "bad-output" in result.stdout and "--answer-key" in result.stdout


def test_a_hanging_candidate_is_reported(tmp_path: Path) -> None:
    root, snaps, _ = corpus(tmp_path, ["snapshot", "reject"])
    result = smoke(
        root,
        snaps,
        "--candidate",
        fake(tmp_path, {}, default={"do": "hang"}),
        "--case-timeout",
        "0.5",
    )
    assert result.returncode == 1 and "2 timeout" in result.stdout
    assert "no such case in the corpus" in result.stdout  # push, phantom, legacy are missing here


def test_an_export_or_a_changed_count_is_not_the_legacy_pick(tmp_path: Path) -> None:
    import cf_kit as kit

    root, _, ids = corpus(tmp_path, ["legacy"])
    _, _, data, expect = kit.SESSIONS["legacy"]
    kit.write_case(root, "EXP2", ["export"], "json", data, expect)
    kit.write_case(root, "CHG2", ["legacy-json", "count-changed-v2"], "json", data, expect)
    chosen = dict(choose(load_corpus(root)))
    legacy = chosen["legacy json"]
    assert legacy is not None and legacy.id == ids["legacy"]


def test_the_bundled_corpus_gives_one_easy_count_per_host() -> None:
    chosen = dict(choose(load_corpus(REPO_ROOT / "fixtures")))
    codex, pi = chosen["codex rollout"], chosen["pi session"]
    assert codex is not None and codex.host == "codex" and codex.expect["reboots"] > 0
    assert pi is not None and pi.host == "pi" and pi.expect["reboots"] > 0
    claude = chosen["claude-code transcript"]
    assert claude is not None and claude.host == "claude-code" and claude.expect["reboots"] > 0
    gemini = chosen["gemini chat"]
    assert gemini is not None and gemini.host == "gemini-cli" and gemini.expect["reboots"] > 0
    store, chain = chosen["opencode store"], chosen["chat-loop chain"]
    assert store is not None and store.host == "opencode" and store.session is not None
    assert chain is not None and chain.host == "basic-agent-chat-loop" and chain.input_root
    copilot = chosen["copilot events.jsonl"]
    assert copilot is not None and copilot.host == "copilot-cli" and copilot.expect["reboots"] > 0
    for label, key in (
        ("cline task folder", "cline"),
        ("roo code task folder", "roo-code"),
        ("kilo code task folder", "kilo-code"),
    ):
        case = chosen[label]
        assert case is not None and case.host == key and case.expect["reboots"] > 0

    qwen = chosen["qwen-code transcript"]
    assert qwen is not None and qwen.host == "qwen-code" and qwen.expect["reboots"] > 0
    # The VS Code picks stay VS Code cases: a counter of VS Code alone smoke-tests its adapter.
    hosts = (
        "codex rollout",
        "pi session",
        "claude-code transcript",
        "gemini chat",
        "opencode store",
        "kilo store",
        "chat-loop chain",
        "copilot events.jsonl",
        "cline task folder",
        "roo code task folder",
        "kilo code task folder",
        "qwen-code transcript",
    )
    others = [case for label, case in chosen.items() if label not in hosts]
    assert all(case is not None and case.host == "vscode" for case in others)
