"""The id of a file a host names (whoami's PI_SESSION_FILE, a hook's transcript) is the id the
whole store table's rule gives, though only that host's rows are read for it.

`own.name_id` reads the rows of the host that named the file and falls back to the table's
rule (`stores.session_id`, every host's rows) only for a name none of them matches, so a
`whoami` of a pi file imports one rows module instead of thirteen. Its answer must be the one
the table's rule gave before: checked on names drawn from each such host's own patterns (the
names it writes), those names changed, and arbitrary names.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rebootspec.reference.core.identity import FILE
from rebootspec.reference.core.registry import hosts
from rebootspec.reference.sessions.own import name_id
from rebootspec.reference.sessions.stores import session_id

# Every host whose file is named to whoami or hook (a FILE variable, or hook transcripts).
NAMING = [
    host
    for host in hosts()
    if host.identity.hook_transcript or any(kind == FILE for _, kind in host.identity.variables)
]


def table_rule(name: str) -> str:
    named = session_id(name)
    return named[1] if named is not None else ""


def test_the_naming_hosts_are_the_known_ones() -> None:
    """pi names its file; Codex, Claude Code, Gemini CLI and Qwen Code hooks their transcript."""
    assert {host.key for host in NAMING} == {
        "pi",
        "codex",
        "claude-code",
        "gemini-cli",
        "qwen-code",
    }


@pytest.mark.parametrize("host", NAMING, ids=lambda host: host.key)
@given(data=st.data())
def test_the_hosts_rows_give_the_tables_id(host: object, data: st.DataObject) -> None:
    rows = [store.pattern for store in host.stores()[1] if not store.within]  # type: ignore[attr-defined]
    own = st.sampled_from(rows).flatmap(lambda pattern: st.from_regex(pattern, fullmatch=True))
    name = data.draw(
        st.one_of(
            own,
            own.map(lambda text: text[1:]),
            own.map(lambda text: text.replace(".jsonl", ".json")),
            own.map(lambda text: "x" + text),
            st.text(max_size=40),
        )
    )
    name = name.replace("/", "")  # a file's name holds no slash
    assert name_id(host, f"/some/folder/{name}") == table_rule(name), name


def test_a_pi_file_name_and_others() -> None:
    pi = next(host for host in NAMING if host.key == "pi")
    name = "2026-03-02T10-00-04-000Z_7eb0cddb-8209-448f-8553-6181b3013229.jsonl"
    assert name_id(pi, f"/x/{name}") == "7eb0cddb-8209-448f-8553-6181b3013229"
    assert name_id(pi, "/x/4ad0b2e3.jsonl") == "4ad0b2e3"  # VS Code's shape, as the table says
    assert name_id(pi, "/x/notes.txt") == ""
