"""ai-code-sessions (PyPI), a fork of claude-code-transcripts with the same `json FILE -o DIR` and
the same continuation blocks: its harness is claude-code-transcripts' with its own package."""

from __future__ import annotations

from typing import ClassVar

from .claude_code_transcripts import ClaudeCodeTranscripts
from .install import Package


class AiCodeSessions(ClaudeCodeTranscripts):
    name: ClassVar[str] = "ai-code-sessions"
    package: ClassVar[Package] = Package("pypi", "ai-code-sessions", "0.3.1")
    program: ClassVar[str] = "ai-code-sessions"
