"""`python -m reference` runs the reference's command line."""

import sys

from reference.cli import main

sys.exit(main(sys.argv[1:]))
