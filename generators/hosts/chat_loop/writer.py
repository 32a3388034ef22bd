"""A model of basic-agent-chat-loop's session writer, per era, and the plans it plays
(spec/hosts/basic-agent-chat-loop.md, BCL-1..BCL-8).

Restated from the package's released sources: `SessionPersister.save_conversation` and
`handle_compact_command`, `SessionRestorer.restore_session`, `_build_restoration_prompt`,
`_initialize_restored_session` and `_extract_summary_from_markdown` (1.7.3-1.10.0; the same code
in `chat_loop.py` from 1.6.0), the per-answer entry of `ResponseStreamer`, and, for `M0` (before
1.6.0), `SessionManager._save_markdown`.

- `M1` (1.6.0-1.10.0): a file `<id>.md` in `<cwd>/.chat-sessions`, rewritten whole on every
  save: after each answer (no summary) and on exit and `#compact` (with the agent's summary
  between the two markers appended). A restoration (`#compact`, `--resume`, `#resume N`) starts
  a new session whose header says `**Resumed From:**` and whose conversation starts with the
  `## Session Restored` section. The id is the agent's name and the local time to the second.
- `M0` (before 1.6.0): `~/agent-conversations/<id>.md` written on exit, no compaction.

The expected answer comes from the plan alone (`expected`): which steps restored which session,
which files the plan deleted or damaged. The writer never decides it; it only checks that the
plan is one the host could play (a resume needs a summary in the file it resumes).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from ..common import words
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

__all__ = ["ChatFolder", "play"]

START_M1 = datetime(2026, 3, 2, 9, 0, 0)
START_M0 = datetime(2025, 12, 20, 9, 0, 0)
PROJECT = "/home/dev/project"
WINDOWS_PROJECT = "C:\\Users\\dev\\project"
START_MARK = "<!-- SESSION_SUMMARY_START -->"
END_MARK = "<!-- SESSION_SUMMARY_END -->"
FAKE_PARENT = "helper_20200101_000000"
# ERR-16, BCL-6: an M1 header is six lines each followed by a blank line, then
# `**Resumed From:**`: line 13 of a restored file, where its chain starts.
RESUMED_FROM_LINE = 13
QUOTES = {
    # A user pastes a restored session's header line, its section and a summary into a query.
    "restored": (
        "why does my other file say this?\n"
        f"**Resumed From:** {FAKE_PARENT}\n"
        "## Session Restored (08:00:00)\n"
        f"**Context:** Resumed from {FAKE_PARENT} (3 queries, 1.2K)\n"
        f"**Previous Session:** /home/dev/old/.chat-sessions/{FAKE_PARENT}.md\n"
        f"{START_MARK}\nan old summary\n{END_MARK}"
    ),
    # Only the end marker: the host's cut (first start .. first end) then comes out empty.
    "end-marker": f"what does {END_MARK} mean in my notes?",
    # A pasted build log of about 150 KiB: the file outgrows what a reader needs of it (BCL-7).
    "long": "here is the build log:\n"
    + "\n".join(
        f"[{n:05d}] compiling module_{n % 97}.py ... ok (0.{n % 10}s)" for n in range(3600)
    ),
}


# -- the writer ----------------------------------------------------------------------------


def format_tokens(tokens: int) -> str:
    """The host's token display: 950, 12.3K, 1.2M."""
    if tokens >= 1_000_000:
        return f"{tokens / 1_000_000:.1f}M"
    if tokens >= 1_000:
        return f"{tokens / 1_000:.1f}K"
    return str(tokens)


def cut_summary(text: str) -> str:
    """`_extract_summary_from_markdown`: first start marker .. first end marker, stripped."""
    if START_MARK not in text or END_MARK not in text:
        return ""
    begin = text.index(START_MARK) + len(START_MARK)
    return text[begin : text.index(END_MARK)].strip()


class Loop:
    """One running chat loop: its session and what it will write."""

    def __init__(self, folder: ChatFolder, label: str, agent: str) -> None:
        self.folder = folder
        self.agent = agent
        self.safe = agent.lower().replace(" ", "_").replace("/", "_")
        self.label = label
        self.id = self.mint()
        self.resumed_from: str | None = None
        self.previous_summary: str | None = None
        self.markdown: list[str] = []
        self.queries = 0
        self.tokens_in = 0
        self.tokens_out = 0

    def mint(self) -> str:
        return f"{self.safe}_{self.folder.now.strftime('%Y%m%d_%H%M%S')}"

    def ask(self, quote: str | None) -> None:
        folder = self.folder
        folder.wait(20.0)
        self.queries += 1
        query = QUOTES[quote] if quote else words(folder.rng, 9)
        answer = words(folder.rng, 14)
        used_in, used_out = folder.rng.randint(900, 4000), folder.rng.randint(40, 400)
        self.tokens_in += used_in
        self.tokens_out += used_out
        total = used_in + used_out
        self.markdown += [
            f"\n## Query {self.queries} ({folder.now.strftime('%H:%M:%S')})\n",
            f"**You:** {query}\n\n",
            f"**{self.agent}:** {answer}\n\n",
            f"*Time: {folder.rng.uniform(0.5, 9):.1f}s | Tokens: {total:,} "
            f"(in: {used_in:,}, out: {used_out:,})*\n\n",
            "---\n",
        ]
        self.save(summary=False)

    def summary(self) -> str:
        background = (
            "Initial session." if self.previous_summary is None else words(self.folder.rng, 12)
        )
        return (
            f"{START_MARK}\n**Background Context:** {background}\n\n"
            f"**Current Session Summary:**\n**Topics Discussed:**\n- {words(self.folder.rng, 8)}"
            f"\n\n**Decisions Made:**\n- {words(self.folder.rng, 6)}\n\n**Pending:**\n- "
            f"{words(self.folder.rng, 5)}\n{END_MARK}"
        )

    def save(self, summary: bool) -> None:
        """`save_conversation`: the whole file again; nothing when the session is empty."""
        if not self.markdown:
            return
        header = [
            f"# {self.agent} Conversation\n\n",
            f"**Session ID:** {self.id}\n\n",
            f"**Date:** {self.folder.now.isoformat()}\n\n",
            f"**Agent:** {self.agent}\n\n",
            f"**Agent Path:** {self.folder.path('agent.py', sessions=False)}\n\n",
            f"**Total Queries:** {self.queries}\n\n",
        ]
        if self.resumed_from:
            header.append(f"**Resumed From:** {self.resumed_from}\n\n")
        header.append("---\n")
        body = header + self.markdown
        if summary:
            body += ["\n", self.summary(), "\n"]
        self.folder.write(self.id, self.label, "".join(body))
        self.folder.index[self.id] = self.tokens_in + self.tokens_out

    def compact(self, step: ChatCompact) -> None:
        """`handle_compact_command`."""
        folder = self.folder
        if not step.same_second:
            folder.wait(5.0)
        folder.tick(0.2)  # the summary
        saved = step.done or step.fails in ("restore", "extract")
        self.save(summary=saved)
        summary = cut_summary(folder.text(self.id)) if saved else ""
        if not summary:
            assert not step.done and step.fails != "restore", "the plan's compaction has no summary"
            return  # "cannot compact": same session, same file
        if not step.done:
            return  # the restoration prompt raised: the session goes on
        old_tokens = self.tokens_in + self.tokens_out
        self.restore(self.id, self.queries, old_tokens, summary, None, step.label)
        if step.same_second:
            assert self.id == self.resumed_from, "a same-second compaction took a new second"
        else:
            assert self.id != self.resumed_from

    def resume(self, parent_id: str, label: str) -> None:
        """`restore_session`: the parent's file must exist and hold a summary."""
        folder = self.folder
        folder.wait(3.0)
        text = folder.text(parent_id)
        summary = cut_summary(text)
        assert summary, f"the plan resumes {parent_id}, which has no summary"
        queries = int(text.split("**Total Queries:** ", 1)[1].split("\n", 1)[0])
        grand = None
        if "**Resumed From:** " in text:
            grand = text.split("**Resumed From:** ", 1)[1].split("\n", 1)[0].strip()
        tokens = folder.index.get(parent_id, 0)
        self.restore(parent_id, queries, tokens, summary, grand, label)

    def restore(
        self,
        old: str,
        queries: int,
        tokens: int,
        summary: str,
        grand: str | None,
        label: str,
    ) -> None:
        """`_build_restoration_prompt`, the agent's answer, `_initialize_restored_session`."""
        folder = self.folder
        saved_file = folder.path(f"{old}.md")
        prompt = (
            f"CONTEXT RESTORATION: You are continuing a previous conversation from {old}.\n\n"
            f"Previous session summary (Session ID: {old}, {queries} queries, "
            f"{format_tokens(tokens)}):\n\n"
            + (f"This session was resumed from: {grand}\n\n" if grand else "")
            + f"Previous session file: {saved_file}\n\n{summary}\n\nTask: Review the above and "
            "provide a brief acknowledgment (2-6 sentences or bullets) that includes:\n1. Main "
            "topics discussed\n2. Key decisions made\n3. Confirmation you're ready to continue"
            "\n\nKeep your response concise."
        )
        ack = f"Context restored: {words(folder.rng, 10)}. Ready to continue."
        duration = 0.2
        folder.tick(duration)
        tokens_in = len(prompt.split()) * 1.3
        tokens_out = len(ack.split()) * 1.3
        self.id = self.mint()
        self.label = label
        self.resumed_from = old
        self.previous_summary = summary
        self.markdown = [
            f"\n## Session Restored ({folder.now.strftime('%H:%M:%S')})\n",
            f"**Context:** Resumed from {old} ({queries} queries, {format_tokens(tokens)})\n",
            f"**Previous Session:** {saved_file}\n\n",
            f"**{self.agent}:** {ack}\n\n",
            f"*Time: {duration:.1f}s | ",
            f"Tokens: {int(tokens_in + tokens_out)} ",
            f"(in: {int(tokens_in)}, out: {int(tokens_out)})*\n\n",
            "---\n",
        ]
        self.queries = 0
        self.tokens_in = self.tokens_out = 0


class ChatFolder:
    """The session folder: files by name, the host's index of tokens, the clock, the RNG."""

    def __init__(self, plan: ChatPlan) -> None:
        self.plan = plan
        self.rng = random.Random(f"chat-loop/{plan.era}/{plan.seed}")
        self.now = START_M1 if plan.era == "M1" else START_M0
        self.files: dict[str, str] = {}  # session id -> text (LF)
        self.raw: dict[str, bytes] = {}  # extra files by name
        self.labels: dict[str, str] = {}  # label -> session id of its file
        self.index: dict[str, int] = {}  # `.index.json`: session id -> total tokens

    def wait(self, seconds: float) -> None:
        """Whole seconds pass (the user types, the agent thinks)."""
        self.now = self.now.replace(microsecond=0) + timedelta(seconds=seconds)

    def tick(self, seconds: float) -> None:
        """A moment passes within the current second or just after it."""
        self.now += timedelta(seconds=seconds)

    def path(self, name: str, sessions: bool = True) -> str:
        if self.plan.windows:
            return WINDOWS_PROJECT + ("\\.chat-sessions\\" if sessions else "\\") + name
        return PROJECT + ("/.chat-sessions/" if sessions else "/") + name

    def write(self, session_id: str, label: str, text: str) -> None:
        self.files[session_id] = text
        self.labels[label] = session_id

    def text(self, session_id: str) -> str:
        return self.files.get(session_id, "")

    def name_of(self, label: str) -> str:
        """The file name of a label, or of an extra file."""
        if label in self.raw:
            return label
        return f"{self.labels[label]}.md"

    def output(self) -> dict[str, bytes]:
        """Every file of the folder by name, as the host wrote it (CRLF on Windows)."""
        out: dict[str, bytes] = {}
        for session_id, text in self.files.items():
            if self.plan.windows:
                text = text.replace("\n", "\r\n")
            # surrogateescape: a `latin1` damage's lone surrogate becomes its raw byte
            out[f"{session_id}.md"] = text.encode("utf-8", "surrogateescape")
        out.update(self.raw)
        return out


def _m0_write(folder: ChatFolder, label: str, agent: str, queries: int) -> None:
    """`SessionManager._save_markdown` (before 1.6.0): header lines one under the other."""
    safe = agent.lower().replace(" ", "_").replace("/", "_")
    session_id = f"{safe}_{folder.now.strftime('%Y%m%d_%H%M%S')}"
    created = folder.now + timedelta(seconds=20)
    rows = [
        f"# {agent} Conversation",
        f"\n**Session ID:** {session_id}",
        f"\n**Date:** {created.isoformat()}",
        f"\n**Agent:** {agent}",
        "\n**Description:** A helpful assistant for the project",
        f"\n**Total Queries:** {queries}",
        "\n---\n",
    ]
    for number in range(1, queries + 1):
        folder.wait(20.0)
        used_in, used_out = folder.rng.randint(900, 4000), folder.rng.randint(40, 400)
        rows += [
            f"\n## Query {number} ({folder.now.strftime('%H:%M:%S')})\n",
            f"**You:** {words(folder.rng, 9)}\n",
            f"\n**{agent}:** {words(folder.rng, 14)}\n",
            f"\n*Time: {folder.rng.uniform(0.5, 9):.1f}s | Tokens: {used_in + used_out:,} "
            f"(in: {used_in:,}, out: {used_out:,})*\n",
            "\n---\n",
        ]
    folder.write(session_id, label, "".join(rows))


def _damage(folder: ChatFolder, step: ChatDamage) -> None:
    """An edit of one file after the host wrote it (BCL-6)."""
    session_id = folder.labels[step.label]
    text = folder.files[session_id]
    if step.kind == "not-session":
        text = text.split("\n", 1)[1]
    elif step.kind == "other-id":
        text = text.replace(f"**Session ID:** {session_id}", "**Session ID:** other_20260101_0")
    elif step.kind == "empty":
        text = ""
    elif step.kind == "bom":
        text = "\ufeff" + text
    elif step.kind == "cut":
        text = text.split("\n---\n", 1)[0] + "\n---\n"
    elif step.kind == "wide-header":
        note = "**Note:** " + "x" * 40_000 + "\n"
        title, rest = text.split("\n", 1)
        text = title + "\n" + note + note + rest
    elif step.kind == "one-line":
        text = "x" * (130 * 1024)
    elif step.kind == "no-blank":
        text = text.replace("\n---\n\n", "\n---\n", 1)
    elif step.kind == "section-only":
        text = (
            text.split("**Previous Session:** ", 1)[0]
            + "**Previous Session:** "
            + (text.split("**Previous Session:** ", 1)[1].split("\n", 1)[0] + "\n")
        )
    elif step.kind == "dup-key":
        text = text.replace(
            f"**Session ID:** {session_id}\n",
            f"**Session ID:** {session_id}\n**Session ID:** other_20260101_0\n",
            1,
        )
    elif step.kind == "nbsp-parent":
        before, after = text.split("**Resumed From:** ", 1)
        parent, rest = after.split("\n", 1)
        text = f"{before}**Resumed From:** {parent}\u00a0\n{rest}"
    elif step.kind == "latin1":
        text += "caf\udce9\n"
    elif step.kind == "no-agent":
        text = text.replace("\n**Agent:** ", "\n**Agent Name:** ", 1)
    elif step.kind == "retitled":
        text = text.replace(" Conversation\n", "\n", 1)
    elif step.kind == "header-64":
        header_lines = text.split("\n---\n", 1)[0].count("\n") + 1
        title, rest = text.split("\n", 1)
        text = title + "\n" * (63 - header_lines) + "\n" + rest
    elif step.kind == "bare-path":
        before, after = text.split("**Previous Session:** ", 1)
        path, rest = after.split("\n", 1)
        text = (
            f"{before}**Previous Session:** {path.replace(chr(92), '/').rsplit('/', 1)[-1]}\n{rest}"
        )
    else:
        parent = text.split("**Resumed From:** ", 1)[1].split("\n", 1)[0]
        if step.kind == "outside":
            text = text.replace(parent, f"../elsewhere/{parent}")
        elif step.kind == "nul":
            text = text.replace(parent, f"{parent[:6]}\x00{parent[6:]}")
        else:
            context = f"**Context:** Resumed from {parent} ("
            text = text.replace(context, f"**Context:** Resumed from {FAKE_PARENT} (")
    folder.files[session_id] = text


def _relink(folder: ChatFolder, step: ChatRelink) -> None:
    """Restored session `label` made to name `parent` in its header and its section."""
    session_id = folder.labels[step.label]
    text = folder.files[session_id]
    old = text.split("**Resumed From:** ", 1)[1].split("\n", 1)[0]
    folder.files[session_id] = text.replace(old, folder.labels[step.parent])


def play(plan: ChatPlan) -> ChatFolder:
    """Run the plan's loops against one session folder."""
    folder = ChatFolder(plan)
    loop: Loop | None = None
    for step in plan.steps:
        if isinstance(step, ChatStart):
            folder.wait(120.0)
            if plan.era == "M0":
                _m0_write(folder, step.label, step.agent, 2)
                continue
            loop = Loop(folder, step.label, step.agent)
            if step.resume is not None:
                loop.resume(folder.labels[step.resume], step.label)
        elif isinstance(step, ChatAsk):
            assert loop is not None
            loop.ask(step.quote)
        elif isinstance(step, ChatCompact):
            assert loop is not None
            loop.compact(step)
        elif isinstance(step, ChatResume):
            assert loop is not None
            loop.resume(folder.labels[step.parent], step.label)
        elif isinstance(step, ChatExit):
            assert loop is not None
            folder.tick(0.5)
            loop.save(summary=step.summary)
            loop = None
        elif isinstance(step, ChatDelete):
            del folder.files[folder.labels[step.label]]
        elif isinstance(step, ChatRelink):
            _relink(folder, step)
        elif isinstance(step, ChatDamage):
            _damage(folder, step)
        elif isinstance(step, ChatExtra):
            folder.raw[step.name] = step.data
    return folder
