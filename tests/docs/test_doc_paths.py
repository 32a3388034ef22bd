"""The documents name only files that exist: a reader who follows a path or a link finds it.

Every relative Markdown link and every backticked repository path (`spec/...`,
`conformance/...`, ...) in README.md, CONTRIBUTING.md, spec/*.md and the folder READMEs must
exist, relative to the repository or to the document. A file moved or deleted without its
mentions fails here instead of misleading a newcomer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted(
    [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "spec").glob("*.md"),
        *ROOT.glob("*/README.md"),
    ]
)
FOLDERS = "spec|reference|generators|conformance|fixtures|tests|benchmarks|\\.ci"
PATH = re.compile(rf"`((?:{FOLDERS})/[A-Za-z0-9_./\-]+)`")
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)#\s]+)")


def mentioned(text: str) -> list[str]:
    found = [m.group(1) for m in PATH.finditer(text)] + [m.group(1) for m in LINK.finditer(text)]
    return [p for p in found if not any(c in p for c in "*<>{}")]


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_every_path_a_document_names_exists(doc: Path) -> None:
    missing = [
        path
        for path in mentioned(doc.read_text("utf-8"))
        if not (ROOT / path).exists() and not (doc.parent / path).exists()
    ]
    assert not missing, f"{doc.relative_to(ROOT)} names files that do not exist: {missing}"
