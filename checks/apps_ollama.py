"""Ollama against this machine: the CPU fallback its own log shows, NVIDIA GPUs below its compute
floor, drivers older than it needs, and service variables that hide the GPUs. (AMD GPUs outside
Ollama's ROCm list are app.ollama-amd-unsupported-gfx, Ollama in WSL with an AMD GPU is
wsl.amd-gpu-needs-wsl-runtime: their findings fold this file's CPU fallback under them.)"""

from __future__ import annotations

import shlex
from typing import Any

from envdoctor.checkdef import check
from envdoctor.checks import apps_facts as af
from envdoctor.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.queries import apps as aq
from envdoctor.remedies import fixes_for
from envdoctor.snapshot import Snapshot
from envdoctor.versions import parse

DROP_IN_DIR = "/etc/systemd/system/ollama.service.d"
TROUBLESHOOTING = "https://github.com/ollama/ollama/blob/main/docs/troubleshooting.mdx"
_FALLBACK = ("app.ollama-cpu-fallback",)
_HIDING = (
    "CUDA_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
    "HIP_VISIBLE_DEVICES",
    "GPU_DEVICE_ORDINAL",
)


def drop_in(name: str, lines: list[str]) -> tuple[str, ...]:
    """Commands writing a systemd drop-in for ollama.service (what `sudo systemctl edit ollama`
    saves), then reloading and restarting it."""
    body = "\\n".join(["[Service]"] + [f'Environment="{line}"' for line in lines])
    return (
        f"sudo mkdir -p {DROP_IN_DIR}",
        f"printf '{body}\\n' | sudo tee {DROP_IN_DIR}/{name}.conf",
        "sudo systemctl daemon-reload",
        "sudo systemctl restart ollama",
    )


def _restart() -> tuple[str, ...]:
    return ("sudo systemctl daemon-reload", "sudo systemctl restart ollama")


def _debug_fix() -> Fix:
    return Fix(
        'See why discovery failed: `sudo systemctl edit ollama`, add [Service] Environment="OLLAMA_DEBUG=1" '
        "(the commands below write the same drop-in), restart, read the GPU lines",
        drop_in("debug", ["OLLAMA_DEBUG=1"])
        + (
            "journalctl -u ollama --no-pager -n 300 | grep -iE "
            "'gpu|cuda|rocm|vulkan|inference compute'",
        ),
        Risk.NEEDS_RESTART,
        TROUBLESHOOTING,
    )


@check(
    "app.ollama.gpu-unsupported",
    needs=("nvidia.gpus",),
    needs_any=("apps.ollama", "apps.detected"),
    matrices=("apps",),
)
def ollama_old_gpu(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Ollama is installed or asked about, and an NVIDIA GPU is below the compute capability its
    CUDA libraries are built for.

    Ollama's GPU page: "Ollama supports Nvidia GPUs with compute capability 5.0+". On an older GPU
    (Kepler: GTX 700 series, Tesla K80) Ollama runs models on the CPU. The fixes: a newer GPU, or
    building Ollama from source for that architecture (its development docs), or llama.cpp
    built with -DCMAKE_CUDA_ARCHITECTURES for it.
    """
    if not af.present(snap, "ollama"):
        return None
    row = aq.row(ms, "ollama", "nvidia-min") or {}
    floor = parse(str(row.get("min_compute") or ""))
    if floor is None:
        return None
    old = [
        g
        for g in af.nvidia_gpus(snap, ms)
        if parse(g.get("compute_capability")) is not None
        and parse(g.get("compute_capability")) < floor
    ]
    if not old:
        return None
    names = ", ".join(f"{g['name']} ({g['compute_capability']})" for g in old)
    llama = aq.row(ms, "llamacpp", "cuda-arch") or {}
    cc = str(old[0]["compute_capability"]).replace(".", "")
    return Finding(
        id="app.ollama.gpu-unsupported",
        severity=Severity.WARNING,
        title=f"Ollama does not support {names}: it runs models on the CPU",
        detail=f"Ollama supports NVIDIA GPUs with compute capability {row['min_compute']} and newer; {names} is older.",
        evidence=(
            Evidence("nvidia.gpus.compute_capability", names, f">= {row['min_compute']}"),
            Evidence("apps", row.get("text", ""), row.get("source")),
        ),
        fixes=(
            Fix(
                f"Use a GPU with compute capability {row['min_compute']} or newer for Ollama",
                (),
                Risk.SAFE,
                row.get("source"),
            ),
            Fix(
                f"Or build llama.cpp for this GPU (sm_{cc})",
                (
                    f'cmake -B build -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="{cc}" && '
                    "cmake --build build --config Release",
                ),
                Risk.SAFE,
                llama.get("source"),
            ),
        ),
        explains=_FALLBACK,
    )


@check(
    "app.ollama.driver-too-old",
    needs=("nvidia.gpus", "nvidia.driver"),
    needs_any=("apps.ollama", "apps.detected"),
    matrices=("apps",),
)
def ollama_driver(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Ollama is installed or asked about, and the NVIDIA driver is older than Ollama needs for
    the GPU: 550 or newer, and 570 or newer for compute capability 5.0 - 6.2 GPUs (Maxwell,
    Pascal), as Ollama's GPU page says. With an older driver Ollama's CUDA libraries do not load
    and it falls back to the CPU. The fix installs a newer driver with this distribution's
    package manager (the proprietary modules for pre-Turing GPUs)."""
    if not af.present(snap, "ollama"):
        return None
    driver = snap.fact("nvidia.driver", "driver_version")
    have = parse(str(driver or ""))
    if have is None:
        return None
    short = []
    for gpu in af.nvidia_gpus(snap, ms):
        floor = aq.driver_floor(ms, "ollama", str(gpu.get("compute_capability") or ""))
        if floor and have < parse(str(floor["min_driver"])):
            short.append((gpu, floor))
    if not short:
        return None
    gpu, floor = max(short, key=lambda item: parse(str(item[1]["min_driver"])))
    need = str(floor["min_driver"])
    names = ", ".join(f"{g['name']} ({g['compute_capability']})" for g, _ in short)
    return Finding(
        id="app.ollama.driver-too-old",
        severity=Severity.WARNING,
        title=f"Ollama needs NVIDIA driver {need}+ for {names}; this one is {driver}",
        detail=f"{floor.get('text')} The driver here is {driver}, so Ollama's CUDA runtime will not load and it "
        "runs models on the CPU.",
        evidence=(
            Evidence("nvidia.driver.driver_version", str(driver), f">= {need}"),
            Evidence("apps", floor.get("text", ""), floor.get("source")),
        ),
        fixes=fixes_for(snap, ms, "driver", min=need, reason=f"Ollama's floor for {names}"),
        explains=_FALLBACK,
    )


def _hidden(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(variable, value, where) of service or server variables that hide every GPU."""
    out = []
    files = data.get("service_env_files") or {}
    for name, value in (data.get("service_env") or {}).items():
        if name in _HIDING and (value.strip() in ("", "-1") or value.strip().startswith("-1")):
            out.append((name, value, files.get(name) or "ollama.service"))
    for name, value in (data.get("server_env") or {}).items():
        if name in _HIDING and value.strip().startswith("-1") and name not in [o[0] for o in out]:
            out.append((name, value, "the server's environment (its log)"))
    return out


@check("app.ollama.visible-devices-hide-gpus", needs=("apps.ollama",), matrices=("apps",))
def ollama_hidden_gpus(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Ollama's service sets CUDA_VISIBLE_DEVICES (or ROCR_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES)
    to -1 or to nothing, which hides every GPU: Ollama's docs name "an invalid GPU ID (e.g., -1)"
    as the way to force the CPU. Read from the unit and its drop-ins (or the "server config"
    line of its log). The fix deletes that line from the file that sets it and restarts the
    service; to pick GPUs instead, list their UUIDs (nvidia-smi -L)."""
    data = snap.data("apps.ollama") or {}
    hidden = _hidden(data)
    if not hidden:
        return None
    row = aq.row(ms, "ollama", "cpu-mode") or {}
    fixes = []
    for name, _value, where in hidden:
        if where.startswith("/"):
            fixes.append(
                Fix(
                    f"Remove {name} from {where}",
                    (f"sudo sed -i '/{name}=/d' {shlex.quote(where)}",) + _restart(),
                    Risk.NEEDS_RESTART,
                    row.get("source"),
                )
            )
    fixes.append(
        Fix(
            "To limit Ollama to some GPUs instead, set their UUIDs (nvidia-smi -L) in a drop-in",
            ("nvidia-smi -L",) + drop_in("gpus", ["CUDA_VISIBLE_DEVICES=GPU-<uuid>"]),
            Risk.NEEDS_RESTART,
            (aq.row(ms, "ollama", "visible-devices") or {}).get("source"),
        )
    )
    shown = ", ".join(f"{n}={v!r} ({w})" for n, v, w in hidden)
    return Finding(
        id="app.ollama.visible-devices-hide-gpus",
        severity=Severity.WARNING,
        title=f"Ollama's service hides the GPUs: {shown}",
        detail=f"{shown} makes every GPU invisible to Ollama, so it runs models on the CPU. {row.get('text', '')}",
        evidence=tuple(
            Evidence(f"apps.ollama {n}", v or "(empty)", "unset or real GPU ids")
            for n, v, _ in hidden
        ),
        fixes=tuple(fixes),
        explains=_FALLBACK,
    )


@check("app.ollama-cpu-fallback", needs=("apps.ollama",), matrices=("apps",))
def ollama_cpu_fallback(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Ollama's own server log shows its last start found no usable GPU (`msg="inference compute"
    id=0 library=cpu`, "no compatible GPUs were discovered", "no nvidia devices detected", "CPU does
    not have AVX ... GPU inference disabled"), while this machine has a GPU (or the log names why).

    Read from `journalctl -u ollama` or ~/.ollama/logs/server.log. The causes with their own
    findings fold this one under them (driver too old, GPU below Ollama's floor, service hiding
    the GPUs, AMD gfx target outside its ROCm list, WSL with an AMD GPU, no driver). Fixes here
    depend on what the log says: a CPU without AVX (a VM's CPU model: expose the host's CPU
    features), a container without the GPU (`docker run --gpus=all`), else Ollama's debug log.
    """
    data = snap.data("apps.ollama") or {}
    if not data.get("cpu_only"):
        return None
    problems = data.get("problems") or []
    has_gpu = af.any_gpu(snap, ms) or bool(af.nvidia_on_pci(snap))
    if not has_gpu and not problems:
        return None
    lines = [p["line"] for p in problems][:3] or [
        f"inference compute: {', '.join(str(d.get('library')) for d in data.get('discovered') or [])}"
    ]
    kinds = {p["kind"] for p in problems}
    fixes: list[Fix] = []
    if "cpu-no-avx" in kinds:
        fixes.append(
            Fix(
                "The CPU shows no AVX, so Ollama disables GPU inference: in a virtual machine, give the VM "
                "the host's CPU model (e.g. CPU type 'host' in Proxmox / host-passthrough in libvirt)",
                ("grep -o -w -m1 'avx2\\|avx' /proc/cpuinfo",),
                Risk.NEEDS_RESTART,
                TROUBLESHOOTING,
            )
        )
    if "amd-unsupported" in kinds:
        fixes.append(
            Fix(
                "The AMD GPU's gfx target is outside Ollama's ROCm list: see the override and Vulkan fixes",
                ("envdoctor explain app.ollama-amd-unsupported-gfx",),
            )
        )
    if af.in_container(snap):
        docker = aq.row(ms, "ollama", "docker-nvidia") or {}
        fixes.append(
            Fix(
                "Ollama runs in a container without the GPU: start it with the GPUs (NVIDIA Container "
                "Toolkit on the host)",
                (docker.get("command"),) if docker.get("command") else (),
                Risk.SAFE,
                docker.get("source"),
            )
        )
    if af.nvidia_on_pci(snap) and not af.nvidia_gpus(snap, ms):
        fixes.append(
            Fix(
                "The NVIDIA GPU has no working driver: fix it first",
                ("envdoctor explain nvidia.no-driver-bound",),
            )
        )
    fixes.append(_debug_fix())
    gpu_names = [g["name"] for g in af.nvidia_gpus(snap, ms)] + [
        str(g.get("name") or "AMD GPU") for g in af.amd_gpus(snap)
    ]
    here = ", ".join(gpu_names) or "the GPU on the PCI bus"
    return Finding(
        id="app.ollama-cpu-fallback",
        severity=Severity.WARNING,
        title=f"Ollama's last start found no usable GPU and runs models on the CPU ({here} is here)",
        detail=(
            f"Ollama's log ({data.get('log_source')}) shows its GPU discovery ended on the CPU: "
            + " | ".join(lines)
        ),
        evidence=(
            Evidence(
                "apps.ollama.library",
                str(data.get("library")),
                "cuda_v12 / cuda_v13 / rocm / vulkan",
            ),
            Evidence("apps.ollama log", " | ".join(lines)),
            Evidence("GPU", here),
        ),
        fixes=tuple(fixes),
    )


CHECKS = [ollama_old_gpu, ollama_driver, ollama_hidden_gpus, ollama_cpu_fallback]
