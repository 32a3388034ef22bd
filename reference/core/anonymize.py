"""The shapes the hosts' anonymization policies share, and what a policy says (issue #33).

Why in the reference: a host's policy says which of its members are structure and which values
its count reads, so it lives with the host's reader (`hosts/<host>/anonymize.py`) and changes
with it. The generators' anonymizer applies a policy generically and never imports the
reference: it gets the policy as plain data through the view `rebootspec` injects
(`generators/view.py`), so a policy is built of strings, sets, tuples and dicts only.

A policy (`Host.anonymize_policy()`) is a dict:
- `format`: how the input is laid out: `"vscode"` (VS Code's own rewriter in the generators,
  keyed by the era table), `"records"` (a log of JSON records, or one JSON document),
  `"opencode"` (a database or a storage folder, the session's rows only), `"folder"` (a
  session folder of JSON documents, each rewritten whole: the Cline family), `"markdown"` (a
  chat-loop session file and the files of its chain);
- `keys`: member names that are structure, kept byte for byte; every other member name is data
  (a map keyed by file names, ids, header names) and gets a pseudonym like a value;
- `values`: member name -> the values kept verbatim under it: a set of closed enum values
  (record types, roles, triggers) or a regular expression a whole value must match (times,
  versions). Any other value is a person's text or a tool's output and is replaced;
- `ids`: regular expressions a whole string (value, data key, file name) may match, whose
  named groups say what of it stays: `keep…` verbatim, `hex…` hex digits replaced by keyed hex
  digits (case kept), `b62…` letters and digits by keyed letters and digits, `name…` by the
  string's own pseudonym (the same wherever that string stands); text outside groups stays.
  Ids keep what the count reads of them: equality (equal stays equal, different stays
  different), and for time-ordered ids their time prefix (CDX-5, OPC ids);
- `markers`: regular expressions of substrings kept inside a replaced text (Gemini CLI's
  `<state_snapshot>`, GEM-3); the pieces between them are replaced;
- `answer_text`: members of the answer's events that quote the file's own text (an id, a file
  name), compared by presence only when the anonymized input is checked against the original;
- per format: `lines` (markdown: line patterns), `tables`/`json_columns`/`storage` (opencode).
"""

from __future__ import annotations

# A UUID of version 7 keeps its first 48 bits, the millisecond it was minted, and its version:
# CDX-5 compares a Codex turn's id with its thread's by that time. Other UUIDs keep their version.
UUID7 = (
    r"(?P<keep>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-7)"
    r"(?P<hex>[0-9a-fA-F]{3}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
)
UUID = (
    r"(?P<hex1>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-)(?P<keep>[0-9a-fA-F])"
    r"(?P<hex2>[0-9a-fA-F]{3}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
)
# A long run of hex digits (a hash, a short id): keeps its shape, not its value.
HEX_ID = r"(?P<hex>[0-9a-f]{8,64})"
# Times are kept: they show when a person chatted, as VS Code's kept numbers do, and the
# counts read them (CDX-5, PIA-5: copies end where the time stamps pass the header's).
TIMESTAMP = (
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?"
    r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?"
)
# A program's version (CDX-8 reads Codex's; the others are informative).
VERSION = r"v?[0-9]+(?:\.[0-9]+)+(?:[-+.][0-9A-Za-z.+-]*)?"


def names(text: str) -> frozenset[str]:
    """A set of names written as a block of words (a policy's member names, enum values)."""
    return frozenset(text.split())
