"""What a host tells a process it starts about the session that started it (`whoami`, `hook`).

Why one small type on the host: an agent's shell command, a hook or an extension asks "what is
MY session's count?" and each host answers it its own way: an environment variable holding an
id or a path, a hook's JSON on stdin, or nothing at all. `rebootspec whoami` reads every host's
`Host.identity` from the registry and never names a host itself; a new host (Copilot CLI's
`COPILOT_AGENT_SESSION_ID`) is one attribute on its `HOST`.

A plain class with slots, not a dataclass: this is imported with every host package, on the
path of every `count` (dataclasses costs its import of `inspect`).
"""

from __future__ import annotations

# The kinds of variable: a path to the session file itself, or an id looked up in the stores.
FILE = "file"
ID = "id"


class Identity:
    """How a process learns its own session from this host (WHO-1).

    `variables`: (name, kind) in the order they are trusted, kind `FILE` or `ID`; the first one
    set (and not empty) names the session. `misleading`: variables that look like a session id
    and name another session (Codex's `CODEX_SESSION_ID`, the root's id inside a subagent): never
    read for the answer; alone, `whoami` refuses and says why. `hook_transcript`: a hook's
    `transcript_path` is this host's own session file (not a copy of another format). `how`: one
    line telling a person how to make `whoami` work with this host (which version sets the
    variable, or what to install when the host gives no id).
    """

    __slots__ = ("hook_transcript", "how", "misleading", "variables")

    def __init__(
        self,
        variables: tuple[tuple[str, str], ...] = (),
        *,
        misleading: tuple[str, ...] = (),
        hook_transcript: bool = False,
        how: str = "",
    ) -> None:
        self.variables = variables
        self.misleading = misleading
        self.hook_transcript = hook_transcript
        self.how = how

    def names(self) -> tuple[str, ...]:
        """The variables looked for, in order."""
        return tuple(name for name, _ in self.variables)
