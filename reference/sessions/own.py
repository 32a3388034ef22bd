"""The calling session: from the environment a host gave its child (`whoami`) or from a hook's
JSON (`hook`), to one session file, or a refusal that says how to make it work (WHO-1..WHO-5).

Why a refusal rather than a best guess: an agent writes the answer into its version string. A
wrong session's count is worse than none, and the hosts make wrong answers easy (a host started
inside another's shell inherits the outer one's variable; Codex's `CODEX_SESSION_ID` is the
parent's id inside a subagent). So each way to a wrong file is refused, and the newest-file
guess exists only when asked for (`--guess`, WHO-5).

Every host's variables come from the registry (`Host.identity`); nothing here names a host.
"""

from __future__ import annotations

import os

from ..core.identity import FILE

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every turn
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from ..core.host import Host

# WHO-5: another session file written within this many seconds of the newest one makes the
# guess ambiguous (a subagent's rollout, a second window in the same folder).
GUESS_MARGIN = 10.0


class Refusal(Exception):
    """Why the calling session cannot be named (exit 2): a first line, then per-host advice."""

    def __init__(self, reason: str, advice: list[str], nothing: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.advice = advice
        self.nothing = nothing  # no host named any session: the only case `--guess` takes

    def lines(self) -> list[str]:
        """The refusal as printed: names and values quoted raw above, escaped here once."""
        return [f"error: {shown(self.reason)}\n", *(f"  {shown(row)}\n" for row in self.advice)]


def shown(text: str) -> str:
    """`text` with what a terminal would act on escaped: a variable's value or a file name can
    hold control characters, and nothing read from outside reaches the terminal raw (the one
    escaping of every command, core/printable.py)."""
    from ..core.printable import printable

    return printable(text)


class Own:
    """The calling session: its host's key, id, file, what named it (`source`), and the session
    to count inside the file when the file is a store of many (opencode).

    An id given as None is the one the file's name carries, read from the store table only when
    asked for (`id`): `whoami --field reboots` of a file a host named never reads the table."""

    __slots__ = ("_id", "file", "guessed", "host", "in_store", "named_by", "source")

    def __init__(
        self,
        host: str,
        ident: str | None,
        file: str,
        source: str,
        in_store: str | None = None,
        guessed: bool = False,
        named_by: Host | None = None,
    ) -> None:
        self.host = host
        self._id = ident
        self.file = file
        self.source = source
        self.in_store = in_store
        self.guessed = guessed
        self.named_by = named_by  # the Host whose rows read the name, when `ident` is None

    @property
    def id(self) -> str:
        if self._id is None:
            assert self.named_by is not None  # every Own without an id says whose file it is
            self._id = name_id(self.named_by, self.file)
        return self._id

    def to_json(self) -> dict[str, str]:
        return {"host": self.host, "id": self.id, "file": self.file, "source": self.source}


def name_id(host: Host, path: str) -> str:
    """The id a session file's name carries ("" when none): by the rows of the host that named
    it, else by the whole table's rule (`stores.session_id`: a name of another shape, a VS
    Code-like `<id>.jsonl`). Only that host's rows module is read for a name of its own shape.
    For the hosts that name a file (pi's variable; the hook transcripts of Codex, Claude Code,
    Gemini CLI and Qwen Code) both give the same id (tests/sessions/test_name_id.py)."""
    name = os.path.basename(path)
    _, rows = host.stores()
    for store in rows:
        match = None if store.within else store.fullmatch(name)
        if match is not None:
            return match["id"]
    from .stores import session_id

    named = session_id(name)
    return named[1] if named is not None else ""


def from_environment(env: Mapping[str, str], only: str | None = None) -> Own:
    """WHO-1..WHO-3: the session named by the one host whose variable is set (or `only`'s)."""
    from ..core.registry import get, hosts

    asked = hosts() if only is None else (get(only),)
    named: list[tuple[Any, str, str, str]] = []  # (host, variable, kind, value), one per host
    for host in asked:
        for name, kind in host.identity.variables:
            value = env.get(name, "").strip()
            if value:
                named.append((host, name, kind, value))
                break
    if len(named) > 1:  # WHO-3
        found = ", ".join(f"{name} ({host.key})" for host, name, _, _ in named)
        keys = "|".join(host.key for host, _, _, _ in named)
        raise Refusal(
            f"whoami: session ids of {len(named)} hosts in the environment: {found}; a host "
            "started inside another's shell inherits the outer one's variable",
            [f"say which with --host {keys}"],
        )
    if not named:
        raise _nothing(asked, env)
    host, name, kind, value = named[0]
    source = f"env:{name}"
    if kind == FILE:
        return _from_file(host, value, source, env)
    return _by_id(value, source, (host.key,), env, host.identity.how)


def _nothing(asked: tuple[Any, ...], env: Mapping[str, str]) -> Refusal:
    """WHO-1, WHO-2: no variable of any asked host; a misleading one is named as such."""
    looked = [name for host in asked for name in host.identity.names()]
    misleading = [
        (host, name) for host in asked for name in host.identity.misleading if env.get(name)
    ]
    if misleading:
        host, name = misleading[0]
        wanted = " or ".join(host.identity.names())
        return Refusal(
            f"whoami: {name} is set but {wanted} is not: {name} names the root session (the "
            "parent's, inside a subagent), not necessarily this one's file",
            [f"{host.key}: {host.identity.how}"],
        )
    return Refusal(
        "whoami: no session id in the environment (looked for "
        + (", ".join(looked) or "nothing: this host sets none")
        + ")",
        [f"{host.key}: {host.identity.how}" for host in asked],
        nothing=True,
    )


def _from_file(host: Any, path: str, source: str, env: Mapping[str, str]) -> Own:
    """A variable that names the session file itself (pi's PI_SESSION_FILE)."""
    if not os.path.isfile(path):
        raise Refusal(
            f"whoami: {source[4:]} names no file: '{path}'", [f"{host.key}: {host.identity.how}"]
        )
    found = _detected(path)
    if found is not None and found.key != host.key:  # a file of another host is not this one's
        what = "a file that is" if found.fallback else f"a file of {found.name},"
        raise Refusal(
            f"whoami: {source[4:]} names {what} not a session of {host.name}: '{path}'",
            [f"{host.key}: {host.identity.how}"],
        )
    given = [env.get(name, "") for name, kind in host.identity.variables if kind != FILE]
    ident = next((value.strip() for value in given if value.strip()), None)
    # None: the id its name carries, read from the store table only if the answer shows it
    return Own(host.key, ident, os.path.abspath(path), source, named_by=host)


def _detected(path: str) -> Any:
    """The host whose file `path` is by its content (HST-2), or None when no host claims it
    (the count then says why, as `count` would)."""
    from ..core.errors import Rejection
    from ..core.registry import detect

    try:
        return detect(path)
    except (Rejection, OSError):
        return None


def _by_id(
    ident: str, source: str, keys: tuple[str, ...] | None, env: Mapping[str, str], how: str
) -> Own:
    """WHO-2: exactly one session of these hosts has this whole id (no prefix, no "newest")."""
    from .finder import lookup, scan
    from .stores import roots

    who = source.partition(":")[0]  # "env" for whoami's variables, "hook" for a hook's JSON
    who = "hook" if who == "hook" else "whoami"
    if any(sep in ident for sep in "/\\") or ident.startswith("."):
        raise Refusal(f"{who}: {source[source.find(':') + 1 :]} is not a session id", [how])
    walked = scan(roots(keys, env))
    matches = [item for item in lookup(ident, walked.found) if item.id.lower() == ident.lower()]
    label = source.partition(":")[2]
    if len(matches) == 1:
        item = matches[0]
        return Own(item.host, item.id, item.path, source, item.id if item.within else None)
    if matches:
        raise Refusal(
            f"{who}: {label} '{ident}': {len(matches)} session files have this id",
            [f"{item.host}  {item.path}" for item in matches],
        )
    # Each folder once: several store rows of one host (VS Code's) share a root.
    folders = ", ".join(dict.fromkeys(root.path for root, _ in walked.looked)) or "no store"
    from ..core.registry import get

    moved = ", ".join(v for key in keys or () for v in get(key).store_variables)
    hint = f"if the host's store is elsewhere, set {moved}" if moved else how
    raise Refusal(f"{who}: {label} '{ident}': no session with this id in {folders}", [hint])


def from_hook(payload: Any, env: Mapping[str, str]) -> Own:
    """WHO-4: a host hook's stdin (`session_id`, `transcript_path`): the transcript when it is
    its host's own session file and carries the id in its name, else the id looked up."""
    if not isinstance(payload, dict):
        raise Refusal("hook: stdin is not a JSON object", [_hook_advice()])
    sid = payload.get("session_id")
    sid = sid.strip() if isinstance(sid, str) else ""
    transcript = payload.get("transcript_path")
    if isinstance(transcript, str) and transcript and os.path.isfile(transcript):
        own = _transcript(transcript, sid)
        if own is not None:
            return own
    if sid:
        return _by_id(sid, "hook:session_id", None, env, _hook_advice())
    raise Refusal(
        "hook: no session_id, and no transcript_path naming a session file, in the JSON on stdin",
        [_hook_advice()],
    )


def _transcript(path: str, sid: str) -> Own | None:
    """The hook's transcript when its host says its hooks name its own session file (VS Code
    Copilot's hooks name a transcript of Copilot's own, never counted) and the file's name
    carries the session id (Claude Code named a wrong transcript after a resume before 2.1.72)."""
    host = _detected(path)
    if host is None:
        return None
    name = os.path.basename(path).lower()
    if not host.identity.hook_transcript or (sid and sid[:8].lower() not in name):
        return None
    # No session_id: the id the file's name carries (the store table's rule), never the name;
    # read only if the answer shows it.
    return Own(host.key, sid or None, os.path.abspath(path), "hook:transcript_path", named_by=host)


def _hook_advice() -> str:
    return (
        "a Codex, Claude Code, Gemini CLI or Qwen Code hook gives `session_id` and "
        "`transcript_path`; the "
        "pi extension and opencode plugin of conformance/hooks give `session_id`"
    )


def guess(env: Mapping[str, str], only: str | None = None) -> Own:
    """WHO-5 (`--guess` only): the newest session file of every store (of `only`'s host), when
    no other was written within GUESS_MARGIN seconds of it."""
    from .finder import scan
    from .stores import roots

    keys = None if only is None else (only,)
    walked = scan(roots(keys, env))
    dated: list[tuple[float, Any]] = []
    for item in walked.found:
        if item.within:
            continue  # a store of many sessions: its file's time says nothing of one session
        try:
            dated.append((os.stat(item.path).st_mtime, item))
        except OSError:
            continue
    if not dated:
        raise Refusal("whoami --guess: no session file in any store", [])
    dated.sort(key=lambda pair: pair[0], reverse=True)
    newest, item = dated[0]
    close = [other for when, other in dated[1:] if newest - when <= GUESS_MARGIN]
    if close:
        raise Refusal(
            f"whoami --guess: {len(close) + 1} sessions were written within {GUESS_MARGIN:g} s "
            "of each other; give the id or the file",
            [f"{other.host}  {other.path}" for other in (item, *close)],
        )
    return Own(item.host, item.id, item.path, "guess:newest", guessed=True)
