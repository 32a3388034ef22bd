"""A scriptable misbehaving candidate: `python fake_candidate.py PLAN.json PATH`.

PLAN maps the SHA-256 of an input (or "*") to what to do: count N (with `extra` members beside
it), reject, hang, crash, abort, garbage, spew. It also refuses (exit 3) an input that is not a
read-only copy.
"""

import hashlib
import json
import os
import sys
import time

with open(sys.argv[1], encoding="utf-8") as handle:
    plan = json.load(handle)
path = sys.argv[2]
with open(path, "rb") as handle:
    data = handle.read()
if os.stat(path).st_mode & 0o777 != 0o444:
    sys.exit(3)
step = plan.get(hashlib.sha256(data).hexdigest(), plan.get("*"))
what = step["do"]
if what == "count":
    print(json.dumps({"reboots": step["n"], "note": "fake", **step.get("extra", {})}))
elif what == "reject":
    print(f"error: {path}:0: E-EMPTY: fake", file=sys.stderr)
    sys.exit(1)
elif what == "hang":
    time.sleep(600)
elif what == "crash":
    print("fake crash", file=sys.stderr)
    os._exit(3)
elif what == "abort":
    os.abort()
elif what == "garbage":
    print("\x00\x01 not json at all")
elif what == "spew":
    while True:
        sys.stdout.write("x" * 65536)
elif what == "truncate":
    with open(path, "wb") as handle:  # as root, a mode is no barrier: the copy must be private
        pass
    print(json.dumps({"reboots": 0}))
