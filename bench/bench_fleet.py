#!/usr/bin/env python3
"""Benchmark `envdoctor fleet` on 100, 1,000 and 10,000 generated node reports (1x, 10x, 100x).

The node reports are real ones made heavier: this machine's own `envdoctor report --format json`
(a whole redacted report with its raw captures), with the `nvidia.driver` and `nvidia.gpus`
groups that `envdoctor triage` reads from a real `nvidia-smi -q -x` capture of an A100 node
(../shared/fixtures/real/nvidia-smi-q-x). Every node gets its own name; one in 97 runs an older
driver, one in 500 carries an uncorrected-ECC finding, so the outlier and fault sections fill.
Each size is one whole `envdoctor fleet DIR --json` process (a warm-up, then `--runs` runs).

    python bench/bench_fleet.py [--runs 3] [--factors 1,10,100]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

import scaling  # noqa: E402

BASE_NODES = 100
CAPTURE = "nvidia-smi-q-x/telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml"


def shared_capture() -> Path | None:
    """The real nvidia-smi XML capture, from ../shared (ENVDOCTOR_SHARED overrides)."""
    roots = [Path(os.environ["ENVDOCTOR_SHARED"])] if os.environ.get("ENVDOCTOR_SHARED") else []
    roots += [REPO.parent / "shared", REPO / "shared"]
    for root in roots:
        path = root / "fixtures" / "real" / CAPTURE
        if path.is_file():
            return path
    return None


def base_report(env: dict[str, str], folder: str) -> dict:
    """This machine's report document, with the GPU groups of the real A100 capture."""
    out = os.path.join(folder, "base.json")
    envdoctor = [sys.executable, "-m", "envdoctor"]
    subprocess.run(envdoctor + ["report", "--format", "json", "-o", out], env=env, cwd=folder,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=120)
    doc = json.loads(Path(out).read_text(encoding="utf-8"))
    capture = shared_capture()
    if capture is not None:
        pasted = subprocess.run(envdoctor + ["triage", str(capture), "--json"], env=env, cwd=folder,
                                capture_output=True, text=True, timeout=120)
        groups = json.loads(pasted.stdout)["snapshot"]["groups"]
        for name in ("nvidia.driver", "nvidia.gpus"):
            if name in groups:
                doc["snapshot"]["groups"][name] = groups[name]
    return doc


def ecc_finding() -> dict:
    """An uncorrected-ECC finding as a report carries it (a GPU health fault for the fleet)."""
    from envdoctor.findings import Evidence, Finding, Severity

    finding = Finding(id="nvidia.ecc-uncorrected", severity=Severity.ERROR,
                      title="GPU 0 has uncorrected ECC errors",
                      detail="Volatile uncorrected ECC errors were counted on GPU 00000000:07:00.0.",
                      evidence=(Evidence("nvidia.gpus[0].ecc.volatile_uncorrected", "2", "0"),))
    return finding.to_dict()


def write_reports(base: dict, folder: Path, count: int) -> None:
    """`count` node reports named gpu00000.json… under `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    fault = ecc_finding()
    groups = base["snapshot"]["groups"]
    driver = groups.get("nvidia.driver", {}).get("data", {})
    plain = json.dumps(base, sort_keys=True)
    older = copy.deepcopy(base)
    if driver:
        older["snapshot"]["groups"]["nvidia.driver"]["data"]["driver_version"] = "525.147.05"
    older_text = json.dumps(older, sort_keys=True)
    faulty = copy.deepcopy(base)
    faulty["findings"] = [fault] + list(faulty.get("findings", []))
    faulty_text = json.dumps(faulty, sort_keys=True)
    for i in range(count):
        text = faulty_text if i % 500 == 499 else older_text if i % 97 == 96 else plain
        (folder / f"gpu{i:05d}.json").write_text(text, encoding="utf-8")


def scaled(env: dict[str, str], work: str, runs: int = 3, factors=scaling.FACTORS) -> list[dict]:
    """Time `envdoctor fleet` at each factor of BASE_NODES reports; prints and returns the rows."""
    base = base_report(env, work)
    size = len(json.dumps(base))

    def make(factor: int) -> tuple[str, str]:
        folder = Path(work) / f"fleet-{factor}x"
        write_reports(base, folder, BASE_NODES * factor)
        mib = BASE_NODES * factor * size / 1048576
        return str(folder), f"{BASE_NODES * factor:,} reports, {mib:.0f} MiB"

    rows = scaling.time_sizes(make, lambda path: [sys.executable, "-m", "envdoctor", "fleet", path, "--json"],
                              env, work, runs=runs, factors=factors)
    scaling.print_sizes(rows)
    print(f"(each report {size / 1024:.0f} KiB; exit 1 = faulty nodes found, as generated)")
    return rows


def main(argv: list[str] | None = None) -> int:
    """Generate the reports and time the fleet command at each size."""
    from run import envdoctor_env

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--factors", default="1,10,100", help="multiples of 100 reports")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="envdoctor-fleet-") as work:
        scaled(envdoctor_env(os.path.join(work, "pycache")), work, args.runs,
               tuple(int(x) for x in args.factors.split(",")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
