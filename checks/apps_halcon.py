"""MVTec HALCON's deep-learning libraries against the NVIDIA driver: CUDA libraries inside the
HALCON installation that need a newer driver than the one here."""

from __future__ import annotations

from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse
from envdoctor.queries import apps as aq
from envdoctor.queries import nvidia as nq

INSTALLATION_GUIDE = "https://www.mvtec.com/products/halcon/documentation"


@check(
    "app.halcon.cuda-unsupported",
    needs=("apps.halcon", "nvidia.driver"),
    matrices=("apps", "cuda_driver"),
)
def halcon_cuda(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """HALCON ships CUDA libraries (CUDA runtime, cuBLAS, cuDNN) for its deep-learning operators,
    and the NVIDIA driver here is older than their CUDA major needs: the driver's highest CUDA
    (`cuda_driver_max`) is below the major the libraries were built for (libcublas.so.12 needs a
    driver for CUDA 12.x). HALCON's GPU deep learning then fails to initialise the device.

    What is checked: the CUDA major read from the library file names inside $HALCONROOT against
    the driver. What is not: the exact CUDA / cuDNN / driver versions each HALCON release
    requires, which its Installation Guide ("Requirements for Deep Learning") lists and envdoctor
    could not read; the fix links to it. Fix: install a driver that supports that CUDA major
    (the minimum from NVIDIA's CUDA release notes), or the HALCON release matching your driver.
    """
    data = snap.data("apps.halcon") or {}
    majors = sorted(
        {
            int(lib["major"])
            for lib in data.get("cuda_libs") or []
            if lib.get("library") in ("cudart", "cublas") and lib.get("major")
        }
    )
    driver_max = parse(str(snap.fact("nvidia.driver", "cuda_driver_max") or ""))
    if not majors or driver_max is None:
        return None
    need = majors[-1]
    if driver_max.release[0] >= need:
        return None
    system = str(snap.fact("os", "system") or "Linux").lower()
    os_name = "windows" if system.startswith("win") else "linux"
    minimum = nq.min_driver_for_cuda(ms, f"{need}.0", os_name)
    libs = ", ".join(
        lib["file"].rsplit("/", 1)[-1] for lib in data["cuda_libs"] if lib.get("major") == need
    )
    docs = aq.row(ms, "halcon", "dl-requirements") or {}
    return Finding(
        id="app.halcon.cuda-unsupported",
        severity=Severity.ERROR,
        title=f"HALCON's deep-learning libraries need CUDA {need}; the driver supports CUDA {snap.fact('nvidia.driver', 'cuda_driver_max')}",
        detail=(
            f"HALCON {data.get('version') or ''} at {data.get('root')} ships {libs} (CUDA {need}), but driver "
            f"{snap.fact('nvidia.driver', 'driver_version')} supports CUDA up to "
            f"{snap.fact('nvidia.driver', 'cuda_driver_max')}: its GPU deep learning cannot start."
        ),
        evidence=(
            Evidence("apps.halcon.cuda_libs", libs, f"CUDA {need}"),
            Evidence(
                "nvidia.driver.cuda_driver_max",
                str(snap.fact("nvidia.driver", "cuda_driver_max")),
                f">= {need}.0",
            ),
        ),
        fixes=(
            Fix(
                f"Install an NVIDIA driver for CUDA {need}"
                + (f" ({minimum} or newer)" if minimum else ""),
                (),
                Risk.NEEDS_RESTART,
                "https://www.nvidia.com/en-us/drivers/",
            ),
            Fix(
                "Check the CUDA / cuDNN / driver versions your HALCON release requires in its Installation Guide "
                "(chapter 'Requirements for Deep Learning')",
                (),
                Risk.SAFE,
                docs.get("source") or INSTALLATION_GUIDE,
            ),
        ),
    )


CHECKS = [halcon_cuda]
