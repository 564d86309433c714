"""Ollama on an AMD GPU whose gfx target its ROCm build does not list (the CPU fallback)."""

from __future__ import annotations

from envdoctor.checks import amd_facts as af
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model import amd_gfx
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.queries import rocm as rq

GPU_DOC = "https://github.com/ollama/ollama/blob/main/docs/gpu.mdx"


@check(
    "app.ollama-amd-unsupported-gfx",
    needs=("amd.gpus",),
    needs_any=("amd.env", "pasted.text"),
    matrices=("rocm_app_targets", "rocm_overrides"),
)
def ollama_amd_unsupported_gfx(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Ollama is installed, and an AMD GPU's gfx target is outside Ollama's ROCm list.

    Ollama bundles its own ROCm libraries, built for a fixed list of LLVM targets (its docs,
    "Overrides on Linux": gfx908, gfx90a, gfx942, gfx950, gfx1010, gfx1012, gfx1030, gfx1100-gfx1103,
    gfx1150, gfx1151, gfx1200, gfx1201 at the cited commit; older releases list fewer). For any
    other target its GPU discovery logs 'amdgpu is not supported (supported types:[...])
    gpu_type=gfx1031' and every model runs on the CPU ("no compatible GPUs were discovered"),
    unless its Vulkan backend takes the GPU.

    Fixes, best first: Ollama's Vulkan backend (supported by Ollama for GPUs outside the ROCm
    list); then, as an unsupported workaround, HSA_OVERRIDE_GFX_VERSION in the Ollama service
    (10.3.0 for RDNA2, 11.0.0 for RDNA3), which makes its ROCm libraries run the sibling target.
    """
    env = snap.data("amd.env") or {}
    ollama = env.get("ollama")
    text = snap.data("pasted.text") or {}
    pasted = "ollama" in [str(a) for a in text.get("apps") or []]
    if not ollama and not pasted:
        return None
    listed = rq.app_targets(ms, "ollama") or []
    service_override = ((ollama or {}).get("service_env") or {}).get("HSA_OVERRIDE_GFX_VERSION")
    findings_for = []
    for target in af.gpu_targets(snap):
        effective = (
            amd_gfx.gfx_from_override(service_override) if service_override else target["effective"]
        )
        if effective and effective not in listed:
            findings_for.append((target, effective))
    if not findings_for:
        return None
    target, effective = findings_for[0]
    names = ", ".join(f"{t['name']} ({e})" for t, e in findings_for)
    fixes = [
        Fix(
            "Use Ollama's Vulkan backend, which Ollama supports for GPUs outside its ROCm list: install "
            "the Mesa Vulkan driver, let the ollama user open the render node, and keep OLLAMA_VULKAN unset",
            (
                "sudo apt install mesa-vulkan-drivers",
                "sudo usermod -a -G render ollama",
                "sudo systemctl restart ollama",
                "journalctl -u ollama --no-pager | grep -i vulkan",
            ),
            Risk.SAFE,
            GPU_DOC,
        )
    ]
    override = rq.override_for(ms, effective)
    if override and override["runs_as"] in listed:
        docker = ollama is None and af.in_container(snap)
        if docker:
            fixes.append(
                Fix(
                    f"{af.WORKAROUND}: in Docker, start Ollama's ROCm image with "
                    f"HSA_OVERRIDE_GFX_VERSION={override['value']} (runs {effective} as {override['runs_as']})",
                    (
                        "docker run -d --device /dev/kfd --device /dev/dri "
                        f"-e HSA_OVERRIDE_GFX_VERSION={override['value']} -v ollama:/root/.ollama "
                        "-p 11434:11434 --name ollama ollama/ollama:rocm",
                    ),
                    Risk.NEEDS_RESTART,
                    override["source"],
                )
            )
        else:
            fixes.append(
                af.override_fix(
                    effective,
                    override["value"],
                    override["runs_as"],
                    override["source"],
                    scope="ollama",
                )
            )
    evidence = [
        Evidence("amd.gpus.gfx_target", names, "one of " + ", ".join(listed)),
        Evidence(
            "rocm_app_targets", f"ollama lists {len(listed)} targets", rq.app_source(ms, "ollama")
        ),
    ]
    if ollama:
        evidence.append(
            Evidence("amd.env.ollama.path", str(ollama.get("path") or ollama.get("service_files")))
        )
    if service_override:
        evidence.append(Evidence("ollama service HSA_OVERRIDE_GFX_VERSION", service_override))
    return Finding(
        id="app.ollama-amd-unsupported-gfx",
        severity=Severity.WARNING,
        title=f"Ollama's ROCm build does not run on {names}: it falls back to the CPU",
        detail=(
            f"Ollama's ROCm libraries are built for {', '.join(listed)}; {names} is not among them, so "
            "Ollama's GPU discovery skips the GPU ('amdgpu is not supported') and models run on the CPU "
            "unless the Vulkan backend takes it."
        ),
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=("app.ollama-cpu-fallback",),
    )


CHECKS = [ollama_amd_unsupported_gfx]
