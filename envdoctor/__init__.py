"""envdoctor: an environment compatibility doctor for GPU and ML machines."""

__version__ = "0.1.0"
