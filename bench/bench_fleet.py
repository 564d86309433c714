#!/usr/bin/env python3
"""Benchmark `envdoctor fleet` on 100, 1,000 and 10,000 generated node reports (1x, 10x, 100x).

The node reports are made the way a fleet run makes them (`envdoctor report --no-redact
--node-name NAME`): this machine's own report (its real python.packages, cuda, container …
groups) with the GPU groups of an 8-GPU node — eight records of the real A100-SXM4-80GB
`nvidia-smi -q -x` capture in tests/fixtures/real, each with its own bus id and UUID —
diagnosed by the real checks. Five templates are diagnosed once and copied per node under its own
name: healthy (90 %), an older driver (5 %), an older torch (3 %), row remapping failed on GPU 3
(1 %) and a GPU off the bus (1 %, the real NVSentinel dmesg capture); one report in ten is
Markdown (the JSON embedded), the rest JSON. Each size is one whole `envdoctor fleet DIR --json`
process (a warm-up, then `--runs` runs; wall, CPU, peak RSS), followed by the time of each stage
in-process at that size (read and summarise, aggregate, render).

    python bench/bench_fleet.py [--runs 3] [--factors 1,10,100]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

import scaling  # noqa: E402

BASE_NODES = 100
CAPTURE = "nvidia-smi-q-x/telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml"
DMESG = (
    "misc/dmesg-nvrm-fallen-off-bus-no-xid-open-kernel-module-570.158.01-NVSentinel-issue-155.txt"
)
NODE = "node-name-placeholder"
# template -> share of the nodes (the rest are healthy)
MIX = (("remap", 0.01), ("bus", 0.01), ("old-driver", 0.05), ("old-torch", 0.03))


REAL = REPO / "tests" / "fixtures" / "real"  # the real captures (SOURCES.md: provenance)


def templates(env: dict[str, str], folder: str) -> dict[str, tuple[str, str]]:
    """Template name -> (JSON text, Markdown text) of a diagnosed node report, NODE as its name."""
    from envdoctor.commands.report import build
    from envdoctor.diagnosis.pipeline import diagnose
    from envdoctor.fleet.aggregate import node_group
    from envdoctor.ingest import kernel_log, nvidia_smi_xml
    from envdoctor.model.report import Report
    from envdoctor.model.snapshot import Confidence, Snapshot, collected

    real = REAL
    out = os.path.join(folder, "base.json")
    subprocess.run(
        [sys.executable, "-m", "envdoctor", "report", "--no-redact", "--format", "json", "-o", out],
        env=env,
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
        timeout=120,
    )
    base = Report.from_dict(json.loads(Path(out).read_text(encoding="utf-8"))).snapshot
    driver, [gpu] = nvidia_smi_xml.parse((real / CAPTURE).read_text())
    log = (real / DMESG).read_text()
    rng = random.Random(7)

    def make(
        fault: str | None = None, driver_version: str = "535.54.03", torch: str = "2.5.1+cu121"
    ):
        gpus = []
        for i in range(8):
            record = copy.deepcopy(gpu)
            record.update(
                index=i,
                pci_bus_id=f"0000:{0x18 + 0x10 * i:02x}:00.0",
                mig_mode="disabled",
                mig_devices=[],
                uuid=f"GPU-{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}-"
                f"{rng.getrandbits(16):04x}-{rng.getrandbits(16):04x}-"
                f"{rng.getrandbits(48):012x}",
            )
            gpus.append(record)
        if fault == "remap":
            gpus[3]["remapped_rows"]["failure"] = True
        snap = Snapshot(dict(base.groups), "live", base.created_at, base.envdoctor_version)
        snap.extend(
            nvidia_smi_xml.groups(
                dict(driver, driver_version=driver_version, gpu_count=8),
                gpus,
                "nvml",
                Confidence.HIGH,
            )
        )
        snap.add(
            collected("nvidia.events", "dmesg", kernel_log.parse(log if fault == "bus" else ""))
        )
        snap.add(
            collected(
                "python.torch",
                "probe:torch_build",
                {
                    "version": torch,
                    "variant": "cu121",
                    "backend": "cuda",
                    "build": "cuda",
                    "cuda": "12.1",
                },
            )
        )
        snap.add(node_group(NODE, redacted=False))
        report = diagnose(snap, kind="report")
        return build(report, "json", redact=False)[0], build(report, "markdown", redact=False)[0]

    return {
        "healthy": make(),
        "remap": make("remap"),
        "bus": make("bus"),
        "old-driver": make(driver_version="530.30.02"),
        "old-torch": make(torch="2.3.1+cu121"),
    }


def write_reports(
    forms: dict[str, tuple[str, str]], folder: Path, count: int, seed: int = 7
) -> int:
    """`count` node reports gpu00000.json… (every tenth .md) under `folder`; returns the bytes."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(count):
        roll, kind = rng.random(), "healthy"
        for name, share in MIX:
            if roll < share:
                kind = name
                break
            roll -= share
        node = f"gpu{i:05d}"
        markdown = i % 10 == 0
        text = forms[kind][1 if markdown else 0].replace(NODE, node)
        (folder / f"{node}.{'md' if markdown else 'json'}").write_text(text, encoding="utf-8")
        total += len(text)
    return total


def stages(folder: str) -> dict[str, float | int]:
    """Seconds of each stage of `envdoctor fleet` in this process, and what it found."""
    from envdoctor.commands.fleet import _application_xids, read_reports, report_files
    from envdoctor.fleet.aggregate import aggregate
    from envdoctor.fleet.render import render

    t0 = time.perf_counter()
    files = report_files([folder])
    nodes, unreadable = read_reports(files, application_xids=_application_xids())
    t1 = time.perf_counter()
    fleet = aggregate(nodes, unreadable)
    t2 = time.perf_counter()
    render(fleet, "json")
    t3 = time.perf_counter()
    render(fleet, "markdown")
    t4 = time.perf_counter()
    return {
        "read_s": t1 - t0,
        "aggregate_s": t2 - t1,
        "render_json_s": t3 - t2,
        "render_markdown_s": t4 - t3,
        "nodes": len(fleet.nodes),
        "stacks": len(fleet.groups),
        "faulty": len(fleet.actions),
        "outliers": len({o.node for o in fleet.outliers}),
        "unreadable": len(fleet.unreadable),
    }


def scaled(
    env: dict[str, str],
    work: str,
    envdoctor: list[str] | None = None,
    runs: int = 3,
    factors=scaling.FACTORS,
) -> list[dict]:
    """Time `envdoctor fleet` (the `envdoctor` command line given, else this interpreter's
    `-m envdoctor`) at each factor of BASE_NODES reports; prints and returns the rows."""
    envdoctor = envdoctor or [sys.executable, "-m", "envdoctor"]
    forms = templates(env, work)
    folders: dict[int, str] = {}

    def make(factor: int) -> tuple[str, str]:
        folder = Path(work) / f"fleet-{factor}x"
        written = write_reports(forms, folder, BASE_NODES * factor)
        folders[factor] = str(folder)
        return str(folder), f"{BASE_NODES * factor:,} reports, {written / 1048576:.0f} MiB"

    rows = scaling.time_sizes(
        make,
        lambda path: [*envdoctor, "fleet", path, "--json"],
        env,
        work,
        runs=runs,
        factors=factors,
    )
    scaling.print_sizes(rows)
    print(
        f"(each report {len(forms['healthy'][0]) / 1024:.0f} KiB as JSON, {len(forms['healthy'][1]) / 1024:.0f} KiB "
        f"as Markdown; {os.cpu_count()} CPUs; exit 1 = faulty nodes found, as generated)"
    )
    print(
        "\nin-process stages | read + summarise | aggregate | render JSON | render Markdown | found"
    )
    for row in rows:
        row["stages"] = stages(folders[row["factor"]])
        s = row["stages"]
        print(
            f"{row['factor']}x | {s['read_s']:.2f} s | {s['aggregate_s']:.3f} s | {s['render_json_s']:.3f} s | "
            f"{s['render_markdown_s']:.3f} s | {s['nodes']} nodes, {s['stacks']} stacks, {s['faulty']} faulty, "
            f"{s['outliers']} outliers, {s['unreadable']} unreadable"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Generate the reports and time the fleet command at each size."""
    from run import envdoctor_env

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--factors", default="1,10,100", help="multiples of 100 reports")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="envdoctor-fleet-") as work:
        scaled(
            envdoctor_env(os.path.join(work, "cache")),
            work,
            runs=args.runs,
            factors=tuple(int(x) for x in args.factors.split(",")),
        )
    return 0


if __name__ == "__main__":
    from project import use_project_python

    use_project_python()
    sys.exit(main())
