"""In-process candidates for the fuzzer's tests: fast, and wrong (or right) in known ways."""

from __future__ import annotations

import importlib.util
import json
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from rebootspec.conformance.runner.answers import AnswerReader, JsonPointerReader
from rebootspec.conformance.runner.candidates import ReferenceCandidate
from rebootspec.conformance.runner.outcome import RunResult

FAKE_SCRIPT = Path(__file__).with_name("fake_ignores_i.py")


def load_fake() -> ModuleType:
    """The fake counter script as a module (it is not on sys.path)."""
    spec = importlib.util.spec_from_file_location("fake_ignores_i", FAKE_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class IgnoresI:
    """fake_ignores_i.py called in process; an exception is a crash (exit 3), as a subprocess
    with a traceback would be for the runner."""

    def describe(self) -> list[str]:
        return ["fake: ignores i (in process)"]

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader()

    def run(self, source: Path, timeout: float) -> RunResult:
        fake = load_fake()
        try:
            count = fake.count(source)
        except Exception as error:
            return RunResult(exit_code=3, stderr=f"{type(error).__name__}: {error}")
        return RunResult(exit_code=0, stdout=json.dumps({"reboots": count}))


@dataclass(frozen=True)
class RejectsTornTails:
    """The reference, except that a log without a final newline is rejected (exit 1)."""

    def describe(self) -> list[str]:
        return ["fake: rejects torn tails"]

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader()

    def run(self, source: Path, timeout: float) -> RunResult:
        data = source.read_bytes()
        if source.suffix == ".jsonl" and not data.endswith(b"\n"):
            line = data.count(b"\n") + 1
            return RunResult(exit_code=1, stderr=f"error: {source}:{line}: E-JSON: torn tail\n")
        return ReferenceCandidate().run(source, timeout)


@dataclass(frozen=True)
class SlowReference:
    """The reference, taking `delay` seconds per case (for the time budget)."""

    delay: float

    def describe(self) -> list[str]:
        return ["slow reference"]

    def default_reader(self) -> AnswerReader:
        return JsonPointerReader()

    def run(self, source: Path, timeout: float) -> RunResult:
        time.sleep(self.delay)
        return ReferenceCandidate().run(source, timeout)
