"""`python -m envdoctor` runs the command-line interface."""

import sys

from envdoctor.cli import main

sys.exit(main())
