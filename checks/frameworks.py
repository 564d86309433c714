"""TensorFlow, JAX and CuPy against the platform, driver and CUDA libraries they need."""

from __future__ import annotations

import re
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from envdoctor.installers.pip_commands import detect_installer, install, quote, uninstall
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import release, release_major, version_key

_TF_PIP = "https://www.tensorflow.org/install/pip"
_JAX_INSTALL = "https://docs.jax.dev/en/latest/installation.html"
_CUPY_INSTALL = "https://docs.cupy.dev/en/stable/install.html"
_TF_NAMES = ("tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel")


def _packages(snap: Snapshot) -> dict[str, dict[str, Any]]:
    return (snap.data("python.frameworks") or {}).get("packages") or {}


def _installer(snap: Snapshot, name: str):  # noqa: ANN202
    return detect_installer(snap.data("python"), snap.data("python.packages"), name)


def _rows(ms: MatrixSet, package: str) -> list[dict[str, Any]]:
    try:
        return [r for r in ms.table("python_frameworks").rows if r.get("package") == package]
    except KeyError:
        return []


def _windows(snap: Snapshot) -> bool | None:
    platform = snap.fact("python", "platform")
    if platform:
        return str(platform).startswith("win")
    system = snap.fact("os", "system")
    return None if system is None else str(system).lower() == "windows"


@check(
    "tensorflow.windows-native-no-gpu",
    needs=("python.frameworks",),
    matrices=("python_frameworks",),
)
def tensorflow_windows(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """TensorFlow 2.11 or newer on native Windows has no GPU support.

    TensorFlow's last release with CUDA support on native Windows is 2.10: "starting in TF 2.11,
    CUDA build is not supported for Windows". On Windows, `tf.config.list_physical_devices('GPU')`
    stays empty whatever driver and CUDA are installed. The GPU paths are WSL2 (`pip install
    tensorflow[and-cuda]` inside Linux) or TensorFlow 2.10 with CUDA 11.2 / cuDNN 8.1 on a
    Python it supports (3.7-3.10).
    """
    if not _windows(snap):
        return None
    packages = _packages(snap)
    name = next((n for n in _TF_NAMES if n in packages), None)
    if name is None:
        return None
    version = str(packages[name].get("version") or "")
    rows = sorted(_rows(ms, "tensorflow"), key=lambda r: version_key(r["version"]))
    last_native = max(
        (version_key(r["version"]) for r in rows if r.get("windows_native_gpu")), default=None
    )
    first_without = min(
        (
            version_key(r["version"])
            for r in rows
            if r.get("windows_native_gpu") is False
            and last_native is not None
            and version_key(r["version"]) > last_native
        ),
        default=None,
    )
    have = release(version)
    if have is None or first_without is None or have < first_without:
        return None
    gpus = snap.fact("nvidia.gpus", "gpus") or []
    inst = _installer(snap, name)
    py = quote(inst, inst.python)
    detail = (
        f"{name} {version} runs on native Windows, where TensorFlow {first_without} and newer "
        "have no CUDA support: it sees no GPU."
    )
    if gpus:
        detail += f" This machine has {', '.join(str(g.get('name')) for g in gpus)}."
    return Finding(
        id="tensorflow.windows-native-no-gpu",
        severity=Severity.ERROR if gpus else Severity.WARNING,
        title=f"TensorFlow {version} has no GPU support on native Windows",
        detail=detail,
        evidence=(
            Evidence(f"{name} version", version, f"< {first_without} for GPU on native Windows"),
            Evidence("python.platform", str(snap.fact("python", "platform") or "windows")),
        ),
        fixes=(
            Fix(
                "Use TensorFlow in WSL2 (Ubuntu), where the CUDA build works",
                (
                    "wsl --install -d Ubuntu",
                    'wsl -d Ubuntu -- python3 -m pip install "tensorflow[and-cuda]"',
                ),
                Risk.NEEDS_RESTART,
                url=_TF_PIP,
            ),
            Fix(
                f"Or stay native with TensorFlow {last_native} (Python 3.10 or older) and conda's "
                "CUDA 11.2 / cuDNN 8.1",
                (
                    "conda install -c conda-forge cudatoolkit=11.2 cudnn=8.1.0",
                    f'{py} -m pip install "tensorflow<2.11"',
                ),
                url=_TF_PIP,
            ),
        ),
    )


_JAX_PLUGIN = re.compile(r"^jax-cuda(?P<major>\d+)-(?P<kind>plugin|pjrt)$")


def _release_tuple(version: Any) -> tuple[int, ...] | None:
    """The dotted number prefix, as jaxlib/plugin_support.py compares it."""
    match = re.match(r"[0-9]+(?:\.[0-9]+)*", str(version or ""))
    return tuple(int(x) for x in match.group(0).split(".")) if match else None


@check("jax.cuda-plugin-mismatch", "jax.cudnn-too-old", needs=("python.frameworks",))
def jax_plugins(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The JAX CUDA plugin does not match jaxlib, or the cuDNN it needs is too old.

    JAX's GPU support lives in separate packages (jax-cuda12-plugin / jax-cuda12-pjrt, or the
    cuda13 ones). jaxlib loads a plugin only when its version equals jaxlib's (jaxlib
    plugin_support.py: "JAX plugin jax_cuda12_plugin version X is installed, but it is not
    compatible with the installed jaxlib version Y, so it will not be used"), after which JAX
    falls back to the CPU. Upgrading jax or jaxlib alone causes it. The plugin also declares the
    cuDNN wheel it needs; an older nvidia-cudnn wheel breaks its initialisation.
    """
    packages = _packages(snap)
    jaxlib = packages.get("jaxlib")
    installed = snap.fact("python.packages", "packages") or {}
    findings = []
    for name, entry in sorted(packages.items()):
        match = _JAX_PLUGIN.match(name)
        if not match:
            continue
        major = match.group("major")
        inst = _installer(snap, name)
        if jaxlib and _release_tuple(entry.get("version")) != _release_tuple(jaxlib.get("version")):
            target = str(release(jaxlib.get("version")))
            specs = [
                f"jax-cuda{major}-plugin[with-cuda]=={target}",
                f"jax-cuda{major}-pjrt=={target}",
            ]
            findings.append(
                Finding(
                    id="jax.cuda-plugin-mismatch",
                    severity=Severity.ERROR,
                    title=f"{name} {entry.get('version')} does not match jaxlib {jaxlib.get('version')}: JAX runs on the CPU",
                    detail=(
                        f"jaxlib {jaxlib.get('version')} uses a CUDA plugin only of its own version; "
                        f'{name} {entry.get("version")} is ignored ("it is not compatible with the '
                        'installed jaxlib version ... so it will not be used") and JAX falls back to the CPU.'
                    ),
                    evidence=(
                        Evidence(
                            f"{name} version", str(entry.get("version")), str(jaxlib.get("version"))
                        ),
                    ),
                    fixes=(
                        Fix(
                            f"Install the CUDA {major} plugin of jaxlib {target}",
                            (install(inst, specs),),
                            url=_JAX_INSTALL,
                        ),
                        Fix(
                            "Or upgrade jax, jaxlib and the plugin together",
                            (install(inst, ["-U", f"jax[cuda{major}]"]),),
                            url=_JAX_INSTALL,
                        ),
                    ),
                )
            )
        for dep, spec in sorted((entry.get("requires") or {}).items()):
            if not dep.startswith("nvidia-cudnn") or dep not in installed:
                continue
            try:
                ok = SpecifierSet(spec).contains(str(installed[dep]), prereleases=True)
            except InvalidSpecifier:
                continue
            if not ok:
                findings.append(
                    Finding(
                        id="jax.cudnn-too-old",
                        severity=Severity.ERROR,
                        title=f"{name} {entry.get('version')} needs {dep}{spec}; {installed[dep]} is installed",
                        detail=(
                            f"{name} declares {dep}{spec} in its metadata; the installed {dep} "
                            f"{installed[dep]} does not satisfy it, so cuDNN initialisation fails."
                        ),
                        evidence=(Evidence(f"{dep} version", str(installed[dep]), spec),),
                        fixes=(
                            Fix(
                                f"Install the cuDNN wheel {name} asks for",
                                (install(inst, [f"{dep}{spec}"]),),
                                url=_JAX_INSTALL,
                            ),
                        ),
                    )
                )
    return findings


_CUPY = re.compile(r"^cupy-cuda(\d+)x?$")


@check("cupy.cuda-major-mismatch", needs=("python.frameworks",))
def cupy_major(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The CuPy wheel is built for another CUDA major than this machine or environment provides.

    CuPy publishes one wheel per CUDA major (cupy-cuda11x, cupy-cuda12x, cupy-cuda13x) and loads
    that major's runtime libraries (libcudart.so.12...) from the system toolkit or the
    `cupy-cudaXXx[ctk]` wheels; the driver must support that CUDA major. A wheel for a major the
    driver does not support, or for one whose libraries are not in the environment (cupy-cuda11x
    next to a CUDA 12 torch) fails at import or at the first kernel. Only one CuPy package may be
    installed at a time.
    """
    packages = _packages(snap)
    cupys = {n: e for n, e in packages.items() if n.startswith("cupy") and n != "cupy"}
    if not cupys:
        return []
    findings = []
    driver_max = snap.fact("nvidia.driver", "cuda_driver_max")
    torch_cuda = snap.fact("python.torch", "cuda")
    if len(cupys) + (1 if "cupy" in packages else 0) > 1:
        names = sorted(cupys) + (["cupy"] if "cupy" in packages else [])
        inst = _installer(snap, names[0])
        keep = _wanted_cupy(driver_max, torch_cuda) or names[0]
        findings.append(
            Finding(
                id="cupy.cuda-major-mismatch",
                severity=Severity.ERROR,
                title=f"Several CuPy packages are installed: {', '.join(names)}",
                detail="CuPy's packages overwrite one another's files; install exactly one.",
                evidence=(Evidence("CuPy packages", ", ".join(names), "exactly one"),),
                fixes=(
                    Fix(
                        f"Keep only {keep}",
                        (*uninstall(inst, names), install(inst, [keep])),
                        url=_CUPY_INSTALL,
                    ),
                ),
            )
        )
    for name, entry in sorted(cupys.items()):
        match = _CUPY.match(name)
        if not match:
            continue
        digits = match.group(1)
        major = int(digits[:2]) if len(digits) >= 3 else int(digits)
        problem = None
        driver_major, torch_major = release_major(driver_max), release_major(torch_cuda)
        if driver_major is not None and driver_major < major:
            problem = (
                f"{name} needs a driver supporting CUDA {major}.x; this one supports CUDA {driver_max}",
                Evidence("nvidia.driver.cuda_driver_max", str(driver_max), f">= {major}.0"),
            )
        elif torch_major is not None and torch_major != major:
            problem = (
                f"{name} loads the CUDA {major} runtime, but this environment's torch ships CUDA "
                f"{torch_cuda} libraries",
                Evidence("python.torch.cuda", str(torch_cuda), f"{major}.x"),
            )
        if problem is None:
            continue
        wanted = _wanted_cupy(driver_max, torch_cuda)
        inst = _installer(snap, name)
        fixes: tuple[Fix, ...] = ()
        if wanted and wanted != name:
            fixes = (
                Fix(
                    f"Replace {name} with {wanted}",
                    (*uninstall(inst, [name]), install(inst, [wanted])),
                    url=_CUPY_INSTALL,
                ),
            )
        findings.append(
            Finding(
                id="cupy.cuda-major-mismatch",
                severity=Severity.ERROR,
                title=f"{name} {entry.get('version')} is built for CUDA {major}.x",
                detail=problem[0] + ".",
                evidence=(problem[1],),
                fixes=fixes,
            )
        )
    return findings


def _wanted_cupy(driver_max: Any, torch_cuda: Any) -> str | None:
    """cupy-cudaXXx for torch's CUDA major if the driver runs it, else the driver's major."""
    drv = release_major(driver_max)
    torch_major = release_major(torch_cuda)
    major = torch_major if torch_major and (drv is None or torch_major <= drv) else drv
    if major is None or major < 11:
        return None
    return f"cupy-cuda{major}x"


CHECKS = [tensorflow_windows, jax_plugins, cupy_major]
