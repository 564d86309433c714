"""The checks index (checks/index.json) that lets preflight import only the check modules it needs."""

from __future__ import annotations

import json
import subprocess
import sys

import envdoctor.checks as checks
from envdoctor.checks import (
    CHECK_MODULES,
    build_index,
    modules_emitting,
    modules_runnable,
    read_index,
)


def test_index_equals_the_registry():
    """Fails when a check's ids or needs changed without `python -m envdoctor.checks`."""
    assert read_index() == build_index(), (
        "checks/index.json is stale: run `python -m envdoctor.checks`"
    )


def test_emitting_names_the_modules_of_a_finding_id():
    modules = modules_emitting({"nvidia.driver-library-mismatch"}, CHECK_MODULES)
    assert modules == ("nvidia_driver_load", "signatures")  # the live check and the pasted-text one
    assert modules_emitting({"no.such-finding"}, CHECK_MODULES) == ()


def test_runnable_needs_every_group_and_one_of_needs_any():
    collected = {"nvidia.driver", "python", "python.packages"}
    modules = modules_runnable(collected, CHECK_MODULES)
    assert "nvidia_driver_load" in modules  # needs_any nvidia.driver
    assert "nvidia_health" not in modules  # needs nvidia.gpus
    assert "python_versions" in modules  # needs python + python.packages
    touching = modules_runnable(collected, CHECK_MODULES, touching={"nvidia.driver"})
    assert "nvidia_driver_load" in touching and "python_versions" not in touching
    assert modules_runnable(set(), CHECK_MODULES, touching=set()) == ()


def test_stale_or_missing_index_means_every_module(monkeypatch, tmp_path):
    monkeypatch.setattr(checks, "__file__", str(tmp_path / "__init__.py"))
    assert read_index() is None
    assert modules_emitting({"nvidia.xid-79"}, CHECK_MODULES) == CHECK_MODULES
    (tmp_path / "index.json").write_text(json.dumps({"nvidia_xid": []}))  # lacks the other modules
    assert read_index() is None
    (tmp_path / "index.json").write_bytes(b"\x00\xff garbage")
    assert read_index() is None and modules_runnable(set(), CHECK_MODULES) == CHECK_MODULES


def test_a_finding_requirement_imports_only_its_module():
    """`no:ID` on the preflight path imports the module that emits ID, not the registry."""
    code = (
        "import sys; from envdoctor.commands import preflight as p; "
        "from envdoctor.requirements.parse import parse_requirements as r; "
        "p.judge(r(['no:nvidia.driver-library-mismatch']), timeout_s=10); "
        "print(sorted(m for m in sys.modules if m.startswith('envdoctor.checks.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    loaded = eval(out.stdout)  # a printed list of module names
    assert "envdoctor.checks.nvidia_driver_load" in loaded
    assert (
        "envdoctor.checks.apps_vllm" not in loaded and "envdoctor.checks.signatures" not in loaded
    )


def _outcome_key(outcome):
    return (
        [(f.id, f.severity.value, f.title) for f in outcome.findings],
        outcome.passed,
        [(s.id, s.reason, s.not_present) for s in outcome.skipped],
        outcome.not_applicable,
    )


def _both_ways(snapshot, modules=None):
    from envdoctor.checks import load_checks, load_checks_for
    from envdoctor.diagnosis.engine import run_checks
    from envdoctor.diagnosis.pipeline import active_matrices

    matrices = active_matrices()
    collected = {name for name in snapshot.groups if snapshot.has(name)}
    eager = run_checks(snapshot, matrices, load_checks(modules))
    lazy = run_checks(snapshot, matrices, load_checks_for(collected, modules))
    return _outcome_key(eager), _outcome_key(lazy)


def test_lazy_registry_gives_the_same_outcome_on_this_machine():
    """Importing only the runnable modules changes nothing in what the checks say (live snapshot)."""
    from envdoctor.diagnosis.pipeline import collect_live
    from envdoctor.probes.context import ProbeOptions

    live = tuple(m for m in CHECK_MODULES if m not in checks.TEXT_ONLY_CHECK_MODULES)
    eager, lazy = _both_ways(collect_live(ProbeOptions(timeout_s=20)), live)
    assert eager == lazy and eager[2], "expected some skipped checks on a machine without a GPU"


def test_lazy_registry_gives_the_same_outcome_on_pasted_reports():
    """The same on the snapshots of the real pasted reports of the triage corpus."""
    from pathlib import Path

    from envdoctor.ingest import ingest_text

    corpus = sorted((Path(__file__).parent / "triage_corpus").glob("*.txt"))[:40]
    assert corpus
    for path in corpus:
        eager, lazy = _both_ways(ingest_text(path.read_text(encoding="utf-8", errors="replace")))
        assert eager == lazy, path.name
