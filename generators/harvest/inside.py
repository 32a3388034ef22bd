"""The part of a harvest run that runs inside ``unshare -rnmu``: server, host, copy out.

Why a separate process: the user, network and mount namespaces give the run loopback only (the
host cannot reach anything but the scripted server, which therefore runs in here too), a private
tmpfs on ``/home`` so ``HOME=/home/dev`` is empty and generic, and its own host name. Whatever
the host writes under ``/home/dev`` vanishes with the namespace, so the session files and the
server log are copied to the output folder before it ends.

Invoked as ``python -m rebootspec.generators.harvest.inside HOST VERSION SCENARIO INSTALL OUT``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

from . import cline_script, run, script
from .hosts import chat_loop, cline, codex, copilot_cli, gemini, kilo, opencode, pi, qwen_code
from .hosts.common import HOME, PROJECT, HarvestError, Install
from .hosts.result import Outcome
from .server import ScriptedServer

HOSTNAME = "devbox"


def _enter() -> None:
    """Loopback up, a generic host name, a private empty /home with /home/dev in it."""
    steps = [["ip", "link", "set", "lo", "up"], ["mount", "-t", "tmpfs", "tmpfs", "/home"]]
    for argv in steps:
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise HarvestError(f"sandbox set-up failed: {' '.join(argv)}: {done.stderr.strip()}")
    socket.sethostname(HOSTNAME)
    for folder in (HOME, PROJECT, HOME / "tmp"):
        folder.mkdir(parents=True, exist_ok=True)


def main(argv: list[str]) -> int:
    """Run one scenario; write ``result.json`` and the files into OUT; exit 0, or 1 with a note."""
    host, version, scenario, folder, out_text = argv
    out = Path(out_text)
    out.mkdir(parents=True, exist_ok=True)
    result: dict[str, object] = {"host": host, "version": version, "scenario": scenario}
    try:
        _enter()
        if host == "chat-loop":  # its stub agent is the model: no server, its own log
            return _finish(
                out,
                result,
                chat_loop.drive(Install(Path(folder), 0, True), version, scenario, out),
                None,
            )
        log = out / "server-log.jsonl"
        log.unlink(missing_ok=True)
        dump = out / "requests" if os.environ.get("REBOOTSPEC_HARVEST_DUMP") else None
        # Cline's answers are tool uses of its own (cline_script); every other host's, script's.
        decide = cline_script.decide if host == "cline" else script.decide
        # A host of slow processes (Cline CLI: 40 s and more a start) says how long to serve.
        lifetime = getattr(run.HOSTS.get(host), "SERVER_SECONDS", 240)
        server = ScriptedServer(
            max_requests=120, max_seconds=lifetime, log_path=log, dump_dir=dump, decide=decide
        ).start()
        try:
            drivers = {"codex": codex, "gemini": gemini, "opencode": opencode, "kilo": kilo}
            driver = {
                **drivers,
                "copilot-cli": copilot_cli,
                "qwen-code": qwen_code,
                "cline": cline,
            }.get(host, pi)
            outcome = driver.drive(Install(Path(folder), 0, True), version, scenario, server, out)
        finally:
            server.stop()
        return _finish(out, result, outcome, server)
    except HarvestError as error:
        result["error"] = str(error)
    (out / "result.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 1


def _finish(
    out: Path, result: dict[str, object], outcome: Outcome, server: ScriptedServer | None
) -> int:
    """Copy the threads (and the run's other files) out, write ``result.json``; exit 0."""
    try:
        threads = []
        for thread in outcome.threads:
            target = out / thread.path.name
            if thread.path.is_relative_to(out):  # a store's driver copies it out itself
                target = thread.path
            else:
                shutil.copyfile(thread.path, target)
            threads.append(
                {
                    "thread": thread.thread,
                    "role": thread.role,
                    "file": target.relative_to(out).as_posix(),
                    "caused": thread.caused,
                    "home_path": str(thread.path),
                }
            )
        for thread, row in zip(outcome.threads, threads, strict=True):
            if thread.answer:  # the driver's own answer, when it is not the count (BCL-6)
                row["answer"] = thread.answer
        for path in outcome.files:
            shutil.copyfile(path, out / path.name)
        written = sorted(
            p
            for p in HOME.rglob("*")
            if p.is_file() and not {"tmp", "skills", "node_modules"} & set(p.parts)
        )
        result.update(
            home_files=[f"{p.relative_to(HOME)} {p.stat().st_size}" for p in written],
            threads=threads,
            notes=outcome.notes,
            **outcome.record,
        )
        if server is not None:
            result.update(
                summaries=server.summaries(),
                reached_summaries=server.reached(),
                failed_summaries=sum(
                    1 for e in server.entries if e.classification == "summary-failed"
                ),
                requests=len(server.entries),
            )
        code = 0
    except (HarvestError, OSError) as error:
        result["error"] = str(error)
        code = 1
    (out / "result.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
