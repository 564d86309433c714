"""The bundled compatibility matrices (TOML data in this folder), and their loader's API."""

from envdoctor.matrix.loader import LintError, Matrix, MatrixSet, lint, load_bundled, load_dir

__all__ = ["LintError", "Matrix", "MatrixSet", "lint", "load_bundled", "load_dir"]
