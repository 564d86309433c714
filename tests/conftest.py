"""Shared test fixtures: the real captures in tests/fixtures/real, fake root trees."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


REAL_CAPTURES = TESTS / "fixtures" / "real"


@pytest.fixture(scope="session")
def real_captures() -> Path:
    """tests/fixtures/real: the real captures, each with its source line in SOURCES.md."""
    return REAL_CAPTURES


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


def check_id_of(finding_id: str) -> str:
    """The id of the check that may emit `finding_id`: for "passes" assertions on the passed checks
    (`check_id_of(X) in outcome.passed`), which a check skipped for missing facts cannot satisfy."""
    from envdoctor.checks import load_checks

    # not the triage signatures, which may share a finding id with the check of that layer
    checks = [
        c
        for c in load_checks()
        if finding_id in c.ids and c.function.__module__ != "envdoctor.checks.signatures"
    ]
    # the check named after the finding, else the one check that lists it among its ids
    [chk] = [c for c in checks if c.id == finding_id] or checks
    return chk.id
