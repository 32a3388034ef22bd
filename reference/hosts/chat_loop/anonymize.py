"""What of a basic-agent-chat-loop session file is structure and what is a person's text
(`anonymize`, issue #33).

The count reads the header and the first section of each file of a chain (BCL-1, BCL-3, BCL-4):
the `**Key:**` labels, `Session ID` and `Resumed From`, the restored section's lines, and the
file names, which are the ids. An id is `<agent>_<YYYYMMDD>_<HHMMSS>`: the agent's name is
replaced by its pseudonym (the same in the title, the `Agent` line, the answers' labels, every
id and file name of the chain), the time stays, so the links stay consistent across the files.
Kept too: the labels and headings the loop writes, times, counts. Replaced: every query and
answer, summaries, the agent's path and the previous session's folder.

`lines`: patterns of a whole line (the first that matches decides); named groups say what of
it is replaced (`id…` an id, `name…` a name, `path…` a path, `text…` text); the rest stays.
A line no pattern matches is text, replaced whole; blank lines stay.
"""

from __future__ import annotations

from ...core.anonymize import TIMESTAMP

CHAT_ID = r"(?P<name>.+?)(?P<keep>_[0-9]{8}_[0-9]{6})"
_ID = r"(?P<id>[^ ]+)"
POLICY = {
    "format": "markdown",
    "ids": (CHAT_ID,),
    "lines": (
        r"# (?P<name>.+) Conversation",
        rf"\*\*(?:Session ID|Resumed From):\*\* {_ID}",
        rf"\*\*(?:Date|Resumed At|Created):\*\* {TIMESTAMP}",
        r"\*\*(?:Total Queries|Total Tokens|Queries|Duration):\*\* [0-9., a-z()sm:]*",
        r"\*\*(?:Agent|Model):\*\* (?P<name>.+)",
        r"\*\*(?:Agent Path|Working Directory):\*\* (?P<path>.+)",
        r"---",
        r"## Session Restored \([0-9:]+\)",
        rf"\*\*Context:\*\* Resumed from {_ID} \((?P<text>.*)\)",
        r"\*\*Previous Session:\*\* (?P<path>.+)",
        r"## Query [0-9]+ \([0-9:]+\)",
        r"\*\*You:\*\* (?P<text>.*)",
        r"\*Time: [0-9.]+s(?: \| Tokens: [0-9]+ \(in: [0-9]+, out: [0-9]+\))?\*",
        r"<!-- SESSION_SUMMARY_(?:START|END) -->",
        r"\*\*(?:Background Context|Current Session Summary|Topics Discussed|Decisions Made"
        r"|Pending):\*\*(?P<text>.*)",
        r"\*\*(?P<name>[^*:]+):\*\* (?P<text>.*)",
        r"(?:[-*+>] |[0-9]+\. )(?P<text>.*)",  # a list item or a quote: its mark stays
    ),
    "answer_text": ("file", "from"),
    # BCL-4: the files a count walks: the header's link names the previous file of the folder.
    "chain": {"link": r"\*\*Resumed From:\*\* (?P<id>[^ ]+)", "file": "{id}.md"},
}
