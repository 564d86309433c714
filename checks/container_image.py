"""Will this image's GPU software run on this host's driver? (`envdoctor check --image IMAGE`)"""

from __future__ import annotations

from typing import Any

from envdoctor.checks import container_facts as facts
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import major_minor, parse
from envdoctor.queries import nvidia as nvq

_DRIVER_GUIDE = "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/"
_TORCH_VERSIONS = "https://pytorch.org/get-started/previous-versions/"


def image_torch(snap: Snapshot) -> dict[str, Any] | None:
    """The image's torch build: `python.torch` when the probes read it from the image, else what
    the image inspection found in its site-packages ({"version", "cuda", "location"})."""
    group = snap.group("python.torch")
    if group is not None and group.collected and group.source.startswith("image:"):
        return {
            "version": group.get("version"),
            "cuda": group.get("cuda"),
            "location": group.get("location"),
        }
    found = snap.fact("container.image", "torch")
    return found if isinstance(found, dict) else None


@check(
    "container.image-needs-newer-driver",
    needs=("container.image", "nvidia.driver"),
    matrices=("cuda_driver", "cuda_compat"),
)
def image_needs_newer_driver(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The image's PyTorch is built for a CUDA that this host's driver cannot run.

    A CUDA build of torch ships its own CUDA runtime, but the kernel-mode driver comes from the
    host, and each CUDA major needs a minimum driver branch (CUDA 12.x: 525 and later under
    minor-version compatibility; CUDA 13.x: 580 and later). A container from this image would see
    the GPU but `torch.cuda.is_available()` returns False with "The NVIDIA driver on your system
    is too old". Fix: upgrade the host driver, or use an image with a torch built for a CUDA the
    driver supports.
    """
    torch = image_torch(snap)
    driver = facts.host_driver(snap)
    if not torch or not torch.get("cuda") or not driver:
        return None
    cuda = str(torch["cuda"])
    if nvq.driver_supports_cuda(ms, driver, cuda, "linux") is not False:
        return None
    version = parse(cuda)
    floor = nvq.compat_floor(ms, version.release[0], "linux") if version is not None else None
    needed = floor or nvq.min_driver_for_cuda(ms, cuda, "linux")
    host_cuda_driver_max = facts.host_cuda_driver_max(snap) or nvq.max_cuda_for_driver(
        ms, driver, "linux"
    )
    image = snap.fact("container.image", "image")
    label = torch.get("version") or "torch"
    return Finding(
        id="container.image-needs-newer-driver",
        severity=Severity.ERROR,
        title=f"This image's torch is cu{cuda.replace('.', '')} and needs a {needed} driver; the host has {driver}",
        detail=(
            f"{image}: torch {label} is built with CUDA {cuda}, which needs NVIDIA driver {needed} or newer"
            + (
                " (the CUDA " + str(version.release[0]) + ".x minor-version-compatibility floor)"
                if floor and version is not None
                else ""
            )
            + f". This host runs {driver}"
            + (f" (CUDA {host_cuda_driver_max} at most)" if host_cuda_driver_max else "")
            + ": in a container from this image torch.cuda.is_available() would be False."
        ),
        evidence=(
            Evidence("container.image.torch", f"{label} (CUDA {cuda})"),
            Evidence("nvidia.driver.driver_version", driver, f">= {needed}"),
        ),
        fixes=(
            Fix(
                f"Upgrade the host NVIDIA driver to {needed} or newer",
                (
                    ("sudo ubuntu-drivers install",)
                    if (snap.data("os") or {}).get("distro_id") == "ubuntu"
                    else ()
                )
                + ("nvidia-smi",),
                Risk.NEEDS_RESTART,
                _DRIVER_GUIDE,
            ),
            Fix(
                f"Or use an image whose torch is built for CUDA {major_minor(host_cuda_driver_max) or 'the host driver'}'s major "
                "or older (torch's `+cuXYZ` label)",
                (),
                Risk.SAFE,
                _TORCH_VERSIONS,
            ),
        ),
    )


CHECKS = [image_needs_newer_driver]
