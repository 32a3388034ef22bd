"""Make this folder's helper (fake_homes) importable under any pytest import mode."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
