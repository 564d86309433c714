"""WSL's driver libraries: a Linux NVIDIA driver installed inside WSL, WSL's driver folder
(/usr/lib/wsl/lib) missing from the loader path, and the libcuda copies ldconfig warns about."""

from __future__ import annotations

from envdoctor.checks import platform_facts as pf
from envdoctor.checks.platform_wsl import WSL_CONTAINERS, gpu_severity
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse

WSL_LIB = "/usr/lib/wsl/lib"
LIBCUDA_ISSUE = "https://github.com/microsoft/WSL/issues/5548"


def _toolkit_package(snap: Snapshot, facts: dict) -> str:
    for name in facts.get("cuda_meta_packages") or {}:
        parts = name.split("-")
        if len(parts) == 3:
            return f"cuda-toolkit-{parts[1]}-{parts[2]}"
    version = parse(str(pf.toolkit_version(snap) or ""))
    if version is not None and len(version.release) >= 2:
        return f"cuda-toolkit-{version.release[0]}-{version.release[1]}"
    return "cuda-toolkit"


@check("wsl.linux-driver-inside-wsl", needs=("platform.wsl",))
def linux_driver(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """A Linux NVIDIA driver is installed inside WSL 2.

    In WSL 2 the GPU driver is the Windows one: its Linux user-space side (libcuda, libnvidia-ml,
    nvidia-smi) appears in /usr/lib/wsl/lib, mapped from C:\\Windows\\System32\\lxss\\lib. NVIDIA's
    CUDA-on-WSL guide: the Windows driver "is stubbed inside the WSL 2 as libcuda.so, therefore users
    must not install any NVIDIA GPU Linux driver within WSL 2". A Linux driver package (nvidia-driver-*,
    libnvidia-compute-*, cuda-drivers, Debian's libcuda1) or NVIDIA's .run installer puts another
    libcuda.so.1 / nvidia-smi in the system folders, which then fail or shadow WSL's. The generic
    `cuda` / `cuda-X-Y` meta-packages from NVIDIA's Ubuntu repositories pull cuda-drivers in; NVIDIA's
    wsl-ubuntu repository, or the `cuda-toolkit-X-Y` package alone, do not. Fix: remove the Linux
    driver packages, restart WSL, and install only the toolkit.
    """
    state = pf.wsl_state(snap)
    facts = state.facts
    if state.version == 1:
        return None
    drivers = dict(facts.get("linux_driver_packages") or {})
    foreign = list(facts.get("linux_libcuda") or [])
    if not drivers and not foreign:
        return None
    ldconfig = list(facts.get("ldconfig_libcuda") or [])
    shadowing = bool(ldconfig) and not ldconfig[0].startswith("/usr/lib/wsl/")
    meta = dict(facts.get("cuda_meta_packages") or {})
    repos = [r for r in facts.get("cuda_repos") or [] if not str(r).startswith("wsl-ubuntu")]
    evidence = [
        Evidence(
            "Linux driver packages",
            ", ".join(f"{n} {v}" for n, v in drivers.items()) or "(none)",
            "none inside WSL",
        )
    ]
    if foreign:
        evidence.append(Evidence("libcuda outside /usr/lib/wsl", ", ".join(foreign[:4]), "none"))
    if ldconfig:
        evidence.append(
            Evidence("ldconfig -p: libcuda.so.1", ldconfig[0], f"{WSL_LIB}/libcuda.so.1")
        )
    if meta:
        evidence.append(Evidence("CUDA meta-packages", ", ".join(meta), "cuda-toolkit-X-Y only"))
    if repos:
        evidence.append(Evidence("NVIDIA apt repositories", ", ".join(repos), "wsl-ubuntu"))
    toolkit = _toolkit_package(snap, facts)
    fixes = []
    if drivers:
        fixes.append(
            Fix(
                "Remove the Linux driver packages (the Windows driver stays), refresh the loader cache",
                (
                    "sudo apt-get remove --purge -y " + " ".join(sorted(drivers) + sorted(meta)),
                    "sudo apt-get autoremove -y",
                    "sudo ldconfig",
                ),
                Risk.DESTRUCTIVE,
                pf.WSL_GPU_DOCS,
            )
        )
    else:
        fixes.append(
            Fix(
                "These libcuda files belong to no package (NVIDIA's .run installer): uninstall that driver",
                ("sudo nvidia-uninstall", "sudo ldconfig"),
                Risk.DESTRUCTIVE,
                pf.WSL_GPU_DOCS,
            )
        )
    fixes.append(
        Fix("Restart WSL from PowerShell on Windows", ("wsl.exe --shutdown",), Risk.NEEDS_RESTART)
    )
    fixes.append(
        Fix(
            f"Install only the CUDA toolkit, from NVIDIA's wsl-ubuntu repository ({toolkit})",
            (
                "wget https://developer.download.nvidia.com/compute/cuda/repos/wsl-ubuntu/x86_64/cuda-keyring_1.1-1_all.deb",
                "sudo dpkg -i cuda-keyring_1.1-1_all.deb",
                "sudo apt-get update",
                f"sudo apt-get install -y {toolkit}",
            ),
            Risk.SAFE,
            "https://developer.nvidia.com/cuda-downloads?target_os=Linux&target_arch=x86_64&Distribution=WSL-Ubuntu",
        )
    )
    origin = f" (pulled in by {', '.join(meta)})" if meta and drivers else ""
    return Finding(
        id="wsl.linux-driver-inside-wsl",
        severity=Severity.ERROR
        if (shadowing or "nvidia-smi" in drivers or any("utils" in d for d in drivers))
        else Severity.WARNING,
        title="A Linux NVIDIA driver is installed inside WSL" + origin,
        detail=(
            "WSL 2 uses the Windows NVIDIA driver through /usr/lib/wsl/lib. The Linux driver files "
            "installed here "
            + (
                "are what the loader picks for libcuda.so.1, so CUDA loads a driver that "
                "cannot talk to the GPU. "
                if shadowing
                else "can shadow WSL's libcuda and nvidia-smi. "
            )
            + "Remove them and keep only the CUDA toolkit."
        ),
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=(
            "torch.cuda-unavailable",
            "nvidia.driver-not-loaded",
            "wsl.lib-not-on-loader-path",
        ),
    )


@check("wsl.lib-not-on-loader-path", needs=("platform.wsl",))
def loader_path(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """WSL's driver folder /usr/lib/wsl/lib is missing, or the dynamic loader does not search it.

    WSL 2 mounts the Windows driver's Linux libraries (libcuda.so.1, libnvidia-ml.so.1, libd3d12.so,
    libdxcore.so) at /usr/lib/wsl/lib and lists the folder in /etc/ld.so.conf.d/ld.wsl.conf, so
    `ldconfig` finds them. When the file is gone (deleted, or `[automount] ldconfig=false` in
    /etc/wsl.conf), CUDA programs fail with "libcuda.so.1: cannot open shared object file". Inside a
    container on WSL the folder exists only when the engine mounts it (`--gpus all`, or
    `-v /usr/lib/wsl:/usr/lib/wsl` with LD_LIBRARY_PATH=/usr/lib/wsl/lib).
    """
    state = pf.wsl_state(snap)
    facts = state.facts
    if state.version != 2 or not facts.get("dxg"):
        return None
    if not facts.get("wsl_lib_dir"):
        if facts.get("in_container"):
            return Finding(
                id="wsl.lib-not-on-loader-path",
                severity=gpu_severity(snap),
                title="This container on WSL has /dev/dxg but not WSL's driver folder /usr/lib/wsl/lib",
                detail="The GPU device was passed in, but the Windows driver's Linux libraries were not mounted.",
                evidence=(Evidence(WSL_LIB, "missing", "mounted from the WSL distribution"),),
                fixes=(
                    Fix(
                        "Start the container with the GPU, or mount WSL's driver folder",
                        (
                            "docker run --rm -it --gpus all IMAGE",
                            "docker run --rm -it --device /dev/dxg -v /usr/lib/wsl:/usr/lib/wsl "
                            "-e LD_LIBRARY_PATH=/usr/lib/wsl/lib IMAGE",
                        ),
                        url=WSL_CONTAINERS,
                    ),
                ),
            )
        return Finding(
            id="wsl.lib-not-on-loader-path",
            severity=gpu_severity(snap),
            title="WSL's driver folder /usr/lib/wsl/lib is missing",
            detail=(
                "/dev/dxg is here but the Windows driver's Linux libraries are not: WSL did not mount them. "
                "Restart WSL; if it stays missing, update WSL and reinstall the Windows GPU driver."
            ),
            evidence=(Evidence(WSL_LIB, "missing", "a WSL mount with libcuda.so.1"),),
            fixes=(
                Fix(
                    "In PowerShell on Windows, restart and update WSL",
                    ("wsl --shutdown", "wsl --update"),
                    Risk.NEEDS_RESTART,
                    pf.WSL_INSTALL_DOCS,
                ),
                Fix(
                    "Reinstall the Windows NVIDIA driver (it provides C:\\Windows\\System32\\lxss\\lib)",
                    url=pf.NVIDIA_DRIVERS,
                    risk=Risk.NEEDS_RESTART,
                ),
            ),
        )
    names = [f.get("name") for f in facts.get("libcuda_files") or []]
    if "libcuda.so.1" not in names:
        return None
    ldconfig = list(facts.get("ldconfig_libcuda") or [])
    if facts.get("wsl_lib_in_ld_conf") or facts.get("wsl_lib_in_ld_library_path"):
        return None
    if facts.get("ldconfig_ran") and any(p.startswith(WSL_LIB) for p in ldconfig):
        return None
    conf = facts.get("wsl_conf") or {}
    fixes = [
        Fix(
            "List WSL's driver folder for the loader and rebuild its cache",
            (f"echo {WSL_LIB} | sudo tee /etc/ld.so.conf.d/ld.wsl.conf", "sudo ldconfig"),
            Risk.SAFE,
            pf.WSL_GPU_DOCS,
        )
    ]
    evidence = [
        Evidence("/etc/ld.so.conf.d/*.conf", f"no line {WSL_LIB}", WSL_LIB),
        Evidence("LD_LIBRARY_PATH", f"without {WSL_LIB}"),
    ]
    if conf.get("automount_ldconfig") is False:
        fixes.insert(
            0,
            Fix(
                "Let WSL write ld.wsl.conf again: remove ldconfig=false from [automount] in /etc/wsl.conf, "
                "then restart WSL",
                (
                    r"sudo sed -i '/^\[automount\]/,/^\[/ {/^\s*ldconfig\s*=/d}' /etc/wsl.conf",
                    "wsl.exe --shutdown",
                ),
                Risk.NEEDS_RESTART,
                pf.WSL_CONFIG_DOCS,
            ),
        )
        evidence.append(
            Evidence("/etc/wsl.conf [automount] ldconfig", "false", "true (the default)")
        )
    if facts.get("ldconfig_ran"):
        evidence.append(
            Evidence(
                "ldconfig -p: libcuda.so.1",
                ", ".join(ldconfig) or "(not found)",
                f"{WSL_LIB}/libcuda.so.1",
            )
        )
    return Finding(
        id="wsl.lib-not-on-loader-path",
        severity=gpu_severity(snap),
        title=f"The dynamic loader does not search {WSL_LIB}, where WSL puts libcuda.so.1",
        detail=(
            "CUDA programs find the Windows driver's libcuda.so.1 only through the loader path. Without "
            f'{WSL_LIB} in /etc/ld.so.conf.d they fail with "libcuda.so.1: cannot open shared object file".'
        ),
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=("torch.cuda-unavailable",),
    )


@check("wsl.libcuda-not-symlink", needs=("platform.wsl",))
def libcuda_copies(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """ldconfig warns "/usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link" on every package operation.

    The Windows NVIDIA driver ships libcuda.so, libcuda.so.1 and libcuda.so.1.1 in
    C:\\Windows\\System32\\lxss\\lib (seen in WSL as /usr/lib/wsl/lib) as three regular files rather
    than links (microsoft/WSL#5548). ldconfig expects the soname to be a link and complains; the
    warning is harmless and CUDA works. To silence it, replace the copies with links on the Windows
    side (an administrator Command Prompt); a driver update puts the copies back. /usr/lib/wsl/lib
    is read-only from Linux, so editing it inside WSL does not last.
    """
    facts = pf.wsl_state(snap).facts
    plain = [
        f.get("name")
        for f in facts.get("libcuda_files") or []
        if f.get("kind") == "file" and f.get("name") in ("libcuda.so", "libcuda.so.1")
    ]
    if "libcuda.so.1" not in plain:
        return None
    return Finding(
        id="wsl.libcuda-not-symlink",
        severity=Severity.INFO,
        title="ldconfig warns that /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link (harmless)",
        detail=(
            "The Windows driver ships "
            + ", ".join(plain)
            + " as plain copies of libcuda.so.1.1, so "
            "ldconfig prints this warning on every apt run. CUDA is not affected."
        ),
        evidence=(
            Evidence(f"{WSL_LIB}/libcuda.so.1", "regular file", "symbolic link to libcuda.so.1.1"),
        ),
        fixes=(
            Fix(
                "Optional: in an administrator Command Prompt on Windows, replace the copies with links",
                (
                    "cd C:\\Windows\\System32\\lxss\\lib",
                    "del libcuda.so libcuda.so.1",
                    "mklink libcuda.so libcuda.so.1.1",
                    "mklink libcuda.so.1 libcuda.so.1.1",
                    "wsl --shutdown",
                ),
                Risk.NEEDS_RESTART,
                LIBCUDA_ISSUE,
            ),
        ),
    )


CHECKS = [linux_driver, loader_path, libcuda_copies]
