"""The anonymizer's rules one by one, on small hand-written lines (what is kept, what is not)."""

from __future__ import annotations

import orjson
import pytest

from rebootspec.generators.anonymize.command import anonymize_bytes
from rebootspec.generators.anonymize.pseudonym import Pseudonyms
from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.hosts.vscode.count import count_state
from rebootspec.reference.hosts.vscode.replay import replay_bytes

SECRET = b"rules-test-secret"
HEAD = b'{"kind":0,"v":{"version":3,"requests":[]}}\n'


def anon(data: bytes, container: str = ".jsonl") -> bytes:
    return anonymize_bytes(data, container, SECRET)


def last_value(data: bytes) -> object:
    """The `v` of the last line of an anonymized log."""
    return orjson.loads(data.rstrip(b"\n").split(b"\n")[-1])["v"]


def test_private_text_is_replaced_by_letters_and_digits_of_the_same_length() -> None:
    line = '{"kind":1,"k":["inputState","inputText"],"v":"fix /home/ana/ünïcode.py 😀"}\n'
    out = anon(HEAD + line.encode())
    value = last_value(out)
    assert isinstance(value, str)
    assert len(value) == len("fix /home/ana/ünïcode.py 😀")
    assert value.isascii() and value.isalnum()
    assert b"ana" not in out.split(b"\n")[1]


def test_keys_numbers_and_paths_stay_byte_for_byte() -> None:
    line = b'{"kind":1,"k":["requests",0,"modelState"],"v":{"value":-0,"completedAt":1.0e3}}\n'
    data = HEAD + b'{"kind":2,"k":["requests"],"v":[{"requestId":"r"}]}\n' + line
    assert anon(data).split(b"\n")[2] == line.rstrip(b"\n")


def test_equal_strings_stay_equal_and_different_ones_differ_across_lines() -> None:
    lines = [b'{"kind":1,"k":["a"],"v":"%s"}\n' % text for text in (b"same", b"other", b"same")]
    out = anon(HEAD + b"".join(lines)).split(b"\n")
    assert out[1] == out[3]
    assert out[1] != out[2]


def test_escapes_are_compared_by_value() -> None:
    """`"A\\u0042"` and `"AB"` are one string to a counter, so they get one pseudonym."""
    out = anon(HEAD + b'{"kind":1,"k":["a"],"v":"A\\u0042"}\n{"kind":1,"k":["a"],"v":"AB"}\n')
    lines = out.split(b"\n")
    assert lines[1] == lines[2]


def test_the_empty_string_stays_empty() -> None:
    assert anon(HEAD + b'{"kind":1,"k":["a"],"v":""}\n').endswith(b'"v":""}\n')


def test_era_strings_part_kinds_and_the_slash_command_name_are_kept() -> None:
    request = (
        b'{"kind":2,"k":["requests"],"v":[{"requestId":"secret-id","slashCommand":'
        b'{"name":"compact"},"response":[{"kind":"progressTaskSerialized","content":'
        b'{"value":"Compacted conversation"}},{"kind":"thinking","value":"private thought"},'
        b'{"value":"Compacted conversation."}]}]}\n'
    )
    out = anon(HEAD + request)
    for kept in (
        b'"name":"compact"',
        b'"kind":"progressTaskSerialized"',
        b'"value":"Compacted conversation"',
        b'"kind":"thinking"',
        b'"value":"Compacted conversation."',
    ):
        assert kept in out
    assert b"secret-id" not in out and b"private thought" not in out


def test_a_set_through_a_path_judges_the_value_by_its_place_in_the_state() -> None:
    """`k` names the place: a slashCommand set on its own still keeps its name."""
    data = (
        HEAD
        + b'{"kind":2,"k":["requests"],"v":[{"requestId":"r","response":[]}]}\n'
        + b'{"kind":1,"k":["requests",0,"slashCommand"],"v":{"name":"compact","x":"fix"}}\n'
        + b'{"kind":1,"k":["requests",0,"response",0,"kind"],"v":"progressTask"}\n'
    )
    out = anon(data).split(b"\n")
    value = orjson.loads(out[2])["v"]
    assert value["name"] == "compact"
    assert "x" not in value and "fix" not in value.values()  # a key outside the schema is data
    assert out[3].endswith(b'"v":"progressTask"}')


def test_a_compact_message_keeps_its_command_word_only() -> None:
    lines = [
        b'{"kind":1,"k":["m"],"v":{"text":"/compact keep the auth notes"}}\n',
        b'{"kind":1,"k":["m"],"v":{"text":"/compact"}}\n',
        b'{"kind":1,"k":["m"],"v":{"text":"/compact\\tx"}}\n',
        b'{"kind":1,"k":["m"],"v":{"text":"/compactor"}}\n',
    ]
    out = [
        orjson.loads(line)["v"]["text"] for line in anon(HEAD + b"".join(lines)).split(b"\n")[1:5]
    ]
    assert out[0].startswith("/compact ") and len(out[0]) == len("/compact keep the auth notes")
    assert "auth" not in out[0]
    assert out[1] == "/compact"
    assert out[2].startswith("/compact\t") and out[2] != "/compact\tx"
    assert not out[3].startswith("/compact")


def test_an_in_progress_text_with_a_percentage_stays_in_progress() -> None:
    text = b"Compacting conversation (42%, src/secret.py)..."
    line = b'{"kind":1,"k":["p"],"v":{"content":{"value":"%s"}}}\n' % text
    value = last_value(anon(HEAD + line))
    assert isinstance(value, dict)
    shown = value["content"]["value"]
    assert shown.startswith("Compacting conversation") and shown.endswith("...")
    assert "secret" not in shown and len(shown) == len(text)


def test_enum_values_are_kept_only_under_their_key() -> None:
    line = b'{"kind":1,"k":["a"],"v":{"outcome":"budgetExceeded","text":"budgetExceeded"}}\n'
    value = last_value(anon(HEAD + line))
    assert isinstance(value, dict)
    assert value["outcome"] == "budgetExceeded"
    assert value["text"] != "budgetExceeded"


def test_keys_outside_the_schema_are_data() -> None:
    """URIs, file names and user text used as keys are replaced; schema members are kept."""
    line = (
        b'{"kind":1,"k":["a"],"v":{"uris":{"file:///home/ana/x.py":{"path":"/home/ana/x.py"}},'
        b'"a:b":1,"secret plan":2,"toolu_01ABC":{"value":"x"}}}\n'
    )
    out = anon(HEAD + line)
    assert b"/home/ana" not in out and b"secret" not in out and b"toolu_01ABC" not in out
    value = last_value(out)
    assert isinstance(value, dict)
    keys = list(value)
    assert keys[0] == "uris" and len(keys) == 4
    assert all(k not in ("a:b", "secret plan", "toolu_01ABC") for k in keys)
    (key,) = value["uris"]
    assert len(key) == len("file:///home/ana/x.py") and key.isalnum()
    assert list(value["uris"][key]) == ["path"]


def test_a_data_key_gets_the_same_pseudonym_in_a_k_path() -> None:
    """A Set through a data key still reaches the member the earlier line created."""
    data = (
        HEAD
        + b'{"kind":1,"k":["results"],"v":{"secret-file.py":{"n":1}}}\n'
        + b'{"kind":1,"k":["results","secret-file.py","n"],"v":2}\n'
    )
    out = anon(data)
    assert b"secret" not in out
    state = replay_bytes(out).state
    (outer,) = (k for k in state if k not in ("version", "requests"))
    (inner,) = state[outer]
    assert state[outer][inner] == {orjson.loads(out.split(b"\n")[2])["k"][2]: 2}


def test_kind_values_are_kept_only_when_known_and_direct() -> None:
    line = (
        b'{"kind":1,"k":["a"],"v":{"kind":"textEditGroup","x":{"kind":"my secret kind"},'
        b'"y":{"kind":["textEditGroup"]}}}\n'
    )
    out = anon(HEAD + line)
    assert b"secret" not in out
    value = last_value(out)
    assert isinstance(value, dict)
    assert value["kind"] == "textEditGroup"
    nested = [v for k, v in value.items() if k != "kind"]
    assert nested[1]["kind"] != ["textEditGroup"]


def test_a_torn_tail_stays_torn_and_its_text_is_masked() -> None:
    data = HEAD + b'{"kind":1,"k":["a"],"v":"the private\\npassword is hunter2'
    out = anon(data)
    assert b"hunter2" not in out and b"password" not in out
    assert not out.endswith(b"\n")
    assert len(out) == len(data)
    assert [n.code for n in replay_bytes(out).notices] == ["W-TORN-TAIL"]


@pytest.mark.parametrize(
    "broken",
    [
        b'{"kind":1,"k":["a"],"v":"bad \\x escape of secret"}',
        b'{"kind":1,"k":["a"],"v":"raw\ttab in secret"}',
        b'{"kind":1,"k":["a"],"v":secretword}',
        b'{"kind":1,"k":["a"],"v":-abc}',
        b'{"kind":1,"k":["a"],"v":NaN}',
        b'{"kind":1,"k":["a"],"v":"unterminated secret}',
        b'{"kind":1,"k":["a"],"v":"x" "y"}',
    ],
)
def test_a_corrupt_line_stays_corrupt_at_the_same_line(broken: bytes) -> None:
    data = HEAD + broken + b"\n" + b'{"kind":1,"k":["b"],"v":1}\n'
    for secret in (b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"8"):
        out = anonymize_bytes(data, ".jsonl", secret)
        assert b"secret" not in out
        with pytest.raises(Rejection) as caught:
            replay_bytes(out)
        assert (caught.value.code, caught.value.line) == ("E-JSON", 2)


def test_undecodable_bytes_stay_undecodable_in_the_same_places() -> None:
    """Two bad sequences (0xFF and a cut-off E2 82) read as two U+FFFD; so does the output,
    but through 0xFF bytes: bytes of another encoding could be text, so they do not stay."""
    line = b'{"kind":1,"k":["customTitle"],"v":"plan \xff\xe2\x82 and more"}\n'
    out = anon(HEAD + line)
    assert b"\xe2\x82" not in out and b"plan" not in out
    assert out.count(b"\xff\xff") == 1
    value = replay_bytes(out).state["customTitle"]
    assert len(value) == len("plan \ufffd\ufffd and more")
    assert value[5:7] == "\ufffd\ufffd" and "\ufffd" not in value[:5] + value[7:]


def test_a_lone_surrogate_escape_is_a_string_like_any_other() -> None:
    data = (
        HEAD
        + b'{"kind":1,"k":["customTitle"],"v":"x\\ud800y"}\n'
        + b'{"kind":1,"k":["customTitle"],"v":"x\\ud801y"}\n'
    )
    out = anon(data).split(b"\n")
    assert out[1] != out[2]
    assert replay_bytes(anon(data)).state["customTitle"] != "x\ud801y"


def test_bom_and_crlf_are_kept() -> None:
    data = (
        b"\xef\xbb\xbf"
        + HEAD.replace(b"\n", b"\r\n")
        + b'{"kind":1,"k":["customTitle"],"v":"hi"}\r\n'
    )
    out = anon(data)
    assert out.startswith(b"\xef\xbb\xbf{") and out.count(b"\r\n") == 2
    assert replay_bytes(out).state["customTitle"] != "hi"


def test_a_flat_json_keeps_its_indentation() -> None:
    data = (
        b'{\n  "version": 3,\n  "requests": [\n    {\n      "message": "hello there"\n    }\n  ]\n}'
    )
    out = anon(data, ".json")
    fake = orjson.loads(out)["requests"][0]["message"]
    assert fake != "hello there" and len(fake) == len("hello there")
    assert out == data.replace(b"hello there", fake.encode())


def test_summary_relations_survive_a_b_a() -> None:
    def request(text: bytes) -> bytes:
        return (
            b'{"requestId":"id","response":[{"kind":"progressTaskSerialized","content":'
            b'{"value":"Compacted conversation"}}],"result":{"metadata":{"summaries":'
            b'[{"text":"' + text + b'"}]}}}'
        )

    body = b",".join(request(t) for t in (b"alpha", b"beta", b"alpha", b"alpha", b""))
    data = b'{"kind":0,"v":{"requests":[' + body + b"]}}\n"
    result = count_state(replay_bytes(anon(data)).state)
    assert result.reboots == 3  # A,B,A,A: three; the failed one none
    assert [v.index for v in result.phantoms] == [4]


def test_pseudonyms_never_collide_even_when_short() -> None:
    """More one-character strings than one-character pseudonyms: all still distinct."""
    names = Pseudonyms(b"k", reserved={"A"})
    originals = [chr(code) for code in range(0x100, 0x100 + 300)]
    fakes = [names.of(text) for text in originals]
    assert len(set(fakes)) == len(originals)
    assert "A" not in fakes
    assert [names.of(text) for text in originals] == fakes
    assert all(len(fake) >= 1 for fake in fakes)


# UNC-8: VS Code's text in place of a string too large to persist (not a person's text).
CUT = "[VS Code: value truncated for persistence; original 90000 chars]"
BUDGET = "[VS Code: value truncated for persistence; entry exceeded size budget]"


def truncated_session(first: str, second: str) -> bytes:
    """Two requests whose summaries VS Code truncated: two different stored texts, so two
    reboots (CNT-2), each with a W-TRUNCATED warning (UNC-8)."""
    requests = [
        {"requestId": f"r{n}", "message": {"text": f"private question {n}"}, "response": [],
         "result": {"metadata": {"summaries": [{"text": text}]}}}
        for n, text in enumerate((first, second))
    ]  # fmt: skip
    return orjson.dumps({"kind": 0, "v": {"version": 3, "requests": requests}}) + b"\n"


@pytest.mark.parametrize("text", [CUT, BUDGET])
def test_vs_codes_truncation_text_stays_whole(text: str) -> None:
    out = anon(HEAD + orjson.dumps({"kind": 1, "k": ["a"], "v": text}) + b"\n")
    assert last_value(out) == text


def test_text_after_the_truncation_marker_is_replaced_and_the_marker_kept() -> None:
    text = "[VS Code: value truncated for persistence; ana's payroll notes]"
    value = last_value(anon(HEAD + orjson.dumps({"kind": 1, "k": ["a"], "v": text}) + b"\n"))
    assert isinstance(value, str) and len(value) == len(text)
    assert value.startswith("[VS Code: value truncated for persistence;")
    assert "payroll" not in value and "ana" not in value


@pytest.mark.parametrize(
    ("first", "second"),
    [(CUT, BUDGET), (CUT, "[VS Code: value truncated for persistence; original 12 chars]")],
)
def test_a_truncated_session_keeps_its_count_and_its_warnings(first: str, second: str) -> None:
    data = truncated_session(first, second)
    result = count_state(replay_bytes(anon(data)).state)
    assert result.reboots == 2
    assert [n.code for n in result.notices if n.code == "W-TRUNCATED"] == ["W-TRUNCATED"] * 2
    assert b"private question" not in anon(data)
