"""`python -m reference` runs the reference's command line."""

import sys

from .cli import main
from .core.endings import guarded

sys.exit(guarded(lambda: main(sys.argv[1:])))
