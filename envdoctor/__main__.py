"""`python -m envdoctor` runs the command-line interface."""

from envdoctor.cli import entry

entry()
