"""`python -m reference` runs the reference's command line."""

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
