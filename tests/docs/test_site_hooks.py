"""The site's Markdown rewriting (docs/site/hooks.py), without mkdocs: rule IDs become anchors
and links, text that looks like a tag stays text, and no link leads out of the site.

Why: `tox -e docs` is not in the default list (it needs mkdocs-material), but what it does to
the pages is plain text work that can break quietly: a rule that gets no anchor makes a
candidate's error link land at the top of the spec; a `<title>` quoted from a host, left as
HTML, swallowed the rest of opencode's chapter in the browser (found by tox -e docs-browser).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from rebootspec.generators.corpus import casefile

ROOT = Path(__file__).resolve().parents[2]


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("site_hooks", ROOT / "docs/site/hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = _hooks()


def test_a_rule_heading_and_a_rule_item_get_their_id_as_anchor() -> None:
    text = "### RBT-3 Inherited records\n\n- **WHO-1.** The session is named\n"
    done = hooks.anchor_rules(text)
    assert "### RBT-3 Inherited records {#RBT-3}" in done
    assert '- <a id="WHO-1"></a>**WHO-1.** The session' in done


def test_code_blocks_are_left_alone() -> None:
    text = "```text\n### RBT-3 not a heading\n<title>\n```\n"
    assert hooks.anchor_rules(text) == text
    assert hooks.escape_text_tags(text) == text


def test_every_rule_the_corpus_lint_knows_gets_an_anchor() -> None:
    """The rules cases may cite (SPEC.md's and the chapters' headings, PROTOCOL.md's) are all
    found by the hook, so the build's check that each is an anchor covers every citable rule."""
    found: set[str] = set()
    for page in [*ROOT.glob("spec/*.md"), *ROOT.glob("spec/hosts/*.md")]:
        found.update(hooks.rule_ids(page.read_text("utf-8")))
    spec = ROOT / "spec"
    citable = set(casefile.spec_rules(spec)) | set(casefile.protocol_rules(spec))
    assert citable <= found, sorted(citable - found)


def test_text_that_looks_like_a_tag_stays_text() -> None:
    text = 'named "<title> (fork #N)"; a `<id>` in code; <a id="x"></a> and <br> are HTML'
    done = hooks.escape_text_tags(text)
    assert '"&lt;title> (fork #N)"' in done
    assert "`<id>`" in done and '<a id="x"></a>' in done and "<br>" in done


def test_a_link_to_what_the_site_does_not_hold_becomes_its_text() -> None:
    held = {"spec/SPEC.md", "conformance/README.md", "docs/cli.md"}
    text = (
        "[`userio.py`](../reference/core/userio.py), [the spec](../spec/SPEC.md#RBT-1), "
        "[runner](../conformance/), [cli](cli.md), [web](https://example.org/x)"
    )
    done = hooks.unlink_missing(text, "docs/agents.md", held.__contains__)
    assert "`userio.py`," in done and "(../reference" not in done
    assert "[the spec](../spec/SPEC.md#RBT-1)" in done
    assert "[runner](../conformance/README.md)" in done
    assert "[cli](cli.md)" in done and "(https://example.org/x)" in done


def test_a_rule_id_in_backticks_links_to_where_it_is_defined() -> None:
    defined = {"CDX-5": "spec/hosts/codex.md"}
    done = hooks.link_rules("copies (`CDX-5`), not `XYZ-9`", "docs/counting.md", defined)
    assert "[`CDX-5`](../spec/hosts/codex.md#CDX-5)" in done and "`XYZ-9`" in done


def test_every_page_of_docs_is_in_the_sites_navigation() -> None:
    nav = (ROOT / "docs" / "site" / "mkdocs.yml").read_text("utf-8")
    for page in (ROOT / "docs").glob("*.md"):
        assert f"docs/{page.name}" in nav, page.name
