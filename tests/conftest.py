"""Shared test fixtures: the real captures in ../shared/fixtures/real, fake root trees."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


def shared_dir() -> Path | None:
    """The shared/ folder beside the checkout (ENVDOCTOR_SHARED overrides)."""
    override = os.environ.get("ENVDOCTOR_SHARED")
    candidates = [Path(override)] if override else []
    candidates += [REPO.parent / "shared", REPO / "shared"]
    for candidate in candidates:
        if (candidate / "fixtures" / "real").is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def real_captures() -> Path:
    """../shared/fixtures/real: required in CI, skipped elsewhere when absent."""
    shared = shared_dir()
    if shared is None:
        if os.environ.get("CI"):
            pytest.fail("shared/fixtures/real is missing beside the checkout (required in CI)")
        pytest.skip("shared/fixtures/real not found beside the checkout")
    return shared / "fixtures" / "real"


@pytest.fixture()
def fake_root(tmp_path: Path):
    """A factory that writes files into a fake root tree: fake_root({"/etc/os-release": "..."})."""

    def build(files: dict[str, str | bytes], symlinks: dict[str, str] | None = None) -> Path:
        root = tmp_path / "root"
        root.mkdir(exist_ok=True)
        for path, content in files.items():
            target = root / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content)
        for link, points_to in (symlinks or {}).items():
            target = root / link.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(points_to)
        return root

    return build


@pytest.fixture()
def fake_tools(tmp_path: Path):
    """A factory for fake executables on a private PATH: fake_tools({"nvidia-smi": "#!/bin/sh\\n..."})."""

    def build(tools: dict[str, str]) -> str:
        bindir = tmp_path / "bin"
        bindir.mkdir(exist_ok=True)
        for name, script in tools.items():
            path = bindir / name
            path.write_text(script)
            path.chmod(0o755)
        return str(bindir)

    return build


# The real Docker daemon of the container tests (a session fixture; see tests/docker_daemon.py).
from docker_daemon import docker_daemon  # noqa: E402,F401

# -- recording every finding the tests build (for the translation audit) -----------------------
# ENVDOCTOR_RECORD_FINDINGS=FILE: every Finding constructed during the run is written to FILE as
# JSON at the end, so tests/test_i18n.py can render each check's failing fixtures in Chinese.


def pytest_configure(config):  # noqa: ANN001, ANN201
    path = os.environ.get("ENVDOCTOR_RECORD_FINDINGS")
    if not path:
        return
    from envdoctor import findings

    original = findings.Finding.__init__
    recorded: list = []

    def recording_init(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        original(self, *args, **kwargs)
        recorded.append(self)

    findings.Finding.__init__ = recording_init  # type: ignore[method-assign]
    config._envdoctor_recorded = (path, recorded)


def pytest_unconfigure(config):  # noqa: ANN001, ANN201
    found = getattr(config, "_envdoctor_recorded", None)
    if found is None:
        return
    import json

    path, recorded = found
    unique = {}
    for finding in recorded:
        try:
            doc = finding.to_dict()
        except Exception:  # noqa: BLE001 - a half-built test finding is not the audit's business
            continue
        unique[json.dumps(doc, sort_keys=True)] = doc
    Path(path).write_text(json.dumps(list(unique.values())), encoding="utf-8")
