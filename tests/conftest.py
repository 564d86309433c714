"""Shared test fixtures: the real captures in tests/fixtures/real, fake root trees."""

from __future__ import annotations

import os
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


# -- recording every finding the tests build (for the translation audit) -----------------------
# ENVDOCTOR_RECORD_FINDINGS=FILE: every Finding constructed during the run is written to FILE as
# JSON at the end, so tests/test_i18n.py can render each check's failing fixtures in Chinese.


def pytest_configure(config):  # noqa: ANN001, ANN201
    path = os.environ.get("ENVDOCTOR_RECORD_FINDINGS")
    if not path:
        return
    from envdoctor.model import findings

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
