"""Scripts that run inside a target Python interpreter (`--python PATH`) as well as in envdoctor's
own: standard library only, Python 3.7+, no import of the rest of envdoctor when run as a script.
Probes run them; readers share their rules (which distributions are described)."""
