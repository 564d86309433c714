"""The driver branch against the GPU's architecture: NVIDIA ends each architecture at a branch."""

from __future__ import annotations

from envdoctor.checkdef import check
from envdoctor.checks.torch_context import _gpus
from envdoctor.findings import Evidence, Finding, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.queries import nvidia_arch as na
from envdoctor.remedies import fixes_for
from envdoctor.snapshot import Snapshot

ARCH_MATRIX_URL = "https://docs.nvidia.com/datacenter/tesla/drivers/supported-drivers-and-cuda-toolkit-versions.html"


@check(
    "nvidia.driver-drops-gpu",
    needs=("nvidia.driver",),
    needs_any=("nvidia.gpus", "nvidia.pci"),
    matrices=("nvidia_arch_support", "nvidia_gpus", "nvidia_driver_branches"),
)
def driver_drops_gpu(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The NVIDIA driver's branch no longer supports the GPU's architecture.

    NVIDIA ends support for each architecture at a driver branch: Kepler (Tesla K80, GTX 700)
    at the 470 legacy branch, Maxwell, Pascal and Volta after the 580 branch. A newer driver does
    not load for such a GPU (the installer refuses, or the kernel module skips the device: "The
    NVIDIA GPU ... is supported through the NVIDIA 470.xx Legacy drivers"), so it has no CUDA at
    all. On a working machine this cannot be seen; it matters for a pasted report and for a
    proposed fix: a driver upgrade past the architecture's last branch is no fix. The remedy is
    the last branch for the architecture, and software (a torch build) that runs on it.
    """
    driver = str(snap.fact("nvidia.driver", "driver_version") or "")
    if not driver:
        return None
    windows = str(snap.fact("python", "platform") or "").startswith("win")
    os_name = "windows" if windows else "linux"
    for gpu in _gpus(snap, ms):
        cc = gpu.get("capability")
        if not cc or na.driver_supports_arch(ms, driver, cc, os_name) is not False:
            continue
        arch = na.arch_for_cc(ms, cc) or f"compute capability {cc}"
        last = na.last_driver_branch_for_arch(ms, cc)
        name = str(gpu.get("name") or "this GPU")
        branch = driver.split(".")[0]
        return Finding(
            id="nvidia.driver-drops-gpu",
            severity=Severity.ERROR,
            title=f"driver {branch}: no branch after {last} supports {name} ({arch})",
            detail=(
                f"NVIDIA's last driver branch for {arch} GPUs is {last}; driver {driver} does not "
                f"support {name}, so no CUDA program can use it with this driver. Use a "
                f"{last}-series driver and software built for it."
            ),
            evidence=(
                Evidence("nvidia.driver.driver_version", driver, f"<= {last}.x"),
                Evidence("GPU architecture", f"{name}: {arch} (sm_{cc.replace('.', '')})"),
            ),
            fixes=fixes_for(snap, ms, "driver", reason=f"the last branch for {arch}"),
        )
    return None


CHECKS = [driver_drops_gpu]
