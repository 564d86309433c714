"""Node reports for the fleet and Prometheus tests, built from real captures through the real
pipeline: `nvidia-smi -q -x` XML and dmesg captures (tests/fixtures/real) read by envdoctor's
own readers, diagnosed by the real checks, and rendered by the same `build` that `envdoctor
report` uses (redacted or not). Only the stack around the GPUs (torch, toolkit) is typed here.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from envdoctor.commands.report import build
from envdoctor.diagnosis.pipeline import diagnose
from envdoctor.fleet.aggregate import node_group
from envdoctor.ingest import kernel_log, nvidia_smi_xml
from envdoctor.model.report import Report
from envdoctor.model.snapshot import Confidence, Snapshot, absent, collected

K80 = "openpai-tesla-k80-x4-driver-430.26-cuda-not-found.xml"  # 4 GPUs, 2 with lifetime uncorrected ECC errors
A100 = "telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml"
T4 = "telegraf-tesla-t4-driver-515.105.01.xml"
A10G = "telegraf-a10g-driver-515.105.01.xml"
RTX3090 = "telegraf-geforce-rtx3090-driver-525.147.05.xml"
FALLEN_OFF_BUS = (
    "dmesg-nvrm-fallen-off-bus-no-xid-open-kernel-module-570.158.01-NVSentinel-issue-155.txt"
)
APP_XIDS = "TRUNCATED-dmesg-T-nvrm-loading-535.183.01-xid-43-31-94-akash-support-issue-244.txt"

NO_DRIVER = (
    "no NVIDIA driver: NVML: NVML Shared Library Not Found, nvidia-smi not found, no /proc/driver/nvidia, "
    "no libnvidia-ml or libcuda on the system"
)
UBUNTU = {
    "system": "Linux",
    "distro_id": "ubuntu",
    "distro_version": "22.04",
    "distro_like": ["debian"],
    "distro_name": "Ubuntu 22.04.4 LTS",
    "kernel": "5.15.0-105-generic",
    "arch": "x86_64",
}


def gpus_from(captures: Path, xml: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(driver record, GPU records) of a real nvidia-smi XML capture."""
    return nvidia_smi_xml.parse((captures / "nvidia-smi-q-x" / xml).read_text())


def node_report(
    captures: Path,
    xml: str | None,
    *,
    node: str | None = None,
    dmesg: str | None = None,
    torch: str | None = "2.5.1+cu124",
    toolkit: str | None = "12.4.131",
    created_at: str = "2026-12-01T08:00:00+00:00",
    mutate: Callable[[list[dict[str, Any]]], None] | None = None,
    redacted: bool = False,
) -> Report:
    """A diagnosed report of one node: the GPUs and driver of `xml`, the kernel log of `dmesg`."""
    snap = Snapshot(origin="live", created_at=created_at, envdoctor_version="0.1.0")
    snap.add(collected("os", "probe:os_info", dict(UBUNTU), summary="Ubuntu 22.04.4 LTS"))
    if xml is not None:
        driver, gpus = gpus_from(captures, xml)
        gpus = copy.deepcopy(gpus)
        if mutate is not None:
            mutate(gpus)
        snap.extend(nvidia_smi_xml.groups(driver, gpus, "nvidia-smi", Confidence.HIGH))
        raw = (captures / "nvidia-smi-q-x" / xml).read_text()
        snap.groups["nvidia.gpus"].raw["nvidia-smi -q -x"] = raw
    else:  # what the live probe says on a machine without a driver (this repository's CI)
        snap.add(absent("nvidia.driver", "nvml", NO_DRIVER))
        snap.add(absent("nvidia.gpus", "nvml", f"no GPU facts without a driver ({NO_DRIVER})"))
    log = (captures / "misc" / dmesg).read_text() if dmesg else ""
    snap.add(collected("nvidia.events", "dmesg", kernel_log.parse(log), summary="kernel log"))
    if torch:
        variant = torch.split("+", 1)[1] if "+" in torch else None
        snap.add(
            collected(
                "python.torch",
                "probe:torch_build",
                {
                    "version": torch,
                    "variant": variant,
                    "backend": "cuda",
                    "build": "cuda",
                    "cuda": f"{variant[2:-1]}.{variant[-1]}"
                    if variant and variant.startswith("cu")
                    else None,
                },
            )
        )
    if toolkit:
        path = f"/usr/local/cuda-{'.'.join(toolkit.split('.')[:2])}"
        snap.add(
            collected(
                "cuda.toolkits",
                "probe:cuda_toolkit",
                {
                    "nvcc_on_path": {"version": toolkit, "path": f"{path}/bin/nvcc"},
                    "default_path": path,
                    "toolkits": [{"path": path, "version": toolkit}],
                },
            )
        )
    snap.add(node_group(node, redacted=redacted))
    return diagnose(snap, kind="report")


def write_report(
    report: Report,
    path: Path,
    fmt: str = "json",
    redact: bool = False,
    hostname: str = "gpu-host-17",
) -> Path:
    """Write `report` as `envdoctor report` would (redaction seeded with a host name)."""
    text, _note = build(
        report,
        fmt,
        redact=redact,
        env={"USER": "alice", "HOME": "/home/alice"},
        hostnames=(hostname,),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def document(report: Report) -> dict[str, Any]:
    """The report's JSON document, as a node's report file holds it."""
    return json.loads(json.dumps(report.to_dict(include_raw=True)))


def remap_failed(index: int) -> Callable[[list[dict[str, Any]]], None]:
    """A mutation: row remapping failed on GPU `index` (the A100 / A10G captures report 0 rows)."""

    def apply(gpus: list[dict[str, Any]]) -> None:
        gpus[index]["remapped_rows"]["failure"] = True

    return apply
