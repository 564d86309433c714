"""vLLM against the GPU and OS it would run on: a GPU below vLLM's compute-capability floor, and
operating systems vLLM does not run on."""

from __future__ import annotations

from envdoctor.checks import apps_facts as af
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse, version_key
from envdoctor.queries import apps as aq

WSL_INSTALL = "https://learn.microsoft.com/en-us/windows/wsl/install"


@check("app.vllm.compute-too-low", needs=("apps.detected", "nvidia.gpus"), matrices=("apps",))
def vllm_compute(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """vLLM is installed or asked about, and an NVIDIA GPU is below the compute capability vLLM's
    pre-built CUDA kernels need.

    vLLM's GPU installation page says "compute capability 7.5 or higher (e.g., T4, RTX20xx, A100,
    L4, H100, B200)"; earlier revisions of the same page said 7.0 (V100). A GPU below every
    documented floor (Pascal, Maxwell: GTX 10xx, P100, P40) is an error: vLLM's kernels do not run
    on it. A 7.x GPU below the current floor (V100, Titan V) is a warning: only older vLLM releases
    documented it. Fixes: a supported GPU, an engine that runs on the GPU you have (Ollama documents
    compute capability 5.0 and newer), or vLLM's CPU backend.
    """
    if not af.present(snap, "vllm"):
        return None
    floors = aq.min_compute(ms, "vllm")
    if not floors:
        return None
    current, current_row = floors[0]
    oldest, oldest_row = floors[-1]
    low = []
    for gpu in af.nvidia_gpus(snap, ms):
        cc = parse(gpu.get("compute_capability"))
        if cc is not None and cc < version_key(current):
            low.append((gpu, cc))
    if not low:
        return None
    below_all = [g for g, cc in low if cc < version_key(oldest)]
    names = ", ".join(f"{g['name']} ({g['compute_capability']})" for g, _ in low)
    ollama = aq.row(ms, "ollama", "nvidia-min") or {}
    fixes = [
        Fix(
            f"Run vLLM on a GPU with compute capability {current} or higher (T4, RTX 20xx and newer, A100, L4, "
            "H100, B200)",
            (),
            Risk.SAFE,
            current_row.get("source"),
        )
    ]
    if ollama.get("min_compute") and all(
        cc >= version_key(str(ollama["min_compute"])) for _, cc in low
    ):
        fixes.append(
            Fix(
                f"Serve models on this GPU with Ollama instead (it supports compute capability "
                f"{ollama['min_compute']}+ with driver {ollama.get('min_driver')}+)",
                ("curl -fsSL https://ollama.com/install.sh | sh",),
                Risk.SAFE,
                ollama.get("source"),
            )
        )
    if not below_all:
        fixes.insert(
            0,
            Fix(
                f"Use a vLLM release whose docs still listed compute capability {oldest} (the page said "
                "so at the cited revision; pin that release in a fresh environment)",
                (),
                Risk.SAFE,
                oldest_row.get("source"),
            ),
        )
    fixes.append(
        Fix("Or serve on the CPU with vLLM's CPU backend", ("envdoctor explain app.vllm.no-gpu",))
    )
    return Finding(
        id="app.vllm.compute-too-low",
        severity=Severity.ERROR if below_all else Severity.WARNING,
        title=f"vLLM needs compute capability {current}+; {names} is below it",
        detail=(
            f"vLLM's GPU page requires compute capability {current} or higher"
            + (f" (earlier revisions: {oldest})" if oldest != current else "")
            + f". {names} "
            + (
                "is below every documented floor: vLLM's CUDA kernels will not run on it."
                if below_all
                else "was supported only by older vLLM releases."
            )
        ),
        evidence=(
            Evidence("nvidia.gpus.compute_capability", names, f">= {current}"),
            Evidence("apps", current_row.get("text", ""), current_row.get("source")),
        ),
        fixes=tuple(fixes),
    )


@check("app.vllm.unsupported-platform", needs=("apps.detected", "os"), matrices=("apps",))
def vllm_platform(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """vLLM is installed or asked about on Windows or macOS, where it does not run.

    vLLM's installation page: "vLLM can fully run only on Linux ... The binaries will not be
    compiled and won't work on non-Linux systems." On Windows, run it inside WSL 2 (an Ubuntu
    distribution sees the NVIDIA GPU through the Windows driver) or in its Docker image; on macOS
    there is only an experimental CPU build from source.
    """
    if not af.present(snap, "vllm"):
        return None
    where = af.os_name(snap)
    if where not in ("windows", "macos"):
        return None
    row = aq.row(ms, "vllm", "platform") or {}
    fixes: tuple[Fix, ...]
    if where == "windows":
        fixes = (
            Fix(
                "Run vLLM inside WSL 2 (Ubuntu): the Windows NVIDIA driver serves the GPU there",
                ("wsl --install -d Ubuntu",),
                Risk.NEEDS_RESTART,
                WSL_INSTALL,
            ),
            Fix(
                "Or run vLLM's Docker image with the GPU (Docker Desktop with the WSL 2 backend)",
                tuple(c for c in [(aq.row(ms, "vllm", "docker-nvidia") or {}).get("command")] if c),
                Risk.SAFE,
                (aq.row(ms, "vllm", "docker-nvidia") or {}).get("source"),
            ),
        )
    else:
        fixes = (
            Fix(
                "On macOS vLLM has only an experimental CPU build from source: follow its CPU installation "
                "page, or use a Linux machine with an NVIDIA GPU",
                (),
                Risk.SAFE,
                "https://docs.vllm.ai/en/latest/getting_started/installation/cpu.html",
            ),
        )
    system = "Windows" if where == "windows" else "macOS"
    return Finding(
        id="app.vllm.unsupported-platform",
        severity=Severity.ERROR if af.asked(snap, "vllm") else Severity.WARNING,
        title=f"vLLM does not run on {system}",
        detail=f"vLLM's binaries are built for Linux only; on {system} they are not compiled and do not work.",
        evidence=(
            Evidence("os.system", system, "Linux (or WSL 2)"),
            Evidence("apps", row.get("text", ""), row.get("source")),
        ),
        fixes=fixes,
    )


CHECKS = [vllm_compute, vllm_platform]
