"""The basic-agent-chat-loop writer model and its plans (BCL-1..BCL-6).

The folders the model writes are read here with a small reading of its own (not the reference):
which file names which previous session in its header. The plan's answer (`expected`) is
checked on plans whose count a person can see at a glance.
"""

from __future__ import annotations

import re

import pytest

from rebootspec.generators.hosts.chat_loop.plan import (
    ChatAsk,
    ChatCompact,
    ChatDelete,
    ChatExit,
    ChatPlan,
    ChatRelink,
    ChatResume,
    ChatStart,
    expected,
)
from rebootspec.generators.hosts.chat_loop.scenarios import SCENARIOS
from rebootspec.generators.hosts.chat_loop.writer import END_MARK, START_MARK, play
from rebootspec.generators.hosts.scenario import Scenario

PARENT = re.compile(rb"^\*\*Resumed From:\*\* (.+?)\r?$", re.M)
ID_LINE = re.compile(rb"^\*\*Session ID:\*\* (.+?)\r?$", re.M)


def chain(*steps: object, ask: str, windows: bool = False) -> ChatPlan:
    return ChatPlan(era="M1", steps=tuple(steps), ask=ask, windows=windows)  # type: ignore[arg-type]


COMPACTS = (ChatStart("a"), ChatAsk(), ChatCompact("b"), ChatAsk(), ChatCompact("c"), ChatExit())


def parents(files: dict[str, bytes]) -> dict[str, str | None]:
    """file name -> the session id its header names as previous (a reading of our own)."""
    found = {}
    for name, data in files.items():
        match = PARENT.search(data.split(b"\n---", 1)[0])
        found[name] = match[1].decode() if match else None
    return found


def test_the_plan_counts_restorations() -> None:
    assert expected(chain(*COMPACTS, ask="c")) == ("count", 2)
    assert expected(chain(*COMPACTS, ask="b")) == ("count", 1)
    assert expected(chain(*COMPACTS, ask="a")) == ("count", 0)
    resumed = chain(*COMPACTS, ChatStart("d", resume="b"), ChatExit(), ask="d")
    assert expected(resumed) == ("count", 2)  # a -> b, then b resumed: a fork of the chain


def test_the_plan_rejects_what_cannot_be_walked() -> None:
    assert expected(chain(*COMPACTS, ChatDelete("a"), ask="c")) == ("reject", "E-CHAIN")
    assert expected(chain(*COMPACTS, ChatRelink("b", "c"), ask="c")) == ("reject", "E-CHAIN")
    same = chain(
        ChatStart("a"), ChatAsk(), ChatCompact("b"), ChatCompact("c", same_second=True), ask="c"
    )
    assert expected(same) == ("reject", "E-CHAIN")


def test_each_restoration_writes_a_new_file_naming_the_old() -> None:
    folder = play(chain(*COMPACTS, ask="c"))
    files = folder.output()
    named = parents(files)
    assert sorted(named.values(), key=str) == sorted(
        [None, folder.labels["a"], folder.labels["b"]], key=str
    )
    for name, data in files.items():
        assert ID_LINE.search(data)[1].decode() + ".md" == name  # type: ignore[index]


def test_the_writer_writes_the_section_right_after_the_header() -> None:
    files = play(chain(*COMPACTS, ask="c")).output()
    restored = [d for n, d in files.items() if parents(files)[n] is not None]
    assert len(restored) == 2
    for data in restored:
        body = data.split(b"\n---\n", 1)[1]
        assert body.startswith(b"\n## Session Restored (")


def test_a_failed_compact_writes_no_new_file() -> None:
    plan = chain(ChatStart("a"), ChatAsk(), ChatCompact(done=False), ChatAsk(), ChatExit(), ask="a")
    files = play(plan).output()
    assert len(files) == 1 and parents(files) == {next(iter(files)): None}


def test_two_compacts_in_one_second_share_a_file_that_names_itself() -> None:
    plan = chain(
        ChatStart("a"),
        ChatAsk(),
        ChatCompact("b"),
        ChatCompact("c", same_second=True),
        ChatExit(),
        ask="c",
    )
    folder = play(plan)
    files = folder.output()
    assert folder.labels["b"] == folder.labels["c"]
    assert parents(files)[f"{folder.labels['c']}.md"] == folder.labels["c"]


def test_windows_files_are_crlf_throughout() -> None:
    files = play(chain(*COMPACTS, ask="c", windows=True)).output()
    for data in files.values():
        assert data.count(b"\n") == data.count(b"\r\n") > 0
        assert b"C:\\Users\\" in data


def test_exit_and_compact_append_one_summary() -> None:
    files = play(chain(ChatStart("a"), ChatAsk(), ChatExit(), ask="a")).output()
    (data,) = files.values()
    assert data.count(START_MARK.encode()) == data.count(END_MARK.encode()) == 1
    assert data.rstrip().endswith(END_MARK.encode())


def test_a_resume_needs_a_summary_in_the_resumed_file() -> None:
    plan = chain(ChatStart("a"), ChatAsk(), ChatStart("b"), ChatResume("a", "c"), ask="c")
    with pytest.raises(AssertionError):
        play(plan)  # a never exited: its file has no summary, the host would refuse


def test_the_model_is_deterministic() -> None:
    plan = chain(*COMPACTS, ChatStart("d", resume="c"), ChatAsk(), ChatExit(), ask="d")
    assert play(plan).output() == play(plan).output()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_every_scenario_plays_and_names_its_file(scenario: Scenario[ChatPlan]) -> None:
    assert scenario.host == "basic-agent-chat-loop" and scenario.plan is not None
    for era in scenario.eras:
        plan = scenario.plan(era)
        folder = play(plan)
        assert folder.name_of(plan.ask) in folder.output()
