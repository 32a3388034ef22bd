"""Where the spec's data files are, in a checkout and in an installed wheel alike.

Why one place: the reference reads `spec/hosts.toml` (the registry, HST-1) and `spec/eras.toml`
(VS Code's era table) as data; the folder `reference/` maps to `rebootspec.reference` and `spec/`
to `rebootspec.spec`, so the spec folder is the reference package's sibling in both layouts.
os.path, not pathlib: this runs on every count, and pathlib costs start-up time.
"""

from __future__ import annotations

import os

SPEC_DIR = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "spec"
)
HOSTS_FILE = os.path.join(SPEC_DIR, "hosts.toml")
