"""Tiny hostile candidates, one per behaviour the runner must contain: `python hostile_candidate.py
MODE [ARGS...] PATH`. Each is what a careless or cheating candidate could do; the tests in
test_hostile_candidates.py check the runner's verdict on it.

- traceback: dies with ModuleNotFoundError (exit 1, no diagnostic).
- wrong: always answers 987654.
- cheat: finds the case ID (PYTEST_CURRENT_TEST, any variable, the input's path, the working
  directory) and reads the answer from case.toml or the snapshot by relative paths; when it
  finds nothing it answers like `wrong`.
- vandal DELETE EDIT: deletes the file DELETE and appends to EDIT (once), then answers wrong.
- setsid PIDFILE: a grandchild leaves the session (setsid), writes its pid, sleeps 60 s.
- symlink OUTSIDE: links OUTSIDE (a file) and its folder from its working directory and makes
  its folders read-only, so a cleanup that follows links would chmod OUTSIDE.
- hog MB: allocates MB MiB and answers 0.
- env: prints its environment and working directory as JSON.
"""

import json
import os
import re
import sys
import time
from pathlib import Path

mode, args, path = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
WRONG = json.dumps({"reboots": 987654})
ID = re.compile(r"\[([A-Z0-9]{4}|realworld-[a-z0-9-]+)\]|/([A-Z0-9]{4})/")


def case_id():
    texts = [os.environ.get("PYTEST_CURRENT_TEST", ""), *os.environ.values(), path, os.getcwd()]
    for text in texts:
        match = ID.search(text)
        if match:
            return match.group(1) or match.group(2)
    return None


def answer(case):
    here = Path.cwd()
    for base in [here, *here.parents]:
        for corpus in ("fixtures", "../fixtures"):
            meta = base / corpus / case / "case.toml"
            if meta.is_file():
                import tomllib

                return tomllib.loads(meta.read_text(encoding="utf-8"))["expect"]
        for snaps in ("snaps", "conformance/__snapshots__"):
            pinned = base / snaps / "test_expectations" / f"test_expectation[{case}].json"
            if pinned.is_file():
                return json.loads(pinned.read_text(encoding="utf-8"))
    return None


if mode == "traceback":
    import no_such_module_for_this_candidate  # noqa: F401
elif mode == "wrong":
    print(WRONG)
elif mode == "cheat":
    case = case_id()
    expect = answer(case) if case else None
    if expect is None:
        print(WRONG)
    elif expect["outcome"] == "reject":
        print(
            f"error: {path}:{expect.get('line', 0)}: {expect.get('error', 'E-JSON')}: x",
            file=sys.stderr,
        )
        sys.exit(1)
    else:
        print(json.dumps({"reboots": expect["reboots"]}))
elif mode == "vandal":
    delete, edit = Path(args[0]), Path(args[1])
    if delete.exists():
        delete.unlink()
        with edit.open("a", encoding="utf-8") as handle:
            handle.write("\n# vandalised\n")
    print(WRONG)
elif mode == "setsid":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            Path(args[0]).write_text(str(os.getpid()))
            time.sleep(60)
            os._exit(0)
        os._exit(0)
    deadline = time.monotonic() + 10
    while not Path(args[0]).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    print(WRONG)
elif mode == "symlink":
    outside = Path(args[0])
    os.symlink(outside, "link-to-file")
    os.symlink(outside.parent, "link-to-folder")
    os.mkdir("sub")
    os.symlink(outside, "sub/link")
    os.chmod("sub", 0o500)
    os.chmod(".", 0o500)
    print(WRONG)
elif mode == "hog":
    block = bytearray(int(args[0]) << 20)
    print(json.dumps({"reboots": 0, "held": len(block)}))
elif mode == "env":
    print(json.dumps({"env": dict(os.environ), "cwd": os.getcwd(), "files": os.listdir(".")}))
