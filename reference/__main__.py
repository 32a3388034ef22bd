"""`python -m reference` runs the reference's command line."""

import sys

from .cli import main
from .core.endings import program

sys.exit(program(lambda: main(sys.argv[1:])))
