"""What of an opencode store is structure and what is a person's text (`anonymize`, issue #33).

A store holds every session of a machine; an anonymized one holds the asked session's rows only
(`tables`, `storage`), written into a new database or folder, never a copy with rows deleted
that a free page could still hold. The count reads nothing of other sessions: a fork's copies
are told by their creation times (OPC-9), not by the source session.

Kept: the schema (tables, columns, indexes), numbers (creation times: OPC-9 compares them),
member names of message and part data, roles, part types, `finish` and error names (OPC-4..
OPC-7 read them), the version; the time prefix of `ses_`/`msg_`/`prt_` ids, so they sort as
before, and their equality, so `parentID` still names its user message. Replaced: message text,
tool input and output, titles, slugs, directories and paths, project ids, every other string.
"""

from __future__ import annotations

from ...core.anonymize import VERSION, names

KEYS = names(
    """
action additions agent auto body cache callID command completed cost created cwd data date
deletions description diffs directory end error exit files finish id input isRetryable message
messageID metadata mode model modelID name output parentID path pattern permission projectID
prompt providerID read reason reasoning responseBody responseHeaders revert role root sandboxes
server sessionID sessionId slug start state status statusCode subagent_type summary synthetic
system task text time title tokens tool tools total truncated type updated url version worktree
write compacted compaction_continue overflow tail_start_id variant raw attachment mime filename
source snapshot hash
"""
)
POLICY = {
    "format": "opencode",
    "keys": KEYS,
    "values": {
        "role": frozenset({"assistant", "user"}),
        "type": names(
            """
agent compaction file patch reasoning retry snapshot step-finish step-start subtask text tool
"""
        ),
        "finish": frozenset(
            {"content-filter", "error", "length", "other", "stop", "tool-calls", "unknown"}
        ),
        "reason": frozenset({"content-filter", "length", "other", "stop", "tool-calls", "unknown"}),
        "status": frozenset({"completed", "error", "pending", "running"}),
        # OPC-5: MessageAbortedError is read; the others are the same closed set of names.
        "name": names(
            """
APIError ContextOverflowError MessageAbortedError MessageOutputLengthError ProviderAuthError
UnknownError
"""
        ),
        "version": VERSION,
    },
    # opencode's ids: a prefix, 12 hex digits of time and counter, 14 random letters and digits.
    "ids": (r"(?P<keep>[a-z]{3,4}_[0-9a-f]{12})(?P<b62>[0-9A-Za-z]{14})",),
    "markers": (),
    "answer_text": ("message",),
    # The rows the count reads (OPC-3): `?` is the asked session's id.
    "tables": (
        ("session", "id = ?"),
        ("message", "session_id = ?"),
        ("part", "message_id IN (SELECT id FROM message WHERE session_id = ?)"),
    ),
    "json_columns": ("data",),
    # The storage folder (OPC-1): `{session}` and `{message}` are ids, `*` any name.
    "storage": {
        "session": "session/*/{session}.json",
        "messages": "message/{session}/*.json",
        "parts": "part/{message}/*.json",
    },
}
