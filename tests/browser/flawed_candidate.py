"""A candidate with three plausible bugs, so its report has every kind of row to look at.

`python flawed_candidate.py PATH` answers as the bundled reference does, except that it
- counts a rejected file as 0 reboots (a missed error),
- counts every phantom as a reboot too (a wrong count),
- crashes with a traceback on stderr when the reference counts three or more (a crash).
The bugs follow the content of the session, not its name, so any corpus subset with phantoms,
rejections and multiple compactions shows them all.
"""

from __future__ import annotations

import io
import json
import sys

from rebootspec.reference.cli import main


def answer(path: str) -> int:
    out, err = io.StringIO(), io.StringIO()
    code = main(["count", path], out=out, err=err)
    if code == 1:  # a rejection: the flawed counter reads on and finds nothing
        print(json.dumps({"reboots": 0}))
        return 0
    if code != 0:
        sys.stderr.write(err.getvalue())
        return code
    result = json.loads(out.getvalue())
    if result["reboots"] >= 3:
        sys.stderr.write(
            "Traceback (most recent call last):\n"
            '  File "flawed_candidate.py", line 1, in <module>\n'
            "flawed: IndexError: a third compaction is beyond this counter\n"
        )
        return 3
    result["reboots"] += len(result.get("phantoms", []))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(answer(sys.argv[1]))
