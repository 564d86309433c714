"""The CUDA and cuDNN a framework release was built and tested with (TensorFlow's tested build
configurations in the python_frameworks table), as a fix: "TensorFlow 2.12 needs CUDA 11.8 and
cuDNN 8.6" instead of "install the CUDA/cuDNN of the table".

From TensorFlow 2.14 on, Linux pip installs those libraries as wheels (`tensorflow[and-cuda]`);
before, they come from NVIDIA's installers and must be on the loader path.
"""

from __future__ import annotations

import re
from typing import Any

from packaging.version import Version

from envdoctor.fix_effects import Assumes
from envdoctor.model.findings import Fix
from envdoctor.model.nvidia_records import cudnn_release
from envdoctor.model.snapshot import Snapshot
from envdoctor.remedies.host import Host
from envdoctor.remedies.package_pythons import given, minor_of, release_rows, row_for
from envdoctor.remedies.spec import RemedySpec

TESTED_BUILDS = "https://www.tensorflow.org/install/source#gpu"
AND_CUDA_FROM = Version("2.14")  # tensorflow[and-cuda] exists from 2.14 (install/pip.md)
# releases whose [and-cuda] wheels are not found by TensorFlow itself (tensorflow#63362): the
# signature's written fix names the releases to use instead
AND_CUDA_BROKEN = {Version("2.16")}


def framework_lib_fixes(spec: RemedySpec, snap: Snapshot, ms: Any, host: Host) -> list[Fix]:
    """ "cuda-libs-for-package": params package*, version (the installed or asked-for release)."""
    package = given(spec.param("package"))
    version = given(spec.param("version"))
    if package is not None and (version is None or not re.match(r"\d+\.\d+", version)):
        return releases_for_cudnn(package, given(spec.param("cudnn")), ms, host)
    if package is None or version is None:
        return []
    row = row_for(ms, package, version)
    if row is None or not row.get("cuda") or not row.get("cudnn"):
        return []
    cuda, cudnn = str(row["cuda"]), str(row["cudnn"])
    name = str(row.get("package"))
    minor = minor_of(version)
    url = str(row.get("source") or TESTED_BUILDS)
    built = f"{name} {version} is built and tested with CUDA {cuda} and cuDNN {cudnn}"
    if minor in AND_CUDA_BROKEN:
        return []
    if host.os != "windows" and minor is not None and minor >= AND_CUDA_FROM:
        return [
            Fix(
                f"{built}: on Linux install them as wheels with the release "
                f"({name}[and-cuda]=={version}), and keep other CUDA copies off LD_LIBRARY_PATH",
                (f"pip install '{name}[and-cuda]=={version}'",),
                url=url,
                assumes=Assumes(os=("linux",), installer="pip"),
            )
        ]
    return [
        Fix(
            f"{built}: install exactly those (NVIDIA's CUDA {cuda} toolkit and cuDNN {cudnn}) and "
            "put their library folders on the loader path (LD_LIBRARY_PATH; Windows: PATH)",
            ("export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}",)
            if host.os != "windows"
            else (),
            url=url,
        )
    ]


def _cudnn_version(text: str | None) -> Version | None:
    """A cuDNN version as frameworks print it ('6021', '90100', '(8, 9, 2)', '8.9.2', '6'), or None."""
    release = cudnn_release(text.strip()) if text else ""
    return Version(release) if re.fullmatch(r"\d+(?:\.\d+){0,3}", release) else None


def releases_for_cudnn(package: str, cudnn: str | None, ms: Any, host: Host) -> list[Fix]:
    """The framework releases built for the cuDNN major that was loaded (tested build
    configurations): the other way out when that cuDNN cannot be replaced (no root)."""
    loaded = _cudnn_version(cudnn)
    if loaded is None:
        return []
    major = loaded.major
    # a release runs with the cuDNN of its major that is at least the one it was built with
    rows = [
        r
        for r in release_rows(ms, package)
        if (built := _cudnn_version(str(r.get("cudnn") or ""))) is not None
        and built.major == major
        and built <= loaded
    ]
    if not rows:
        return []
    newest = max(rows, key=lambda r: Version(str(r["version"])))
    versions = sorted({str(r["version"]) for r in rows}, key=Version)
    name = str(newest.get("package"))
    # TensorFlow 1.x ships its GPU build as the separate tensorflow-gpu package
    pip_name = (
        f"{name}-gpu" if name == "tensorflow" and Version(versions[-1]) < Version("2.1") else name
    )
    listed = ", ".join(versions) if len(versions) <= 4 else f"{versions[0]} to {versions[-1]}"
    return [
        Fix(
            f"Or keep the loaded cuDNN {major} and install the {name} release built for it: "
            f"{listed} (tested build configurations)",
            (f"pip install {pip_name}=={versions[-1]}",),
            url=str(newest.get("source") or TESTED_BUILDS),
        )
    ]
