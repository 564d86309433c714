"""Vendor-table cases: healthy machines get no error, traps get no invalid fix, problems get the
one right remedy — judged from the vendor tables each case cites, on two paths: the live snapshot
and the pasted `collect_env` report (see tests/vendor_cases.py and tests/data/vendor_cases/)."""

from __future__ import annotations

import pytest
from vendor_cases import (
    KINDS,
    Case,
    collect_env_text,
    drivers_named,
    live_snapshot,
    load_cases,
    problems,
)

from envdoctor.commands.triage import triage_text
from envdoctor.diagnose import diagnose
from envdoctor.matrixset import load_bundled

CASES = load_cases()
RUNS = [(case, path) for case in CASES for path in case.paths]


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


@pytest.mark.parametrize("case, path", RUNS, ids=[f"{c.id}-{p}" for c, p in RUNS])
def test_case(case: Case, path: str, ms):
    if path == "live":
        report = diagnose(live_snapshot(case, ms), matrices=ms)
    else:
        report = triage_text(collect_env_text(case))
    found = problems(case, report)
    assert not found, f"{case.id} ({case.kind}, {path}): {case.title}\n" + "\n".join(found)


def test_there_are_at_least_40_cases_of_every_kind():
    assert len(CASES) >= 40
    assert {c.kind for c in CASES} == set(KINDS)
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_case_cites_its_sources_and_asserts_something(case: Case):
    assert case.kind in KINDS
    assert case.sources and all(s.startswith("https://") for s in case.sources)
    assert case.why.strip()
    checks = {
        "no_error",
        "error",
        "finding_ids",
        "absent_finding_ids",
        "fix_must_match",
        "fix_must_not_match",
        "max_driver_branch",
    }
    assert checks & set(case.expect), f"{case.id} asserts nothing"
    assert set(case.expect) <= checks | {"paths"}, set(case.expect) - checks
    if case.kind == "healthy":
        assert case.expect.get("no_error") is True
    if case.kind == "trap":
        assert case.expect.get("fix_must_not_match") or case.expect.get("max_driver_branch")
    assert set(case.paths) <= {"live", "paste"} and case.paths


def test_driver_numbers_in_fix_texts():
    assert drivers_named("Upgrade the NVIDIA driver to 525 or newer") == [525]
    assert drivers_named("sudo apt install nvidia-driver-535") == [535]
    assert drivers_named("needs a 580+ driver; yours was not given") == [580]
    assert drivers_named("install a 525 or newer driver") == [525]
    assert drivers_named("a R580 driver") == [580]
    assert drivers_named("runs on driver 470.256.02") == [470]
    assert drivers_named("pip install torch==2.1.0 --index-url .../cu118") == []
