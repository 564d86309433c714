"""CUDA toolkits against the driver, and against each other."""

from __future__ import annotations

import shlex
from typing import Any

from envdoctor.checkdef import check
from envdoctor.checks import cuda_shell
from envdoctor.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.queries.nvidia import compat_floor, driver_supports_cuda, min_driver_for_cuda
from envdoctor.remedies import fixes_for
from envdoctor.snapshot import Snapshot, Status
from envdoctor.versions import at_least, major_minor, parse

_RELEASE_NOTES = "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html"
_COMPAT = "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html"
_DRIVER_GUIDE = "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/index.html"
_CONTAINER_TOOLKIT = (
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"
)
_CPP_EXTENSION = "https://pytorch.org/docs/stable/cpp_extension.html"
_NVIDIA_REPOS = {
    ("debian", "12"): "debian12",
    ("ubuntu", "22.04"): "ubuntu2204",
    ("ubuntu", "24.04"): "ubuntu2404",
    ("ubuntu", "20.04"): "ubuntu2004",
    ("debian", "11"): "debian11",
}


def _toolkit_label(tk: dict[str, Any]) -> str:
    return f"CUDA {tk.get('version') or tk.get('release') or '(version unknown)'} at {tk.get('real_path') or tk.get('path')}"


def _driver_release(tk: dict[str, Any]) -> str | None:
    """The CUDA release to look the driver minimum up with: version.json's SDK version ("12.8.2")
    when known, else major.minor ("13.0"); nvcc / dist-info numbers ("13.0.88") are component
    versions, not update numbers."""
    if tk.get("version_source") == "version.json" and tk.get("sdk_version") == tk.get("version"):
        return tk.get("version")
    return tk.get("release") or major_minor(tk.get("version"))


def _relevant_toolkits(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The toolkits code would be built with: /usr/local/cuda's, PATH nvcc's, CUDA_HOME's; else all."""
    nvcc = data.get("nvcc_on_path") or {}
    wanted = {data.get("default_path"), nvcc.get("toolkit")}
    picked = [
        tk
        for tk in data.get("toolkits", [])
        if tk.get("real_path") in wanted
        or {"CUDA_HOME", "CUDA_PATH"} & set(tk.get("found_via", []))
    ]
    return picked or list(data.get("toolkits", []))


def _driver_platform(snap: Snapshot) -> str:
    platform = snap.fact("nvidia.driver", "platform")
    if platform:
        return str(platform)
    system = str(snap.fact("os", "system") or "linux").lower()
    return "windows" if system.startswith("win") else "linux"


def _repo(snap: Snapshot) -> str | None:
    distro = (
        str(snap.fact("os", "distro_id") or "").lower(),
        str(snap.fact("os", "distro_version") or ""),
    )
    return _NVIDIA_REPOS.get(distro)


def driver_install_fix(snap: Snapshot, minimum: str | None, why: str) -> Fix:
    """Install (or upgrade to) an NVIDIA driver of at least `minimum`, with the commands for this distro."""
    need = f" {minimum} or newer" if minimum else ""
    distro = str(snap.fact("os", "distro_id") or "").lower()
    repo = _repo(snap)
    if distro == "ubuntu" and minimum:
        branch = minimum.split(".")[0]
        return Fix(
            f"Install the NVIDIA driver{need} {why}, then reboot",
            ("sudo apt-get update", f"sudo apt-get install nvidia-driver-{branch}"),
            Risk.NEEDS_RESTART,
            _DRIVER_GUIDE,
        )
    if repo:
        keyring = f"https://developer.download.nvidia.com/compute/cuda/repos/{repo}/x86_64/cuda-keyring_1.1-1_all.deb"
        return Fix(
            f"Install the NVIDIA driver{need} from NVIDIA's CUDA repository {why}, then reboot",
            (
                f"wget {keyring}",
                "sudo dpkg -i cuda-keyring_1.1-1_all.deb",
                "sudo apt-get update",
                "sudo apt-get install cuda-drivers",
            ),
            Risk.NEEDS_RESTART,
            _DRIVER_GUIDE,
        )
    return Fix(
        f"Install the NVIDIA driver{need} for this OS from NVIDIA's driver installation guide {why}",
        (),
        Risk.NEEDS_RESTART,
        _DRIVER_GUIDE,
    )


def _no_driver_reason(snap: Snapshot) -> str | None:
    """Why there is no usable NVIDIA driver, or None when there is one (or it cannot be told)."""
    group = snap.group("nvidia.driver")
    if group is not None:
        if group.status is Status.ABSENT:
            return group.reason or "no NVIDIA driver found"
        if group.collected and group.data.get("driver_loaded") is False:
            return group.data.get("smi_error") or "the NVIDIA driver is not loaded"
        return None
    libraries = snap.data("cuda.libraries")
    if libraries is None:
        return None
    if any(
        c.get("family") == "driver" and c.get("via") not in ("not-searched", "wheel")
        for c in libraries.get("copies", [])
    ):
        return None
    return "libcuda.so.1, the driver's CUDA library, is nowhere the dynamic loader looks"


@check("cuda.toolkit-without-driver", needs=("cuda.toolkits",))
def toolkit_without_driver(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """A CUDA toolkit is installed but there is no NVIDIA driver: nothing can run on a GPU.

    The CUDA toolkit is the compiler (nvcc), headers and libraries for building CUDA programs. It
    does not contain the driver. Running any CUDA program, whether built with this toolkit,
    PyTorch or a container image, needs the NVIDIA kernel module and its user-space library
    libcuda.so.1. Without them every CUDA call reports that there is no device (torch:
    `torch.cuda.is_available()` is False).

    This is informational: a build machine or a CI container can compile CUDA code without a
    GPU. If the machine should run GPU work, install a driver at least as new as the toolkit
    needs (NVIDIA's release notes list the minimum per release). In a container the driver
    comes from the host: start it with `docker run --gpus all` on a host with the NVIDIA
    Container Toolkit.
    """
    data = snap.data("cuda.toolkits") or {}
    toolkits = _relevant_toolkits(data)
    if not toolkits:
        return None
    reason = _no_driver_reason(snap)
    if reason is None:
        return None
    main = toolkits[0]
    version = main.get("version") or main.get("release")
    lookup = _driver_release(main)
    minimum = min_driver_for_cuda(ms, lookup, "linux") if lookup else None
    where = []
    if data.get("default_path") == main.get("real_path"):
        where.append("/usr/local/cuda points to it")
    nvcc = data.get("nvcc_on_path") or {}
    if nvcc.get("toolkit") == main.get("real_path"):
        where.append(f"`nvcc` on PATH ({nvcc.get('path')}) is its compiler")
    others = [_toolkit_label(t) for t in data.get("toolkits", []) if t is not main]
    detail = (
        f"{_toolkit_label(main)} is installed (version from {main.get('version_source') or 'unknown'}"
        f"{'; ' + '; '.join(where) if where else ''}), but this machine has no NVIDIA driver "
        f"({reason.removeprefix('no NVIDIA driver: ')}). "
        "A toolkit only builds CUDA programs; running them needs the driver's kernel module and "
        "libcuda.so.1. So nvcc can compile here, but nothing (code built with this toolkit, PyTorch, "
        "any CUDA container) can use a GPU: CUDA calls report no device. Nothing to fix if this "
        "machine only builds."
    )
    if others:
        detail += " Other toolkits: " + "; ".join(others) + "."
    if minimum:
        detail += f" To run CUDA {lookup} code, a driver of at least {minimum} is needed (NVIDIA's minimum on Linux)."
    in_container = snap.fact("container.inside", "in_container")
    container_fix = Fix(
        (
            "This runs in a container: start it again"
            if in_container
            else "If this is a container: start it"
        )
        + " with the host's GPUs and driver passed in (IMAGE is its image; the host needs the NVIDIA driver "
        "and the NVIDIA Container Toolkit)",
        ("docker run --gpus all IMAGE",),
        Risk.SAFE,
        _CONTAINER_TOOLKIT,
    )
    driver_fix = driver_install_fix(snap, minimum, "if this is the machine with the GPU")
    fixes = (
        [container_fix]
        if in_container
        else [driver_fix]
        if in_container is False
        else [container_fix, driver_fix]
    )
    return Finding(
        id="cuda.toolkit-without-driver",
        severity=Severity.INFO,
        title=f"CUDA {major_minor(version) or ''} toolkit installed, but no NVIDIA driver: nothing can run on a GPU here".replace(
            "  ", " "
        ),
        detail=detail,
        evidence=(
            Evidence("cuda.toolkits", _toolkit_label(main)),
            Evidence("nvidia.driver", reason, "an NVIDIA driver (kernel module and libcuda.so.1)"),
        ),
        fixes=tuple(fixes),
    )


def _wheel_note(snap: Snapshot, tk: dict[str, Any]) -> str:
    """What the toolkit means for pip-installed frameworks (they bring their own runtime)."""
    libraries = snap.data("cuda.libraries") or {}
    wheels = [w for w in libraries.get("wheels", []) if w.get("lib_dirs")]
    if not wheels:
        return ""
    env = snap.data("cuda.env") or {}
    entries = [e["path"] for e in env.get("LD_LIBRARY_PATH", {}).get("entries", [])]
    root = tk.get("real_path") or ""
    on_path = [
        e
        for e in entries
        if e and (e == root or e.startswith(root.rstrip("/") + "/") or e in tk.get("lib_dirs", []))
    ]
    frameworks = (
        ", ".join(sorted(libraries.get("framework_requires", {}))) or "pip-installed frameworks"
    )
    if on_path:
        return (
            f" {frameworks} bring their own CUDA runtime in pip nvidia-* wheels, but LD_LIBRARY_PATH "
            f"({', '.join(on_path)}) puts this toolkit's libraries ahead of them "
            "(see cuda.ld-library-path-shadows-wheel)."
        )
    return (
        f" This does not affect {frameworks}: pip wheels bundle their own CUDA runtime, so a system "
        "toolkit neither helps nor hurts them while it is not on LD_LIBRARY_PATH."
    )


@check("cuda.toolkit-newer-than-driver", needs=("cuda.toolkits", "nvidia.driver"))
def toolkit_newer_than_driver(snap: Snapshot, ms: MatrixSet) -> list[Finding]:
    """The CUDA toolkit is newer than the installed driver supports.

    Code compiled with a toolkit needs a driver at least as new as that toolkit's release (NVIDIA
    lists the minimum per release). From CUDA 11 on, minor-version compatibility lets code built
    with a newer toolkit of the same major run on an older driver of that major, except code
    that JIT-compiles PTX, which fails with `cudaErrorUnsupportedPtxVersion` ("the provided PTX
    was compiled with an unsupported toolchain"). Across majors (a CUDA 12 toolkit on a CUDA 11
    driver) programs fail with `cudaErrorInsufficientDriver` ("CUDA driver version is
    insufficient for CUDA runtime version").

    This concerns what you compile with that nvcc (CUDA extensions, your own kernels). pip wheels
    such as torch's bundle their own CUDA runtime, so a system toolkit neither helps nor hurts
    them unless its libraries are on LD_LIBRARY_PATH. Fix: upgrade the driver, or build with a
    toolkit the driver supports.
    """
    driver = snap.data("nvidia.driver") or {}
    version = driver.get("driver_version")
    cuda_max = driver.get("cuda_driver_max")
    if not version and not cuda_max:
        return []
    platform = _driver_platform(snap)
    data = snap.data("cuda.toolkits") or {}
    findings = []
    for tk in _relevant_toolkits(data):
        tk_version = tk.get("version") or tk.get("release")
        release = tk.get("release") or major_minor(tk_version)
        if not tk_version or not release:
            continue
        if cuda_max and parse(release) <= parse(major_minor(cuda_max)):
            continue
        lookup = _driver_release(tk) or release
        own = min_driver_for_cuda(ms, lookup, platform)
        if version and own and at_least(version, own):
            continue
        supported = driver_supports_cuda(ms, version, lookup, platform) if version else None
        if supported is None:
            if not cuda_max:
                continue
            same_major = parse(release).release[0] == parse(cuda_max).release[0]
            supported = same_major and parse(release).release[0] >= 11
        findings.append(
            _newer_finding(
                snap,
                ms,
                tk,
                tk_version,
                release,
                version,
                cuda_max,
                own,
                bool(supported),
                platform,
                data,
            )
        )
    return findings


def _newer_finding(
    snap: Snapshot,
    ms: MatrixSet,
    tk: dict[str, Any],
    tk_version: str,
    release: str,
    driver: str | None,
    cuda_max: str | None,
    own: str | None,
    compat: bool,
    platform: str,
    data: dict[str, Any],
) -> Finding:
    driver_text = f"driver {driver}" + (f" (supports CUDA up to {cuda_max})" if cuda_max else "")
    if compat:
        floor = compat_floor(ms, parse(release).release[0], platform)
        detail = (
            f"{_toolkit_label(tk)} is newer than the {driver_text}. Code built with it still runs "
            f"through CUDA minor-version compatibility (driver {floor or 'of the same major'} or newer), "
            "except code that JIT-compiles PTX: that fails with cudaErrorUnsupportedPtxVersion."
        )
        severity = Severity.INFO
    else:
        detail = (
            f"{_toolkit_label(tk)} is newer than the {driver_text} supports: programs and CUDA "
            "extensions compiled with this nvcc fail to start with cudaErrorInsufficientDriver "
            '("CUDA driver version is insufficient for CUDA runtime version").'
        )
        severity = Severity.WARNING
    detail += _wheel_note(snap, tk)
    # the chooser's driver (the verifier drops one past the GPU's last branch: a K80 stays on 470)
    fixes = list(
        fixes_for(snap, ms, "driver", min=own, reason=f"CUDA {release} needs it", repo=_repo(snap))
        if own
        else (driver_install_fix(snap, own, f"(CUDA {release} needs it)"),)
    )
    older = [
        t
        for t in data.get("toolkits", [])
        if t is not tk
        and t.get("release")
        and cuda_max
        and parse(t["release"]) <= parse(major_minor(cuda_max))
    ]
    if older:
        best = max(older, key=lambda t: parse(t["release"]))
        root = best["real_path"]
        fixes.insert(
            1,
            Fix(
                f"Build with the CUDA {best['release']} toolkit already installed at {root}, "
                "which this driver supports",
                (
                    f"export PATH={shlex.quote(root + '/bin')}:$PATH",
                    f"export CUDA_HOME={shlex.quote(root)}",
                ),
                Risk.SAFE,
                _RELEASE_NOTES,
            ),
        )
    elif cuda_max and _repo(snap):
        wanted = major_minor(cuda_max)
        dashed = wanted.replace(".", "-")
        fixes.append(
            Fix(
                f"Or install the CUDA {wanted} toolkit, which this driver supports, and build with it",
                (
                    "sudo apt-get install cuda-toolkit-" + dashed,
                    f"export PATH=/usr/local/cuda-{wanted}/bin:$PATH",
                    f"export CUDA_HOME=/usr/local/cuda-{wanted}",
                ),
                Risk.SAFE,
                _RELEASE_NOTES,
            )
        )
    return Finding(
        id="cuda.toolkit-newer-than-driver",
        severity=severity,
        title=f"CUDA {release} toolkit is newer than the NVIDIA driver {driver or ''} supports".replace(
            "  ", " "
        ),
        detail=detail,
        evidence=(
            Evidence("cuda.toolkits.version", tk_version, f"<= {cuda_max}" if cuda_max else None),
            Evidence("nvidia.driver.driver_version", str(driver), f">= {own}" if own else None),
        ),
        fixes=tuple(fixes),
    )


@check("cuda.toolkits-disagree", needs=("cuda.toolkits",))
def toolkits_disagree(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """`nvcc` on PATH, CUDA_HOME / CUDA_PATH and /usr/local/cuda name different CUDA versions.

    Build tools pick "the" CUDA toolkit in different ways: PyTorch's extension builder
    (torch.utils.cpp_extension) takes CUDA_HOME, then CUDA_PATH, then the directory of `nvcc` on
    PATH, then /usr/local/cuda; CMake's FindCUDAToolkit and many Makefiles start from `nvcc` on
    PATH or /usr/local/cuda. When these name different releases (nvcc 11.8 on PATH, CUDA_HOME at
    12.4), an extension is compiled with one toolkit's headers and linked or run against another's
    libraries: version-mismatch errors at build time, undefined symbols at import. Fix: make them
    name one toolkit, usually the one whose nvcc is first on PATH.
    """
    data = snap.data("cuda.toolkits") or {}
    by_root = {tk["real_path"]: tk for tk in data.get("toolkits", []) if tk.get("real_path")}
    views: list[tuple[str, str, str | None]] = []  # (what, path, release)
    nvcc = data.get("nvcc_on_path") or {}
    if nvcc.get("path"):
        views.append(
            (
                "nvcc on PATH",
                nvcc.get("toolkit") or nvcc["path"],
                nvcc.get("release") or (by_root.get(nvcc.get("toolkit")) or {}).get("release"),
            )
        )
    missing = []
    for var in ("CUDA_HOME", "CUDA_PATH"):
        value = (data.get("cuda_home") or {}).get(var)
        if not value:
            continue
        tk = next((t for t in by_root.values() if var in t.get("found_via", [])), None)
        if tk is None:
            missing.append((var, value))
            continue
        views.append((var, tk["real_path"], tk.get("release")))
    if data.get("default_path") in by_root:
        views.append(
            ("/usr/local/cuda", data["default_path"], by_root[data["default_path"]].get("release"))
        )
    releases = {v[2] for v in views if v[2]}
    if len(releases) < 2 and not missing:
        return None
    env = snap.data("cuda.env") or {}
    target = next((v for v in views if v[0] == "nvcc on PATH" and v[2]), None) or next(
        (v for v in views if v[2]), None
    )
    fixes: list[Fix] = []
    if target is not None:
        root = target[1]
        for var in ("CUDA_HOME", "CUDA_PATH"):
            value = (data.get("cuda_home") or {}).get(var)
            disagrees = any(v[0] == var and v[2] != target[2] for v in views) or any(
                m[0] == var for m in missing
            )
            if not value or not disagrees:
                continue
            lines = cuda_shell.profile_lines(env, var)
            fixes.append(
                Fix(
                    f"Point {var} at {root}, the toolkit of the {target[0]} (CUDA {target[2]})",
                    (f"export {var}={shlex.quote(root)}",),
                    Risk.SAFE,
                    _CPP_EXTENSION,
                )
            )
            fixes.extend(
                cuda_shell.replace_line_fix(line, f"export {var}={root}", "so new shells agree")
                for line in lines
            )
        home_views = [v for v in views if v[0] in ("CUDA_HOME", "CUDA_PATH") and v[2] != target[2]]
        if home_views and target[0] == "nvcc on PATH":
            other = home_views[0]
            fixes.append(
                Fix(
                    f"Or keep {other[0]} and put its nvcc first on PATH (CUDA {other[2]})",
                    (f"export PATH={shlex.quote(other[1] + '/bin')}:$PATH",),
                    Risk.SAFE,
                )
            )
        default = next((v for v in views if v[0] == "/usr/local/cuda"), None)
        link = data.get("default_link") or {}
        if default and default[2] != target[2] and link.get("is_symlink"):
            chain = link.get("chain", [])
            if "/etc/alternatives/cuda" in chain:
                command = f"update-alternatives --set cuda {shlex.quote(root)}"
            else:
                command = f"ln -sfn {shlex.quote(root)} /usr/local/cuda"
            fixes.append(Fix(f"Point /usr/local/cuda at {root} (as root)", (command,), Risk.SAFE))
    described = "; ".join(
        f"{what}: {path} (CUDA {release or '?'})" for what, path, release in views
    )
    for var, value in missing:
        described += f"; {var}={value} is not a CUDA toolkit directory"
    return Finding(
        id="cuda.toolkits-disagree",
        severity=Severity.WARNING,
        title="nvcc on PATH, CUDA_HOME and /usr/local/cuda name different CUDA toolkits"
        if len(releases) >= 2
        else "CUDA_HOME / CUDA_PATH does not point at a CUDA toolkit",
        detail=(
            f"{described}. Builds of CUDA extensions (torch.utils.cpp_extension, CMake, setup.py) "
            "then compile with one toolkit and link or run against another."
        ),
        evidence=tuple(
            Evidence(what, f"{path} (CUDA {release or '?'})") for what, path, release in views
        )
        + tuple(Evidence(var, value, "a CUDA toolkit directory") for var, value in missing),
        fixes=tuple(fixes),
    )


CHECKS = [toolkit_without_driver, toolkit_newer_than_driver, toolkits_disagree]
