"""Multi-GPU plumbing: fabric manager on NVSwitch systems, and MIG device selection."""

from __future__ import annotations

import re
from typing import Any

from envdoctor.checks import nvidia_facts as nf
from envdoctor.installers import os_packages as osp
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

_FM_URL = "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html"
_MIG_URL = "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/index.html"
_SYMPTOMS = ("torch.gpu-test-failed",)


@check("nvidia.fabric-manager-not-running", needs_any=("nvidia.kernel", "nvidia.pci"))
def fabric_manager(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """NVSwitch system without a running fabric manager: CUDA fails with error 802.

    On HGX/DGX machines whose GPUs talk through NVSwitch, the NVSwitch fabric must be set up by the
    fabric manager service (nvidia-fabricmanager) before CUDA can use the GPUs; until then CUDA
    returns error 802 "system not yet initialized" (cudaErrorSystemNotReady). The service's version
    must match the driver's exactly. Start and enable it; install the package of the driver's branch
    if it is missing.
    """
    fm = snap.fact("nvidia.kernel", "fabric_manager") or {}
    switches = fm.get("nvswitch_devices") or snap.fact("nvidia.pci", "nvswitch_count") or 0
    if not switches:
        return None
    service, running = fm.get("service"), fm.get("process_running")
    if service == "active" or running:
        return None
    if service is None and running is None:
        return None  # not looked at (no systemctl, no /proc): say nothing rather than guess
    facts = nf.os_facts(snap)
    branch = str((nf.driver(snap) or {}).get("driver_version") or "").split(".")[0]
    fixes = [
        Fix(
            "Start the fabric manager and enable it at boot",
            (
                "sudo systemctl enable --now nvidia-fabricmanager",
                "systemctl status nvidia-fabricmanager",
            ),
            Risk.SAFE,
            _FM_URL,
        )
    ]
    if osp.family(facts) == "ubuntu" and branch.isdigit():
        fixes.append(
            Fix(
                f"If the service does not exist, install the fabric manager of driver branch {branch}",
                osp.install_packages(facts, [f"nvidia-fabricmanager-{branch}"])
                + ("sudo systemctl enable --now nvidia-fabricmanager",),
                Risk.SAFE,
                _FM_URL,
            )
        )
    return Finding(
        id="nvidia.fabric-manager-not-running",
        severity=Severity.ERROR,
        title=f"Fabric manager is not running on this NVSwitch system ({switches} NVSwitch)",
        detail=(
            "This machine has NVSwitch devices but the fabric manager service is "
            f"{service or 'not running'}: CUDA fails with error 802 (system not yet initialized) "
            "until it runs."
        ),
        evidence=(
            Evidence("nvidia.kernel.fabric_manager.service", str(service), "active"),
            Evidence("nvidia.kernel.fabric_manager.nvswitch_devices", str(switches)),
        ),
        fixes=tuple(fixes),
        explains=_SYMPTOMS,
    )


def _selected(value: str | None) -> list[str]:
    return [x.strip() for x in (value or "").split(",") if x.strip()]


def _mig_findings(gpu: dict[str, Any], env: dict[str, Any]) -> Finding | None:
    label = nf.gpu_label(gpu)
    index = gpu.get("index", 0)
    devices = gpu.get("mig_devices") or []
    if (
        gpu.get("mig_mode_pending")
        and gpu.get("mig_mode")
        and gpu["mig_mode_pending"] != gpu["mig_mode"]
    ):
        return Finding(
            id="nvidia.mig-device-selection",
            severity=Severity.WARNING,
            title=f"MIG mode change on {label} waits for a GPU reset",
            detail=(
                f"MIG is {gpu['mig_mode']} on {label} but {gpu['mig_mode_pending']} is pending: the change "
                "applies only after the GPU is reset."
            ),
            evidence=(Evidence("nvidia.gpus.mig_mode", gpu["mig_mode"], gpu["mig_mode_pending"]),),
            fixes=(
                Fix(
                    "Reset the GPU (no process may use it) to apply the MIG mode",
                    (f"sudo nvidia-smi -r -i {index}",),
                    Risk.DESTRUCTIVE,
                    _MIG_URL,
                ),
            ),
        )
    if gpu.get("mig_mode") != "enabled":
        return None
    if not devices:
        return Finding(
            id="nvidia.mig-device-selection",
            severity=Severity.ERROR,
            title=f"MIG is on for {label} but no MIG instance exists: CUDA sees no device there",
            detail=(
                f"{label} is in MIG mode without GPU instances, so CUDA can use none of it. Create instances, "
                "or turn MIG off."
            ),
            evidence=(
                Evidence(
                    "nvidia.gpus.mig_devices", "none", "at least one GPU and compute instance"
                ),
            ),
            fixes=(
                Fix(
                    "List the instance profiles, then create one (GPU and compute instance)",
                    (
                        f"sudo nvidia-smi mig -i {index} -lgip",
                        f"sudo nvidia-smi mig -i {index} -cgi <profile id> -C",
                    ),
                    Risk.SAFE,
                    _MIG_URL,
                ),
                Fix(
                    "Or turn MIG off and reset the GPU",
                    (f"sudo nvidia-smi -i {index} -mig 0", f"sudo nvidia-smi -r -i {index}"),
                    Risk.DESTRUCTIVE,
                    _MIG_URL,
                ),
            ),
            explains=_SYMPTOMS,
        )
    chosen = _selected(env.get("CUDA_VISIBLE_DEVICES"))
    mig_ids = [c for c in chosen if c.startswith("MIG-")]
    env_known = "CUDA_VISIBLE_DEVICES" in env
    if len(mig_ids) > 1 or (env_known and len(devices) > 1 and not chosen):
        example = (
            next((d.get("uuid") for d in devices if d.get("uuid")), None)
            or "MIG-<uuid from nvidia-smi -L>"
        )
        what = (
            f"CUDA_VISIBLE_DEVICES names {len(mig_ids)} MIG devices"
            if mig_ids
            else f"{label} has {len(devices)} MIG instances and CUDA_VISIBLE_DEVICES is not set"
        )
        return Finding(
            id="nvidia.mig-device-selection",
            severity=Severity.ERROR if mig_ids else Severity.INFO,
            title="A CUDA process can use only one MIG instance",
            detail=(
                f"{what}, but one CUDA process enumerates a single MIG device: multi-GPU code (DDP, "
                "device_count() > 1) fails or uses only the first instance. Run one process per MIG "
                "instance, each with its own CUDA_VISIBLE_DEVICES."
            ),
            evidence=(
                Evidence(
                    "CUDA_VISIBLE_DEVICES",
                    env.get("CUDA_VISIBLE_DEVICES") or "unset",
                    "one MIG-<uuid> per process",
                ),
                Evidence("nvidia.gpus.mig_devices", str(len(devices))),
            ),
            fixes=(
                Fix(
                    "List the MIG devices, then give each process one of them",
                    ("nvidia-smi -L", f"CUDA_VISIBLE_DEVICES={example} python train.py"),
                    Risk.SAFE,
                    _MIG_URL,
                ),
            ),
            explains=_SYMPTOMS,
        )
    plain = [c for c in chosen if re.fullmatch(r"\d+", c) and int(c) == index]
    if plain and not mig_ids:
        return Finding(
            id="nvidia.mig-device-selection",
            severity=Severity.WARNING,
            title=f"CUDA_VISIBLE_DEVICES selects {label} by index although MIG is on",
            detail=(
                f"CUDA_VISIBLE_DEVICES={env.get('CUDA_VISIBLE_DEVICES')} names GPU {index}, which is in MIG "
                "mode: select a MIG instance by its MIG-<uuid> instead, so the process gets the instance "
                "you intend."
            ),
            evidence=(
                Evidence(
                    "CUDA_VISIBLE_DEVICES", str(env.get("CUDA_VISIBLE_DEVICES")), "MIG-<uuid>"
                ),
            ),
            fixes=(Fix("Name the MIG instance by UUID", ("nvidia-smi -L",), Risk.SAFE, _MIG_URL),),
        )
    return None


@check("nvidia.mig-device-selection", needs=("nvidia.gpus",))
def mig_selection(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """MIG is enabled in a way the CUDA process cannot use as intended.

    With MIG (Multi-Instance GPU) a GPU is split into instances, and CUDA sees instances, not the
    GPU: with MIG on but no instance created, CUDA sees nothing there; a single CUDA process
    enumerates only one MIG device, so code that expects several (DDP across two slices) fails
    ("device >= 0 && device < num_gpus INTERNAL ASSERT FAILED" in torch); a MIG mode change waits
    for a GPU reset. Select instances by MIG-<uuid> (nvidia-smi -L), one per process.
    """
    env = snap.fact("nvidia.gpus", "env") or {}
    cuda_env = snap.data("cuda.env") or {}
    if not env.get("CUDA_VISIBLE_DEVICES") and isinstance(
        cuda_env.get("CUDA_VISIBLE_DEVICES"), dict
    ):
        env = dict(env, CUDA_VISIBLE_DEVICES=cuda_env["CUDA_VISIBLE_DEVICES"].get("value"))
    return [f for f in (_mig_findings(gpu, env) for gpu in nf.gpus(snap)) if f is not None]


CHECKS = [fabric_manager, mig_selection]
