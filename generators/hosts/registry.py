"""Every host's adapter to the one case builder (`corpus/cases.py`), VS Code's first.

Adding a host is a package `hosts/<host>/` (plan, writer, scenarios, `case.py`) and its line
here; the build, the ID tools and `list` then have its cases.
"""

from __future__ import annotations

from .chat_loop.case import ADAPTER as CHAT_LOOP
from .claude_code.case import ADAPTER as CLAUDE_CODE
from .cline.case import ADAPTER as CLINE
from .codex.case import ADAPTER as CODEX
from .copilot_cli.case import ADAPTER as COPILOT_CLI
from .gemini_cli.case import ADAPTER as GEMINI_CLI
from .nohost.case import ADAPTER as NO_HOST
from .opencode.case import ADAPTER as OPENCODE
from .pi.case import ADAPTER as PI
from .scenario import Adapter
from .vscode.case import ADAPTER as VSCODE

ADAPTERS: tuple[Adapter, ...] = (
    VSCODE,
    CODEX,
    PI,
    CLAUDE_CODE,
    GEMINI_CLI,
    CHAT_LOOP,
    NO_HOST,
    OPENCODE,
    COPILOT_CLI,
    CLINE,
)
