"""Build the documentation site offline: `python docs/site/build.py --out site` (`tox -e docs`).

The pages stay where they are in the repository (README.md, docs/, spec/, CONTRIBUTING.md and
the folder READMEs), so their links work on a forge and in the site alike; this script copies
them into one tree (the README as index.md), adds the pages that are made, not written (the
last corpus report: `rebootspec run --report-dir` against the bundled reference), fills the
host chapters of the navigation from the registry (spec/hosts.toml), and runs mkdocs (strict:
a broken link or anchor fails the build). Then it checks that every rule ID of the spec is an
anchor of the built site, so `SPEC.html#RBT-3` always lands.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# What the site holds, as the repository holds it (globs relative to the checkout).
PAGES = (
    "CONTRIBUTING.md",
    "docs/*.md",
    "spec/*.md",
    "spec/hosts/*.md",
    "*/README.md",
    "conformance/reports/qhoami-report.png",
)
REPORT_PAGE = "report.md"


def assemble(tree: Path) -> None:
    """Copy the pages into `tree`, the README as index.md."""
    shutil.copyfile(ROOT / "README.md", tree / "index.md")
    for pattern in PAGES:
        for source in sorted(ROOT.glob(pattern)):
            target = tree / source.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


def corpus_report(tree: Path) -> None:
    """The last corpus report: the whole corpus against the bundled reference, as report.md."""
    with tempfile.TemporaryDirectory(prefix="rebootspec-site-") as scratch:
        done = subprocess.run(
            [sys.executable, "-m", "rebootspec.conformance", "run", "--report-dir", scratch,
             "-q", "-p", "no:cacheprovider"],
            capture_output=True, text=True, timeout=600, check=False, cwd=scratch,
        )  # fmt: skip
        report = Path(scratch) / "report.md"
        if not report.is_file():
            raise SystemExit(f"error: the corpus run wrote no report:\n{done.stdout[-2000:]}")
        text = report.read_text("utf-8")
    intro = (
        "The conformance suite run over the whole corpus against the bundled reference when "
        "this site was built (`rebootspec run --report-dir DIR`); a candidate's report has the "
        "same shape.\n\n"
    )
    title, _, rest = text.partition("\n")
    (tree / REPORT_PAGE).write_text(f"{title}\n\n{intro}{rest.lstrip()}", "utf-8")


def host_nav() -> list[dict[str, str]]:
    """One navigation entry per host chapter, in the registry's order (a family shares one)."""
    from rebootspec.reference.core.registry import hosts

    names: dict[str, list[str]] = {}
    for host in hosts():
        names.setdefault(host.chapter, []).append(host.name)
    return [{", ".join(each): f"spec/{chapter}"} for chapter, each in names.items()]


def config(tree: Path) -> Path:
    """mkdocs.yml for the tree: docs_dir is the tree, the hosts' chapters in the navigation."""
    import yaml

    settings = yaml.safe_load((HERE / "mkdocs.yml").read_text("utf-8"))
    settings["docs_dir"] = str(tree)
    settings["hooks"] = [str(HERE / "hooks.py")]
    _fill(settings["nav"], "Hosts", host_nav())
    path = tree.parent / "mkdocs.yml"
    path.write_text(yaml.safe_dump(settings, sort_keys=False), "utf-8")
    return path


def _fill(nav: object, title: str, entries: list[dict[str, str]]) -> None:
    """Put `entries` under the navigation section called `title`, however deep it is."""
    if isinstance(nav, list):
        for item in nav:
            _fill(item, title, entries)
    elif isinstance(nav, dict):
        for key, value in nav.items():
            if key == title:
                nav[key] = entries
            else:
                _fill(value, title, entries)


def spec_rule_ids() -> set[str]:
    """Every rule ID the spec defines: its rule headings and rule items."""
    sys.path.insert(0, str(HERE))
    from hooks import rule_ids

    found: set[str] = set()
    for page in [*ROOT.glob("spec/*.md"), *ROOT.glob("spec/hosts/*.md")]:
        found.update(rule_ids(page.read_text("utf-8")))
    return found


def missing_anchors(site: Path) -> list[str]:
    ids: set[str] = set()
    for page in site.rglob("*.html"):
        ids.update(re.findall(r'\bid="([A-Z]{2,4}-\d+)"', page.read_text("utf-8")))
    return sorted(spec_rule_ids() - ids)


def build(out: Path) -> int:
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    with tempfile.TemporaryDirectory(prefix="rebootspec-pages-") as scratch:
        tree = Path(scratch) / "pages"
        tree.mkdir()
        assemble(tree)
        corpus_report(tree)
        settings = load_config(config_file=str(config(tree)), site_dir=str(out.resolve()))
        mkdocs_build(settings)
    missing = missing_anchors(out)
    if missing:
        sys.stderr.write(f"error: rule IDs without an anchor in the site: {missing}\n")
        return 1
    pages = sum(1 for _ in out.rglob("*.html"))
    print(f"built {pages} pages into {out}; {len(spec_rule_ids())} rule IDs are anchors")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="the site's folder")
    return build(parser.parse_args(argv).out)


if __name__ == "__main__":
    sys.exit(main())
