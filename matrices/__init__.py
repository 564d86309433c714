"""The bundled compatibility matrices (TOML data in this folder), and their loader's API."""

from envdoctor.matrixset import LintError, Matrix, MatrixSet, lint, load_bundled, load_dir

__all__ = ["LintError", "Matrix", "MatrixSet", "lint", "load_bundled", "load_dir"]
