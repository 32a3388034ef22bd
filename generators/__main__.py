"""`python -m rebootspec.generators`: build, lint, new-id, list, big (corpus maintenance) and
harvest (real hosts write real session files; needs npm).

The contribution tools are `rebootspec anonymize` and `rebootspec add-fixture`.
"""

from __future__ import annotations

import argparse
import sys

from .corpus import ids


def _list() -> int:
    """Every generated case of every host: its ID, key, container and planned answer."""
    from .corpus.cases import generate, pairs

    table = ids.registry()
    for scenario, era in pairs():
        key = f"{scenario.name}/{era}"
        case = generate(scenario, era, table.get(key, "----"))
        answer = case.expect.get("reboots", case.expect.get("error"))
        print(f"{case.id}  {key:<44} {case.container:<5} {answer!s:>6}")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["harvest"]:  # its own parser: many options, and none of the corpus's
        from .harvest import cli

        return cli.main(argv[1:])
    if argv[:1] == ["harvest-cases"]:  # the curated harvest -> corpus cases (issue 23)
        from .harvest import corpus

        return corpus.main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m rebootspec.generators", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="write the generated cases into fixtures/")
    build.add_argument("--check", action="store_true", help="compare with fixtures/, write nothing")
    build.add_argument("--only", metavar="ID", help="only the case with this ID")
    build.add_argument(
        "--assign-ids", action="store_true", help="choose IDs for new scenario/era pairs first"
    )
    commands.add_parser("lint", help="check IDs, metadata and rule/tag coverage of fixtures/")
    new = commands.add_parser("new-id", help="print fresh random case IDs")
    new.add_argument("count", nargs="?", type=int, default=1)
    commands.add_parser("list", help="list the generated cases and their expected counts")
    big = commands.add_parser("big", help="write a big realistic session (not for the corpus)")
    big.add_argument("--size-mb", type=float, required=True)
    big.add_argument("--seed", type=int, default=1)
    big.add_argument("--out", required=True, help="the .jsonl file to write")
    big_host = commands.add_parser(
        "big-host",
        help="write a big Codex rollout, pi session, Claude Code transcript or Gemini CLI chat "
        "(not for the corpus)",
    )
    big_host.add_argument("--host", choices=("codex", "pi", "claude-code", "gemini"), required=True)
    big_host.add_argument("--size-mb", type=float, required=True)
    big_host.add_argument("--seed", type=int, default=1)
    big_host.add_argument("--out", required=True, help="the .jsonl file to write")
    commands.add_parser("harvest", help="real Codex/pi runs against a scripted model (needs npm)")
    commands.add_parser(
        "harvest-cases", help="the curated harvested files as corpus cases (--check compares)"
    )
    args = parser.parse_args(argv)
    if args.command == "build":
        from .corpus import build as build_module

        return build_module.main(args.check, args.only, args.assign_ids)
    if args.command == "lint":
        from .corpus import lint

        return lint.main()
    if args.command == "new-id":
        used = ids.taken()
        for _ in range(args.count):
            fresh = ids.new_id(used)
            used.add(fresh)
            print(fresh)
        return 0
    if args.command == "big":
        from pathlib import Path

        from .hosts.vscode.big import write_big_session

        expected = write_big_session(Path(args.out), args.size_mb, args.seed)
        print(f"wrote {args.out}: expected reboots {expected} (from the plan)")
        return 0
    if args.command == "big-host":
        from pathlib import Path

        from .hosts import big as big_files

        writer = {
            "codex": big_files.write_big_codex,
            "pi": big_files.write_big_pi,
            "claude-code": big_files.write_big_claude,
            "gemini": big_files.write_big_gemini,
        }[args.host]
        expected = writer(Path(args.out), args.size_mb, args.seed)
        print(f"wrote {args.out}: expected reboots {expected} (from the plan)")
        return 0
    return _list()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
