"""Android / Termux with an Adreno GPU: what is there (KGSL device, Mesa's Turnip Vulkan driver), and a
Turnip driver installed where it has no GPU device to open."""

from __future__ import annotations

from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot

TERMUX_MESA = "https://github.com/termux/termux-packages/blob/master/packages/mesa/build.sh"
TURNIP_KGSL = "https://gitlab.freedesktop.org/mesa/mesa/-/merge_requests/21651"


def _vulkan_devices(snap: Snapshot) -> list[dict]:
    return [d for d in snap.fact("platform.graphics", "vulkan") or [] if isinstance(d, dict)]


@check("android.adreno-turnip", "android.turnip-no-kgsl", needs=("platform.android",))
def adreno(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Android / Termux: the Adreno GPU, its KGSL kernel device, and Mesa's Turnip Vulkan driver.

    Qualcomm's Android kernels expose the Adreno GPU as /dev/kgsl-3d0 (KGSL), not as a DRM render
    node. Termux builds Mesa with the freedreno Vulkan driver, Turnip, for both the msm (DRM) and
    kgsl kernel interfaces (`-Dfreedreno-kmds=msm,kgsl`, package mesa-vulkan-icd-freedreno); Mesa's
    Turnip KGSL backend is what talks to /dev/kgsl-3d0. So Vulkan programs (for example llama.cpp's
    Vulkan backend) can use the GPU through Turnip. There is no CUDA or ROCm on Adreno GPUs. envdoctor
    reports what it finds (android.adreno-turnip, info); a Turnip ICD with neither /dev/kgsl-3d0 nor a
    /dev/dri render node has no GPU to open (android.turnip-no-kgsl), as inside a proot whose /dev
    lacks the device.
    """
    facts = snap.data("platform.android") or {}
    icds = list(facts.get("turnip_icds") or [])
    turnip = bool(
        icds
        or facts.get("libvulkan_freedreno")
        or any("freedreno" in n for n in facts.get("packages") or {})
    )
    devices = _vulkan_devices(snap)
    evidence = [
        Evidence(
            "Android",
            f"{facts.get('android_release') or '?'} (SDK {facts.get('android_sdk') or '?'})",
        ),
        Evidence("device", str(facts.get("device_model") or "unknown")),
        Evidence("/dev/kgsl-3d0", "present" if facts.get("kgsl") else "missing"),
        Evidence(
            "GPU (KGSL)", str(facts.get("kgsl_gpu_model") or facts.get("egl_hardware") or "unknown")
        ),
        Evidence(
            "Turnip Vulkan ICD", ", ".join(icds) or ("installed" if turnip else "not installed")
        ),
    ]
    for name, version in sorted((facts.get("packages") or {}).items()):
        evidence.append(Evidence(f"package {name}", str(version)))
    for device in devices:
        evidence.append(
            Evidence(
                "Vulkan device",
                f"{device.get('device_name')} ({device.get('driver_name')}, "
                f"{device.get('driver_info')})",
            )
        )
    if turnip and not facts.get("kgsl") and not facts.get("dri_render_nodes"):
        return Finding(
            id="android.turnip-no-kgsl",
            severity=Severity.WARNING,
            title="Mesa's Turnip Vulkan driver is installed, but there is no GPU device for it (no /dev/kgsl-3d0)",
            detail=(
                "Turnip reaches an Adreno GPU through /dev/kgsl-3d0 on Android (or a DRM render node on mainline "
                "kernels). Neither exists here"
                + (" (inside proot, /dev must be bound from Termux)" if facts.get("proot") else "")
                + ", so Vulkan has no GPU."
            ),
            evidence=tuple(evidence),
            fixes=(
                Fix(
                    "Check the GPU device nodes from plain Termux (outside any proot), where Termux's own Turnip "
                    "build runs",
                    ("ls -l /dev/kgsl-3d0 /dev/dri", "vulkaninfo --summary"),
                    Risk.SAFE,
                    TERMUX_MESA,
                ),
            ),
        )
    return Finding(
        id="android.adreno-turnip",
        severity=Severity.INFO,
        title=(
            "Android"
            + (" / Termux" if facts.get("termux") else "")
            + f": {facts.get('kgsl_gpu_model') or 'GPU'}"
            + (
                ", Turnip Vulkan driver installed"
                if turnip
                else ", no Turnip Vulkan driver installed"
            )
        ),
        detail=(
            "The Adreno GPU is usable through Vulkan (Mesa's Turnip) or the vendor's OpenCL/Vulkan drivers; CUDA and "
            "ROCm do not exist for it."
            + ("" if turnip else " Termux packages Turnip as mesa-vulkan-icd-freedreno.")
        ),
        evidence=tuple(evidence),
        fixes=(
            ()
            if turnip
            else (
                Fix(
                    "Install Mesa's Turnip Vulkan driver and the Vulkan tools in Termux",
                    ("pkg install mesa-vulkan-icd-freedreno vulkan-tools", "vulkaninfo --summary"),
                    Risk.SAFE,
                    TERMUX_MESA,
                ),
            )
        ),
    )


CHECKS = [adreno]
