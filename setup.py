"""Build step: compile the gettext catalogs (envdoctor/i18n/locale/*/LC_MESSAGES/*.po) into the
.mo files gettext reads, so an installed envdoctor does not parse .po files at start-up.
Everything else about the package is in pyproject.toml."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    """build_py, then a .mo beside each .po in the build tree."""

    def run(self) -> None:
        super().run()
        here = Path(__file__).resolve().parent
        spec = importlib.util.spec_from_file_location(
            "_envdoctor_catalog", here / "envdoctor" / "i18n" / "catalog.py"
        )
        assert spec and spec.loader
        catalog = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = catalog  # dataclasses look their module up while defining
        spec.loader.exec_module(catalog)
        for po in (here / "envdoctor" / "i18n" / "locale").glob("*/LC_MESSAGES/*.po"):
            relative = po.relative_to(here)
            target = Path(self.build_lib) / relative.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            _, entries = catalog.read_po(po)
            target.write_bytes(catalog.compile_mo(catalog.translated(entries)))


setup(cmdclass={"build_py": BuildWithCatalogs})
