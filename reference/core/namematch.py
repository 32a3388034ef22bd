"""The store table's file-name patterns matched in plain Python, without `re`.

Why: `whoami` by an id walks a host's store and matches every file name against its row's
pattern (spec/STORES.md), and `import re` (with `enum`, `functools`, `collections` and its
compiler) costs a status line about as much as the rest of its start-up. The patterns stay the
documented fact, written once in each host's `stores.py`; this module knows the handful of
shapes they take and gives, for each pattern text it knows, a function that returns what
`re.fullmatch(pattern, name)["id"]` returns (None where that does not match). A pattern it
does not know is matched by `re` (`Store.fullmatch`), so a new row is never wrong, only slower,
and `tests/reference/test_namematch.py` fails until its shape is here. The same tests prove each
function equal to its pattern with Hypothesis: names drawn from the pattern itself, those names
mutated, and arbitrary text, with Unicode digits (`\\d` is every Unicode decimal digit, as
`str.isdecimal` is; `[0-9]` only the ASCII ten) and newlines (which `.` does not match).

Every shape ends in a literal suffix (or two that cannot both end a name: `.json` and
`.jsonl`), so the lazy `(?P<id>.+?)` of a pattern is whatever lies between the fixed parts: the
functions cut the fixed parts off both ends and check what is left.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every whoami
if TYPE_CHECKING:
    from collections.abc import Callable

    Matcher = Callable[[str], str | None]

HEX = frozenset("0123456789abcdefABCDEF")
TIME_CHARS = frozenset("0123456789-")  # pi's `[0-9-]`
DB_NAME = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
STAMP_CHARS = frozenset("0123456789T:.-")  # Gemini CLI's `[0-9T:.-]`


def _cut(name: str, suffixes: tuple[str, ...]) -> str | None:
    """`name` without the one of `suffixes` it ends with (they never overlap); None if none."""
    for suffix in suffixes:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return None


def _any_but_newline(text: str) -> bool:
    """`.+`: at least one character, none a newline."""
    return text != "" and "\n" not in text


def _no_separator(text: str) -> bool:
    """`[^/\\\\]+`: at least one character, no slash or backslash (a newline is one)."""
    return text != "" and "/" not in text and "\\" not in text


def _decimal(text: str, width: int) -> bool:
    """`\\d{width}`: exactly `width` Unicode decimal digits."""
    return len(text) == width and text.isdecimal()


def _is_uuid(text: str) -> bool:
    """`[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}`."""
    if len(text) != 36 or any(text[i] != "-" for i in (8, 13, 18, 23)):
        return False
    return all(char in HEX for i, char in enumerate(text) if i not in (8, 13, 18, 23))


def lazy_before(suffixes: tuple[str, ...]) -> Matcher:
    """`(?P<id>[^/\\\\]+?)` and one of `suffixes` (VS Code's `<sessionId>.jsonl`, Cline's
    `<id>.messages.json`)."""

    def match(name: str) -> str | None:
        ident = _cut(name, suffixes)
        return ident if ident is not None and _no_separator(ident) else None

    return match


def literal(whole: str) -> Matcher:
    """`(?P<id>)` and a literal name: the id is empty (the folder's name says it)."""

    def match(name: str) -> str | None:
        return "" if name == whole else None

    return match


def uuid_name(suffix: str) -> Matcher:
    """A UUID (any case of hex digits) and `suffix`."""

    def match(name: str) -> str | None:
        ident = _cut(name, (suffix,))
        return ident if ident is not None and _is_uuid(ident) else None

    return match


def codex_rollout(name: str) -> str | None:
    """`rollout-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-(?P<id>.+?)\\.jsonl(?:\\.zst)?`."""
    rest = _cut(name, (".jsonl", ".jsonl.zst"))
    if rest is None or not rest.startswith("rollout-") or len(rest) < 28:
        return None
    stamp = rest[8:28]  # YYYY-MM-DDTHH-MM-SS-
    if stamp[4] + stamp[7] + stamp[10] + stamp[13] + stamp[16] + stamp[19] != "--T---":
        return None
    digits = (stamp[0:4], stamp[5:7], stamp[8:10], stamp[11:13], stamp[14:16], stamp[17:19])
    if not all(part.isdecimal() for part in digits):
        return None
    ident = rest[28:]
    return ident if _any_but_newline(ident) else None


def pi_session(name: str) -> str | None:
    """`\\d{4}-\\d{2}-\\d{2}T[0-9-]+Z?_(?P<id>.+?)\\.jsonl`: a date, a time of ASCII digits and
    dashes (greedy: it cannot take the `Z` or `_` after it), then the id."""
    rest = _cut(name, (".jsonl",))
    if rest is None or len(rest) < 11:
        return None
    date = rest[:11]
    if date[4] + date[7] + date[10] != "--T":
        return None
    if not (_decimal(date[0:4], 4) and _decimal(date[5:7], 2) and _decimal(date[8:10], 2)):
        return None
    end = 11
    while end < len(rest) and rest[end] in TIME_CHARS:
        end += 1
    if end == 11:
        return None  # `[0-9-]+` needs one
    if rest[end : end + 1] == "Z":
        end += 1
    if rest[end : end + 1] != "_":
        return None
    ident = rest[end + 1 :]
    return ident if _any_but_newline(ident) else None


def gemini_chat(suffixes: tuple[str, ...]) -> Matcher:
    """`session-[0-9T:.-]+-(?P<id>[0-9a-fA-F]{8})` and one of `suffixes`: the last eight hex
    digits, a dash before them, and at least one stamp character after `session-`."""

    def match(name: str) -> str | None:
        rest = _cut(name, suffixes)
        if rest is None or not rest.startswith("session-") or len(rest) < 18:
            return None
        ident, dash, stamp = rest[-8:], rest[-9], rest[8:-9]
        if dash != "-" or not all(char in HEX for char in ident):
            return None
        return ident if all(char in STAMP_CHARS for char in stamp) else None  # one at least

    return match


def _db(name: str, prefix: str, bare: bool) -> bool:
    """`prefix(?:-[A-Za-z0-9._-]+)?\\.db` (`bare`: the group may be absent), or with the group
    required when not `bare`; `prefix` itself has no `-`."""
    rest = _cut(name, (".db",))
    if rest is None or not rest.startswith(prefix):
        return False
    tail = rest[len(prefix) :]
    if tail == "":
        return bare
    return tail[0] == "-" and len(tail) > 1 and all(char in DB_NAME for char in tail[1:])


def opencode_store(name: str) -> str | None:
    """`(?P<id>opencode(?:-[A-Za-z0-9._-]+)?\\.db|storage)`: the whole name."""
    return name if name == "storage" or _db(name, "opencode", True) else None


def kilo_store(name: str) -> str | None:
    """`(?P<id>kilo(?:-[A-Za-z0-9._-]+)?\\.db|opencode-[A-Za-z0-9._-]+\\.db)`: the whole name."""
    return name if _db(name, "kilo", True) or _db(name, "opencode", False) else None


def chat_loop_session(name: str) -> str | None:
    """`(?P<id>[^/\\\\]+_\\d{8}_\\d{6})\\.md`: a name, then `_`, eight digits, `_`, six."""
    ident = _cut(name, (".md",))
    if ident is None or len(ident) < 17:
        return None
    head, stamp = ident[:-16], ident[-16:]
    if stamp[0] != "_" or stamp[9] != "_":
        return None
    if not (_decimal(stamp[1:9], 8) and _decimal(stamp[10:], 6)):
        return None
    return ident if _no_separator(head) else None


# Each pattern of the store table (the hosts' stores.py) and its matcher.
MATCHERS: dict[str, Matcher] = {
    r"(?P<id>[^/\\]+?)\.jsonl?": lazy_before((".jsonl", ".json")),
    r"(?P<id>[^/\\]+?)\.messages\.json": lazy_before((".messages.json",)),
    r"rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-(?P<id>.+?)\.jsonl(?:\.zst)?": codex_rollout,
    r"\d{4}-\d{2}-\d{2}T[0-9-]+Z?_(?P<id>.+?)\.jsonl": pi_session,
    r"(?P<id>[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})\.jsonl": uuid_name(".jsonl"),
    r"session-[0-9T:.-]+-(?P<id>[0-9a-fA-F]{8})\.jsonl?": gemini_chat((".jsonl", ".json")),
    r"session-[0-9T:.-]+-(?P<id>[0-9a-fA-F]{8})\.json": gemini_chat((".json",)),
    r"(?P<id>opencode(?:-[A-Za-z0-9._-]+)?\.db|storage)": opencode_store,
    r"(?P<id>kilo(?:-[A-Za-z0-9._-]+)?\.db|opencode-[A-Za-z0-9._-]+\.db)": kilo_store,
    r"(?P<id>[^/\\]+_\d{8}_\d{6})\.md": chat_loop_session,
    r"(?P<id>)events\.jsonl": literal("events.jsonl"),
    r"(?P<id>)ui_messages\.json": literal("ui_messages.json"),
}
