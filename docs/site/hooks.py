"""mkdocs hooks of the documentation site: rule IDs become anchors, and links leave no dead end.

Why: a candidate's error message cites a rule (`RBT-3`, `CDX-5`); the site must take a reader
from that ID straight to the rule, so every rule heading (`### RBT-3 ...`) and every rule of a
list (`- **WHO-1.** ...`) gets the ID itself as its anchor (`SPEC.html#RBT-3`). The pages are
written for the repository, where a link may name a source file (`reference/core/userio.py`);
the site holds pages only, so such a link becomes its text, never a broken link.

The rewriting is plain functions of Markdown text (tested by tests/docs/test_site_hooks.py in
the default tox); `on_page_markdown` is the one mkdocs entry point, and mkdocs is imported by
nothing here.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

# `### RBT-3 Inherited records...` (a rule heading of the spec and its chapters).
RULE_HEADING = re.compile(r"^(#{2,6}) ([A-Z]{2,4}-\d+)\b(.*?)\s*$", re.M)
# `- **WHO-1.** The session is named...` (a rule written as a list item).
RULE_ITEM = re.compile(r"^(\s*[-*] )\*\*([A-Z]{2,4}-\d+)\.\*\*", re.M)
# `[text](target)` or `![alt](target)`, not inside backticks' code (handled by `_outside_code`).
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1\s*$", re.M | re.S)


def anchor_rules(markdown: str) -> str:
    """Give each rule heading and rule item its ID as its anchor (`{#RBT-3}`, `<a id>`)."""

    def heading(match: re.Match[str]) -> str:
        level, rule, rest = match.groups()
        if "{#" in rest:
            return match.group(0)
        return f"{level} {rule}{rest} {{#{rule}}}"

    markdown = _outside_code(markdown, lambda text: RULE_HEADING.sub(heading, text))
    return _outside_code(markdown, lambda text: RULE_ITEM.sub(r'\1<a id="\2"></a>**\2.**', text))


def rule_ids(markdown: str) -> list[str]:
    """The rule IDs a page defines (its rule headings and rule items), in order."""
    return [m.group(2) for m in RULE_HEADING.finditer(markdown)] + [
        m.group(2) for m in RULE_ITEM.finditer(markdown)
    ]


def link_rules(markdown: str, page: str, defined: dict[str, str]) -> str:
    """A rule ID in backticks (`` `CDX-5` ``) becomes a link to its rule, wherever it is
    defined (`defined`: ID -> the page that defines it); an ID defined nowhere stays as it is."""

    def replace(match: re.Match[str]) -> str:
        rule = match.group(1)
        target = defined.get(rule)
        if target is None:
            return match.group(0)
        relative = posixpath.relpath(target, posixpath.dirname(page) or ".")
        return f"[`{rule}`]({relative}#{rule})"

    pattern = re.compile(r"(?<![\[`])`([A-Z]{2,4}-\d+)`(?![`\]])")
    return _outside_code(markdown, lambda text: pattern.sub(replace, text))


def unlink_missing(markdown: str, page: str, exists: Callable[[str], bool]) -> str:
    """Links from `page` (a path in the site, `docs/agents.md`) to what the site does not hold
    become their text; `exists(path)` says whether the site holds a path. External links,
    anchors within the page and links to pages the site holds are kept."""

    def replace(match: re.Match[str]) -> str:
        bang, text, target = match.groups()
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            return match.group(0)
        path, _, fragment = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
        if path.endswith("/") or resolved in (".", ""):
            readme = posixpath.join(resolved, "README.md")
            if exists(readme):
                relative = posixpath.relpath(readme, posixpath.dirname(page) or ".")
                return f"{bang}[{text}]({relative}{'#' + fragment if fragment else ''})"
            return text
        if exists(resolved):
            return match.group(0)
        return text

    return _outside_code(markdown, lambda text: LINK.sub(replace, text))


# The HTML a page may really mean; any other `<word>` is text (a placeholder such as `<id>`, or
# `"<title> (fork #N)"` quoted from a host), which a browser would take as a tag and hide, or,
# for `<title>`, swallow the rest of the page into.
HTML_TAGS = frozenset(
    {"a", "abbr", "b", "br", "code", "details", "div", "em", "i", "img", "kbd", "p", "pre"}
    | {"span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "th", "thead", "tr"}
)
TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9_-]*)")
INLINE_CODE = re.compile(r"(`+)(?:.+?)\1", re.S)


def escape_text_tags(markdown: str) -> str:
    """`<word>` outside code that is not HTML a page means becomes text (`&lt;word>`)."""

    def escape(text: str) -> str:
        out, last = [], 0
        for code in INLINE_CODE.finditer(text):
            out.append(_escape_tags(text[last : code.start()]))
            out.append(code.group(0))
            last = code.end()
        out.append(_escape_tags(text[last:]))
        return "".join(out)

    return _outside_code(markdown, escape)


def _escape_tags(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        if match.group(2).lower() in HTML_TAGS:
            return match.group(0)
        return "&lt;" + match.group(0)[1:]

    return TAG.sub(replace, text)


def _outside_code(markdown: str, change: Callable[[str], str]) -> str:
    """Apply `change` to the text between fenced code blocks only."""
    out, last = [], 0
    for fence in FENCE.finditer(markdown):
        out.append(change(markdown[last : fence.start()]))
        out.append(fence.group(0))
        last = fence.end()
    out.append(change(markdown[last:]))
    return "".join(out)


DEFINED: dict[str, str] = {}  # rule ID -> the page that defines it, gathered by on_files


def on_files(files: Any, config: Any) -> Any:
    """mkdocs: before any page is rendered, note which page defines each rule ID."""
    DEFINED.clear()
    for file in files:
        if file.src_uri.startswith("spec/") and file.src_uri.endswith(".md"):
            for rule in rule_ids(file.content_string):
                DEFINED.setdefault(rule, file.src_uri)
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """mkdocs: each page's Markdown before it is rendered."""
    source = page.file.src_uri

    def exists(path: str) -> bool:
        return files.get_file_from_path(path) is not None

    linked = link_rules(unlink_missing(markdown, source, exists), source, DEFINED)
    return anchor_rules(escape_text_tags(linked))
