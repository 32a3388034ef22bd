"""Where the Chromium that opens the HTML report lives, or why there is none.

Playwright's own browser download cannot run on every machine (CI here reaches package
registries only), so the tests and the screenshot script drive a system Chromium through
Playwright's `executable_path`: Debian's `chromium` package, or whatever REBOOTSPEC_CHROMIUM
names.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ENV = "REBOOTSPEC_CHROMIUM"
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL = f"apt-get install chromium, or set {ENV}=/path"


def find_chromium() -> tuple[str | None, str]:
    """(the browser's path, "") or (None, a one-line reason naming what is missing)."""
    chosen = os.environ.get(ENV)
    if chosen:
        path = Path(chosen)
        if path.is_file() and os.access(path, os.X_OK):
            return str(path), ""
        return None, f"{ENV}={chosen} is not an executable file ({INSTALL})"
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found, ""
    return None, f"no Chromium found ({INSTALL})"
