"""The named scenarios of the basic-agent-chat-loop corpus cases (spec/hosts/basic-agent-chat-
loop.md).

A scenario is a plan per era plus what the case cites: its rules and tags. The expected answer
comes from the plan (`plan.py`) or, for a file the spec rejects, from what the plan put in it (a
broken chain, a file of no session). Each (scenario, era) pair is one case; its ID is chosen
once and kept in `corpus/case_ids.toml`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..scenario import Scenario
from .plan import (
    ChatAsk,
    ChatCompact,
    ChatDamage,
    ChatDelete,
    ChatExit,
    ChatExtra,
    ChatPlan,
    ChatRelink,
    ChatResume,
    ChatStart,
)

CHAT_LOOP = "basic-agent-chat-loop"
BASE_RULES = ("HST-1", "HST-2", "RBT-1", "BCL-1", "BCL-2", "BCL-3", "BCL-4", "OUT-4")


def _chat(*steps: Any, ask: str, **options: Any) -> Callable[[str], ChatPlan]:
    return lambda era: ChatPlan(era=era, steps=tuple(steps), ask=ask, **options)


LONG_HEADER = b"# Helper Conversation\n" + b"\n" * 70 + b"**Date:** x\n**Agent:** Helper\n---\n"


NOTES_MD = b"# Project notes\n\n- try #compact when the answers slow down\n- **Resumed From:** x\n"


def _chat_chain(*extra: Any, ask: str, **options: Any) -> Callable[[str], ChatPlan]:
    """a -> b -> c by #compact, then d resumed from c in a new loop: three restorations."""
    return _chat(
        ChatStart("a"),
        ChatAsk(),
        ChatAsk(),
        ChatCompact("b"),
        ChatAsk(),
        ChatCompact("c"),
        ChatAsk(),
        ChatExit(),
        ChatStart("d", resume="c"),
        ChatAsk(),
        ChatExit(),
        *extra,
        ask=ask,
        **options,
    )


SCENARIOS: tuple[Scenario[ChatPlan], ...] = (
    # -- basic-agent-chat-loop ---------------------------------------------------------------
    Scenario(
        "chatloop-fresh",
        CHAT_LOOP,
        ("M1",),
        "a session never compacted nor resumed, saved on exit with its summary; none",
        ("BCL-5",),
        ("chatloop-fresh",),
        _chat(ChatStart("a"), ChatAsk(), ChatAsk(), ChatExit(), ask="a"),
        comment="The summary markers at the end are written on every exit (BCL-5).",
    ),
    Scenario(
        "chatloop-one-compact",
        CHAT_LOOP,
        ("M1",),
        "one #compact: the new session's file names the old one; one reboot",
        ("BCL-5", "BCL-8"),
        ("chatloop-compact", "chatloop-fresh"),
        _chat(
            ChatStart("a"), ChatAsk(), ChatAsk(), ChatCompact("b"), ChatAsk(), ChatExit(), ask="b"
        ),
    ),
    Scenario(
        "chatloop-compact-parent",
        CHAT_LOOP,
        ("M1",),
        "the session that was compacted, asked about itself: its child is not its history; none",
        ("BCL-5",),
        ("chatloop-fresh", "chatloop-middle"),
        _chat(
            ChatStart("a"), ChatAsk(), ChatAsk(), ChatCompact("b"), ChatAsk(), ChatExit(), ask="a"
        ),
        comment="a.md holds the summary #compact wrote (BCL-5); b.md names it (BCL-4).",
    ),
    Scenario(
        "chatloop-resume",
        CHAT_LOOP,
        ("M1",),
        "a session resumed with --resume in a new loop; one reboot",
        (),
        ("chatloop-resume",),
        _chat(
            ChatStart("a"),
            ChatAsk(),
            ChatExit(),
            ChatStart("b", resume="a"),
            ChatAsk(),
            ChatExit(),
            ask="b",
        ),
    ),
    Scenario(
        "chatloop-resume-in-loop",
        CHAT_LOOP,
        ("M1",),
        "#resume of an earlier session inside a running loop; one reboot",
        ("BCL-4", "BCL-8"),
        ("chatloop-resume", "chatloop-other-sessions"),
        _chat(
            ChatStart("a"),
            ChatAsk(),
            ChatExit(),
            ChatStart("b"),
            ChatAsk(),
            ChatResume("a", "c"),
            ChatAsk(),
            ChatExit(),
            ask="c",
        ),
        comment="b.md, the session running when the user typed #resume, stays as it was: 0.",
    ),
    Scenario(
        "chatloop-chain",
        CHAT_LOOP,
        ("M1",),
        "two #compact then a --resume in a new loop: a chain of three restorations; three reboots",
        ("BCL-4",),
        ("chatloop-chain", "chatloop-compact", "chatloop-resume"),
        _chat_chain(ask="d"),
    ),
    Scenario(
        "chatloop-chain-middle",
        CHAT_LOOP,
        ("M1",),
        "the second file of a chain of four, asked about: one reboot",
        ("BCL-4",),
        ("chatloop-middle", "chatloop-compact"),
        _chat_chain(ask="b"),
    ),
    Scenario(
        "chatloop-chain-crlf",
        CHAT_LOOP,
        ("M1",),
        "a chain written on Windows (CRLF line ends, Windows paths); three reboots",
        ("BCL-4",),
        ("chatloop-crlf", "chatloop-chain"),
        _chat_chain(ask="d", windows=True),
    ),
    Scenario(
        "chatloop-other-sessions",
        CHAT_LOOP,
        ("M1",),
        "a folder of two chains, a fresh session and notes; the asked chain's two reboots",
        ("BCL-4",),
        ("chatloop-other-sessions", "chatloop-chain", "chatloop-resume"),
        _chat(
            ChatStart("x"),
            ChatAsk(),
            ChatCompact("y"),
            ChatAsk(),
            ChatExit(),
            ChatStart("a"),
            ChatAsk(),
            ChatCompact("b"),
            ChatAsk(),
            ChatExit(),
            ChatStart("f"),
            ChatAsk(),
            ChatExit(),
            ChatStart("c", resume="b"),
            ChatAsk(),
            ChatExit(),
            ChatStart("z", resume="y"),
            ChatAsk(),
            ChatCompact("w"),
            ChatExit(),
            ChatExtra("notes.md", NOTES_MD),
            ask="c",
        ),
    ),
    Scenario(
        "chatloop-quoted",
        CHAT_LOOP,
        ("M1",),
        "a fresh session whose user pasted a Resumed From line, a restored section and "
        "summary markers; none",
        ("BCL-5",),
        ("chatloop-quoted", "chatloop-fresh"),
        _chat(ChatStart("a"), ChatAsk(), ChatAsk("restored"), ChatExit(), ask="a"),
    ),
    Scenario(
        "chatloop-quoted-compact",
        CHAT_LOOP,
        ("M1",),
        "a #compact of a session whose user pasted summary markers: the host cuts the pasted "
        "summary and restores all the same; one reboot",
        ("BCL-5",),
        ("chatloop-quoted", "chatloop-compact"),
        _chat(
            ChatStart("a"),
            ChatAsk("restored"),
            ChatCompact("b"),
            ChatAsk("restored"),
            ChatExit(),
            ask="b",
        ),
        comment="The first start marker and the first end marker of a.md are the pasted ones.",
    ),
    Scenario(
        "chatloop-failed-compact",
        CHAT_LOOP,
        ("M1",),
        "a #compact whose summary failed and one whose restoration prompt failed: the loop goes "
        "on in the same file; none",
        ("BCL-5",),
        ("chatloop-failed-compact", "chatloop-fresh"),
        _chat(
            ChatStart("a"),
            ChatAsk(),
            ChatCompact(done=False, fails="summary"),
            ChatAsk(),
            ChatCompact(done=False, fails="restore"),
            ChatAsk(),
            ChatExit(),
            ask="a",
        ),
    ),
    Scenario(
        "chatloop-failed-extract",
        CHAT_LOOP,
        ("M1",),
        "a #compact whose summary could not be cut out (a pasted end marker comes first), then "
        "no further save; none",
        ("BCL-5",),
        ("chatloop-failed-compact", "chatloop-quoted"),
        _chat(
            ChatStart("a"),
            ChatAsk("end-marker"),
            ChatCompact(done=False, fails="extract"),
            ask="a",
        ),
        comment="The file ends with the summary #compact saved; the session was never restored.",
    ),
    Scenario(
        "chatloop-m0",
        CHAT_LOOP,
        ("M0",),
        "a session file of the chat loop before 1.6.0, which could not compact; none",
        ("BCL-2",),
        ("chatloop-m0",),
        _chat(ChatStart("a"), ask="a"),
    ),
    Scenario(
        "chatloop-missing-link",
        CHAT_LOOP,
        ("M1",),
        "the first session of a chain was deleted: the chain cannot be walked; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "chatloop-chain", "rejection"),
        _chat_chain(ChatDelete("a"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-cycle",
        CHAT_LOOP,
        ("M1",),
        "an edit makes two restored sessions name each other: a cycle; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-cycle", "rejection"),
        _chat_chain(ChatRelink("b", "c"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-same-second",
        CHAT_LOOP,
        ("M1",),
        "two #compact within one second: the second session's file overwrote the first and "
        "names itself; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-same-second", "chatloop-cycle", "rejection"),
        _chat(
            ChatStart("a"),
            ChatAsk(),
            ChatCompact("b"),
            ChatCompact("c", same_second=True),
            ChatAsk(),
            ChatExit(),
            ask="c",
        ),
    ),
    Scenario(
        "chatloop-parent-outside",
        CHAT_LOOP,
        ("M1",),
        "a restored session whose parent id leads out of its folder; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("d", "outside"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-parent-nul",
        CHAT_LOOP,
        ("M1",),
        "a restored session whose parent id holds a NUL byte (a damaged disk block); rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("d", "nul"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-section-disagrees",
        CHAT_LOOP,
        ("M1",),
        "a restored session whose section names another session than its header; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("c", "disagree"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-parent-other-id",
        CHAT_LOOP,
        ("M1",),
        "the previous session's file holds another session id; rejected",
        ("BCL-6", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("b", "other-id"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-parent-not-session",
        CHAT_LOOP,
        ("M1",),
        "the previous session's file lost its title line; rejected",
        ("BCL-6", "BCL-1", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("c", "not-session"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-parent-empty",
        CHAT_LOOP,
        ("M1",),
        "the previous session's file was cut to nothing (a full disk); rejected",
        ("BCL-6", "BCL-1", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("c", "empty"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-parent-bom",
        CHAT_LOOP,
        ("M1",),
        "the previous session's file saved again by an editor with a byte order mark first; "
        "three reboots",
        ("BCL-1",),
        ("chatloop-chain",),
        _chat_chain(ChatDamage("c", "bom"), ask="d"),
        comment="The mark is skipped before the title line is read (BCL-1).",
    ),
    Scenario(
        "chatloop-cut-after-header",
        CHAT_LOOP,
        ("M1",),
        "a session file that ends right after its header's '---' line (a save cut short); none",
        ("BCL-3",),
        ("chatloop-fresh",),
        _chat(ChatStart("a"), ChatAsk(), ChatExit(), ChatDamage("a", "cut"), ask="a"),
        comment="No first section: a session that was not restored (BCL-3).",
    ),
    Scenario(
        "chatloop-parent-no-agent",
        CHAT_LOOP,
        ("M1",),
        "the previous session's file lost its Agent line; rejected",
        ("BCL-6", "BCL-1", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("c", "no-agent"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-parent-retitled",
        CHAT_LOOP,
        ("M1",),
        "the previous session's title line no longer ends with Conversation; rejected",
        ("BCL-6", "BCL-1", "ERR-16", "ERR-10"),
        ("chatloop-broken-chain", "rejection"),
        _chat_chain(ChatDamage("c", "retitled"), ask="d"),
        reject="E-CHAIN",
    ),
    Scenario(
        "chatloop-parent-header-64",
        CHAT_LOOP,
        ("M1",),
        "the previous session's header ends on its line 64, the last allowed; three reboots",
        ("BCL-1", "BCL-7"),
        ("chatloop-chain",),
        _chat_chain(ChatDamage("c", "header-64"), ask="d"),
    ),
    Scenario(
        "chatloop-parent-bare-path",
        CHAT_LOOP,
        ("M1",),
        "the previous session path in a restored section is a bare file name; three reboots",
        ("BCL-3",),
        ("chatloop-chain",),
        _chat_chain(ChatDamage("c", "bare-path"), ask="d"),
    ),
    Scenario(
        "chatloop-notes",
        CHAT_LOOP,
        ("M1",),
        "a markdown file of notes beside the sessions, asked about: no session; rejected",
        ("BCL-1", "HST-4", "ERR-13", "ERR-10"),
        ("chatloop-not-session", "rejection"),
        _chat(
            ChatStart("a"), ChatAsk(), ChatExit(), ChatExtra("notes.md", NOTES_MD), ask="notes.md"
        ),
        reject="E-HOST",
    ),
    Scenario(
        "chatloop-long-paste",
        CHAT_LOOP,
        ("M1",),
        "a restored session into which the user pasted a 150 KiB log; one reboot",
        ("BCL-7",),
        ("chatloop-compact",),
        _chat(ChatStart("a"), ChatAsk(), ChatCompact("b"), ChatAsk("long"), ChatExit(), ask="b"),
        comment="Only the header and the first section are read (BCL-7).",
    ),
    Scenario(
        "chatloop-long-header",
        CHAT_LOOP,
        ("M1",),
        "a markdown file whose '---' comes after its first 64 lines: no session; rejected",
        ("BCL-1", "BCL-7", "HST-4", "ERR-13", "ERR-10"),
        ("chatloop-not-session", "rejection"),
        _chat(ChatExtra("long.md", LONG_HEADER), ask="long.md"),
        reject="E-HOST",
    ),
    Scenario(
        "chatloop-empty",
        CHAT_LOOP,
        ("M1",),
        "an empty .md file: rejected",
        ("BCL-1", "ERR-1", "ERR-10"),
        ("chatloop-not-session", "rejection"),
        _chat(ChatExtra("empty.md", b""), ask="empty.md"),
        reject="E-EMPTY",
    ),
)
