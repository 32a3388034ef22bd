"""Models of the writers of the hosts other than VS Code (spec 3.0): Codex CLI and pi.

Each module restates, from the host's own source, what its writer puts on disk per era, so the
corpus can hold files shaped like the real ones. A *plan* (`plan.py`) lists what happened in a
thread; the expected count comes from that plan, never from reading the bytes back.
"""
