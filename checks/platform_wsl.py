"""WSL: WSL 1, a Windows build too old for GPU compute, the GPU switched off, a Linux driver installed
inside WSL, WSL's driver folder missing from the loader path, the libcuda copies ldconfig warns
about, a Windows driver too old for the CUDA build, nvidia-smi's "CUDA Version: ERR!", a VM memory
limit below the GPU's memory, and AMD GPUs / ROCm / Ollama inside WSL."""

from __future__ import annotations

from envdoctor.checks import platform_facts as pf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse
from envdoctor.queries import nvidia as nq

WSL_LIB = "/usr/lib/wsl/lib"
LIBCUDA_ISSUE = "https://github.com/microsoft/WSL/issues/5548"
WSL_CONTAINERS = "https://github.com/microsoft/wslg/blob/main/samples/container/Containers.md"
OLLAMA_INSTALL = "https://github.com/ollama/ollama/blob/main/scripts/install.sh"
OLLAMA_GPU_DOCS = "https://github.com/ollama/ollama/blob/main/docs/gpu.mdx"
CUDA_ERR_ISSUE = "https://github.com/microsoft/WSL/issues/11589"


def _severity(snap: Snapshot) -> Severity:
    return Severity.ERROR if pf.gpu_intent(snap) else Severity.WARNING


def _distro_arg(state: pf.WslState) -> str:
    return state.distro_name or "<distro from wsl -l -v>"


@check("wsl.wsl1-no-gpu", needs_any=("platform.wsl", "os"))
def wsl1(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """This distribution runs under WSL 1, which has no GPU access at all.

    WSL 1 translates Linux system calls and has no Linux kernel, so there is no /dev/dxg, no
    /usr/lib/wsl/lib and no CUDA, ROCm or GPU-accelerated OpenGL. GPU compute needs WSL 2. The fix
    is run on Windows (PowerShell): convert the distribution with `wsl --set-version <distro> 2`
    (the distro keeps its files) and make WSL 2 the default for new ones. Ollama's installer says
    the same: "Microsoft WSL1 is not currently supported. Please use WSL2".
    """
    state = pf.wsl_state(snap)
    if not state.is_wsl or state.version != 1:
        return None
    distro = _distro_arg(state)
    return Finding(
        id="wsl.wsl1-no-gpu",
        severity=_severity(snap),
        title=f"This is WSL 1 ({state.distro_name or 'this distribution'}): WSL 1 has no GPU access",
        detail=(
            "WSL 1 has no Linux kernel and no GPU paravirtualisation (/dev/dxg), so CUDA, ROCm and "
            "GPU OpenGL cannot work in it whatever is installed. Convert the distribution to WSL 2; "
            "its files are kept."
        ),
        evidence=tuple(Evidence(f, v) for f, v in state.evidence)
        + (Evidence("WSL version", "1", "2"),),
        fixes=(
            Fix(
                "In PowerShell on Windows, convert the distribution to WSL 2 and make WSL 2 the default",
                ("wsl -l -v", f"wsl --set-version {distro} 2", "wsl --set-default-version 2"),
                Risk.NEEDS_RESTART,
                pf.WSL_INSTALL_DOCS,
            ),
        ),
        explains=("wsl.no-gpu-device", "wsl.lib-not-on-loader-path", "wsl.software-rendering"),
    )


@check("wsl.windows-too-old", needs_any=("platform.wsl", "os", "nvidia.driver"), matrices=("wsl",))
def windows_too_old(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Windows is too old for GPU compute in WSL 2.

    Microsoft's GPU guide for WSL asks for "Windows 11 or Windows 10, version 21H2 or higher"
    (build 19044, matrices/wsl.toml). On older builds WSL 2 runs but gets no GPU: no /dev/dxg, and
    nvidia-smi inside Linux fails. Update Windows (Settings > Windows Update), then `wsl --update`.
    """
    state = pf.wsl_state(snap)
    build = state.windows_build
    need = pf.requirement(ms, "windows_build_gpu_compute")
    if not state.is_wsl or state.version == 1 or build is None or need is None:
        return None
    if build >= int(float(need)):
        return None
    return Finding(
        id="wsl.windows-too-old",
        severity=_severity(snap),
        title=f"Windows build {build} is too old for GPU compute in WSL 2 (needs {need} or newer)",
        detail=(
            "GPU access in WSL 2 needs Windows 11 or Windows 10 21H2 (build 19044) or newer. On this "
            "build the Windows driver cannot expose the GPU to Linux."
        ),
        evidence=(Evidence("Windows build", str(build), f">= {need}"),),
        fixes=(
            Fix(
                "Update Windows (Settings > Windows Update, or the Windows 11 installation assistant), "
                "then update WSL from PowerShell",
                ("winver", "wsl --update", "wsl --shutdown"),
                Risk.NEEDS_RESTART,
                pf.requirement_source(ms, "windows_build_gpu_compute"),
            ),
        ),
        explains=("wsl.no-gpu-device", "wsl.windows-driver-too-old"),
    )


@check("wsl.gpu-disabled", "wsl.no-gpu-device", needs=("platform.wsl",))
def gpu_device(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """WSL 2 without its GPU device: /etc/wsl.conf switches the GPU off, or /dev/dxg is missing.

    In WSL 2 every GPU call goes through /dev/dxg, which routes it to the Windows driver.
    `[gpu] enabled=false` in /etc/wsl.conf turns GPU paravirtualisation off for the distribution
    (wsl.gpu-disabled). Without that setting, a missing /dev/dxg means WSL or Windows is too old, or,
    inside a container, that the container was started without the GPU (wsl.no-gpu-device).
    """
    state = pf.wsl_state(snap)
    facts = state.facts
    if (
        state.version != 2
        or facts.get("dxg")
        and (facts.get("wsl_conf") or {}).get("gpu_enabled") is not False
    ):
        return None
    conf = facts.get("wsl_conf") or {}
    if conf.get("gpu_enabled") is False:
        return Finding(
            id="wsl.gpu-disabled",
            severity=_severity(snap),
            title="/etc/wsl.conf turns the GPU off for this WSL distribution ([gpu] enabled=false)",
            detail=(
                "With [gpu] enabled=false WSL does not give Linux the Windows GPU: no /dev/dxg, no CUDA, "
                "no GPU OpenGL. Set it to true (or remove it) and restart WSL."
            ),
            evidence=(Evidence("/etc/wsl.conf [gpu] enabled", "false", "true (the default)"),),
            fixes=(
                Fix(
                    "Turn the GPU back on in /etc/wsl.conf, then restart WSL from PowerShell",
                    (
                        r"sudo sed -i '/^\[gpu\]/,/^\[/ s/^\s*enabled\s*=.*/enabled=true/' /etc/wsl.conf",
                        "wsl.exe --shutdown",
                    ),
                    Risk.NEEDS_RESTART,
                    pf.WSL_CONFIG_DOCS,
                ),
            ),
            explains=("wsl.lib-not-on-loader-path", "wsl.software-rendering"),
        )
    if facts.get("in_container"):
        return Finding(
            id="wsl.no-gpu-device",
            severity=_severity(snap),
            title="This container on WSL 2 was started without the GPU (no /dev/dxg)",
            detail=(
                "Containers on WSL 2 reach the GPU through /dev/dxg and the driver files in /usr/lib/wsl; "
                "Docker Desktop and the NVIDIA Container Toolkit add both for `--gpus all`."
            ),
            evidence=(
                Evidence("/dev/dxg", "missing", "present"),
                Evidence("platform.wsl.in_container", "true"),
            ),
            fixes=(
                Fix(
                    "Start the container with the GPU",
                    ("docker run --rm -it --gpus all IMAGE",),
                    url=pf.WSL_GPU_DOCS,
                ),
                Fix(
                    "Without the NVIDIA runtime, pass WSL's device and driver folder yourself",
                    (
                        "docker run --rm -it --device /dev/dxg -v /usr/lib/wsl:/usr/lib/wsl "
                        "-e LD_LIBRARY_PATH=/usr/lib/wsl/lib IMAGE",
                    ),
                    url=WSL_CONTAINERS,
                ),
            ),
        )
    return Finding(
        id="wsl.no-gpu-device",
        severity=_severity(snap),
        title="WSL 2 has no GPU device (/dev/dxg is missing)",
        detail=(
            "/dev/dxg is how WSL 2 reaches the Windows GPU driver. It is missing when Windows is older "
            "than Windows 10 21H2, WSL or its kernel is old, or no GPU driver is installed on Windows."
        ),
        evidence=(
            Evidence("/dev/dxg", "missing", "present"),
            Evidence("WSL kernel", str(facts.get("kernel"))),
        ),
        fixes=(
            Fix(
                "In PowerShell on Windows, update WSL and restart it",
                ("wsl --update", "wsl --shutdown"),
                Risk.NEEDS_RESTART,
                pf.WSL_INSTALL_DOCS,
            ),
            Fix(
                "Install the current GPU driver on Windows (never a Linux driver inside WSL)",
                url=pf.NVIDIA_DRIVERS,
                risk=Risk.NEEDS_RESTART,
            ),
        ),
        explains=("wsl.lib-not-on-loader-path", "wsl.software-rendering"),
    )


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
                severity=_severity(snap),
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
            severity=_severity(snap),
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
        severity=_severity(snap),
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


def _needed_cuda(snap: Snapshot) -> tuple[str | None, str]:
    torch = pf.torch_facts(snap)
    if torch.get("backend") == "cuda" and torch.get("cuda"):
        return str(torch["cuda"]), f"torch {torch.get('version')} (built with CUDA {torch['cuda']})"
    toolkit = pf.toolkit_version(snap)
    if toolkit:
        return toolkit, f"the CUDA {toolkit} toolkit"
    return None, ""


@check(
    "wsl.windows-driver-too-old",
    needs_any=("platform.wsl", "os", "nvidia.driver"),
    matrices=("cuda_driver", "cuda_compat"),
)
def windows_driver(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The Windows NVIDIA driver is too old for the CUDA that torch or the toolkit in WSL needs.

    Inside WSL 2, nvidia-smi's "Driver Version" is the Windows driver (546.80), while "NVIDIA-SMI"
    is the Linux tool's own build (545.46). CUDA in WSL runs on that Windows driver, so its minimum is
    the Windows column of NVIDIA's CUDA release table, and the only way to a newer one is to update
    the driver on Windows (never `apt install nvidia-driver-*` inside WSL). This root cause accounts
    for torch's "driver too old" finding.
    """
    state = pf.wsl_state(snap)
    driver = snap.fact("nvidia.driver", "driver_version")
    if not state.is_wsl or state.version == 1 or not driver:
        return None
    cuda, what = _needed_cuda(snap)
    if cuda is None:
        return None
    runs = nq.driver_supports_cuda(ms, str(driver), cuda, "windows")
    driver_max = snap.fact("nvidia.driver", "cuda_driver_max")
    wanted, have = parse(cuda), parse(str(driver_max)) if driver_max else None
    major_too_new = bool(wanted and have and wanted.release[0] > have.release[0])
    if runs is not False and not major_too_new:
        return None
    need = nq.min_driver_for_cuda(ms, cuda, "windows") or nq.compat_floor(
        ms, wanted.release[0] if wanted else 0, "windows"
    )
    return Finding(
        id="wsl.windows-driver-too-old",
        severity=Severity.ERROR,
        title=f"The Windows NVIDIA driver {driver} is too old for {what}",
        detail=(
            f"In WSL the driver is the Windows one ({driver}, supporting CUDA {driver_max or 'an older release'}). "
            f"{what[0].upper() + what[1:]} needs CUDA {cuda}"
            + (f", i.e. a Windows driver {need} or newer" if need else "")
            + ". Update the driver on Windows; nothing inside WSL can replace it."
        ),
        evidence=(
            Evidence(
                "nvidia.driver.driver_version (Windows driver)",
                str(driver),
                f">= {need}" if need else None,
            ),
            Evidence("nvidia.driver.cuda_driver_max", str(driver_max)),
            Evidence("CUDA needed", cuda),
        ),
        fixes=(
            Fix(
                "On Windows, install the current NVIDIA driver (NVIDIA App or the driver download page), "
                "then restart WSL",
                ("wsl --shutdown",),
                Risk.NEEDS_RESTART,
                pf.NVIDIA_DRIVERS,
            ),
        ),
        explains=("torch.driver-too-old", "container.cuda-requirement-unsatisfied"),
    )


@check("wsl.driver-cuda-version-err", needs=("nvidia.driver",))
def cuda_version_err(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """nvidia-smi inside WSL prints "CUDA Version: ERR!".

    The table's "CUDA Version" is what the Windows driver reports through WSL. "ERR!" means the
    Linux nvidia-smi in /usr/lib/wsl/lib could not get it from the driver (reported, unresolved, in
    microsoft/WSL#11589 with Windows driver 546.80). Updating the Windows driver and WSL, then
    restarting WSL, is the way to a consistent pair of driver and WSL components.
    """
    driver = snap.data("nvidia.driver") or {}
    if str(driver.get("cuda_version_printed") or "").upper() != "ERR!":
        return None
    state = pf.wsl_state(snap)
    if not state.is_wsl:
        return None
    return Finding(
        id="wsl.driver-cuda-version-err",
        severity=Severity.WARNING,
        title=f"nvidia-smi in WSL cannot read the CUDA version from the Windows driver {driver.get('driver_version')} "
        "(CUDA Version: ERR!)",
        detail=(
            f"The Linux nvidia-smi {driver.get('smi_version')} reached the Windows driver "
            f"{driver.get('driver_version')} but got no CUDA version from it, so CUDA programs in WSL may fail to "
            "initialise. Update the Windows driver and WSL, then restart WSL."
        ),
        evidence=(
            Evidence("nvidia-smi CUDA Version", "ERR!", "a version such as 12.3"),
            Evidence(
                "NVIDIA-SMI / Driver Version",
                f"{driver.get('smi_version')} / {driver.get('driver_version')}",
            ),
        ),
        fixes=(
            Fix(
                "In PowerShell on Windows, update WSL and restart it",
                ("wsl --update", "wsl --shutdown"),
                Risk.NEEDS_RESTART,
                CUDA_ERR_ISSUE,
            ),
            Fix(
                "Install the current NVIDIA driver on Windows",
                url=pf.NVIDIA_DRIVERS,
                risk=Risk.NEEDS_RESTART,
            ),
        ),
        explains=("torch.cuda-unavailable",),
    )


@check("wsl.memory-limit", needs=("platform.wsl",))
def memory_limit(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The WSL 2 virtual machine has less memory than the GPU.

    WSL 2 runs in a VM that gets, by default, 50% of Windows' memory; `memory=` in the `[wsl2]`
    section of %UserProfile%\\.wslconfig sets another size. Models are read into system memory on
    their way to the GPU, so a VM smaller than the GPU's memory cannot stage a model that fills the
    GPU: the loader is killed (out of memory) or swaps. envdoctor compares the VM's MemTotal with the
    GPUs' total memory and shows the .wslconfig value when it can read it (/mnt/c/Users/*/.wslconfig).
    """
    facts = pf.wsl_state(snap).facts
    mem = facts.get("mem_total_mib")
    gpu = pf.gpu_total_mib(snap)
    if not isinstance(mem, int) or not gpu or mem >= gpu:
        return None
    configs = [c for c in facts.get("wslconfigs") or [] if c.get("memory_bytes")]
    set_to = configs[0].get("memory_text") if configs else None
    want_gb = -(-gpu * 2 // 1024)  # twice the GPU memory, in whole GiB, rounded up
    evidence = [
        Evidence("WSL VM MemTotal", f"{mem} MiB", f">= {gpu} MiB (the GPUs' memory)"),
        Evidence("nvidia.gpus memory_total_mib", f"{gpu} MiB"),
    ]
    evidence.append(
        Evidence(
            ".wslconfig [wsl2] memory",
            set_to or "not set or not visible (default: 50% of Windows memory)",
        )
    )
    return Finding(
        id="wsl.memory-limit",
        severity=Severity.WARNING,
        title=f"WSL 2 has {mem / 1024:.1f} GiB of memory, less than the GPU's {gpu / 1024:.1f} GiB",
        detail=(
            "Loading a model that fills the GPU goes through system memory first; with less memory than the GPU "
            "the WSL VM runs out (the process is killed) or swaps heavily. "
            + (
                f".wslconfig limits WSL to {set_to}."
                if set_to
                else "WSL's default is half of Windows' memory."
            )
        ),
        evidence=tuple(evidence),
        fixes=(
            Fix(
                f"Give the WSL VM more memory: in %UserProfile%\\.wslconfig on Windows set memory under [wsl2] "
                f"(for example {want_gb}GB, within what Windows has), then restart WSL",
                ("notepad $env:USERPROFILE\\.wslconfig", "wsl --shutdown"),
                Risk.NEEDS_RESTART,
                pf.WSL_CONFIG_DOCS,
            ),
        ),
    )


def _amd_signals(snap: Snapshot, facts: dict) -> list[str]:
    signals = []
    gpus = [g for g in snap.fact("amd.gpus", "gpus") or [] if isinstance(g, dict)]
    if gpus:
        signals.append(
            "AMD GPU: "
            + ", ".join(str(g.get("name") or g.get("gfx_target") or "AMD GPU") for g in gpus[:2])
        )
    torch = pf.torch_facts(snap)
    if torch.get("backend") == "rocm":
        signals.append(f"torch {torch.get('version')} (ROCm build)")
    rocm = facts.get("rocm") or {}
    if rocm.get("opt_rocm"):
        signals.append("/opt/rocm installed")
    return signals


@check("wsl.rocm-unsupported", needs=("platform.wsl",))
def rocm_in_wsl(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """An AMD GPU, ROCm or Ollama with an AMD GPU inside WSL 2.

    In WSL 2 an AMD GPU is reached through /dev/dxg and DXCore; /dev/kfd and the KFD sysfs topology
    that ROCm uses on Linux never exist there. ROCm works in WSL only with AMD's WSL build of the
    runtime (ROCm 6.1.3 to 6.x: the hsa-runtime-rocr4wsl-amdgpu package from `amdgpu-install
    --usecase=wsl,rocm --no-dkms`; ROCm 7.x: the librocdxg bridge, enabled with
    HSA_ENABLE_DXG_DETECTION=1), on the Radeon GPUs and Adrenalin drivers AMD lists for WSL. A
    regular Linux ROCm install finds no GPU. Ollama's Linux installer sets up GPU support inside WSL 2
    for NVIDIA only ("WSL2 only supports GPUs via nvidia passthrough"), so Ollama in WSL with an AMD
    GPU runs on the CPU; Ollama for Windows supports the Radeon GPUs its GPU page lists through ROCm
    on Windows, which is what to use instead.
    """
    state = pf.wsl_state(snap)
    facts = state.facts
    if state.version != 2:
        return None
    signals = _amd_signals(snap, facts)
    ollama = facts.get("ollama") or {}
    nvidia = bool(pf.nvidia_gpus(snap)) or any(
        str(f.get("name", "")).startswith("libcuda") for f in facts.get("libcuda_files") or []
    )
    if not signals and not (ollama.get("installed") and not nvidia and snap.has("amd.gpus")):
        return None
    rocm = facts.get("rocm") or {}
    wsl_runtime = bool(rocm.get("wsl_runtime_package") or rocm.get("librocdxg"))
    dxg_flag = str(rocm.get("hsa_enable_dxg_detection") or "") == "1"
    evidence = [Evidence(s.split(":", 1)[0] if ":" in s else "AMD/ROCm", s) for s in signals]
    evidence.append(
        Evidence("/dev/kfd", "present" if facts.get("kfd") else "missing (never present in WSL)")
    )
    evidence.append(
        Evidence(
            "ROCm WSL runtime",
            "hsa-runtime-rocr4wsl-amdgpu"
            if rocm.get("wsl_runtime_package")
            else "librocdxg"
            if rocm.get("librocdxg")
            else "not installed",
            "hsa-runtime-rocr4wsl-amdgpu (ROCm 6.x) or librocdxg (ROCm 7.x)",
        )
    )
    fixes = []
    if ollama.get("installed") and not nvidia:
        evidence.append(
            Evidence("ollama", "installed in WSL", "Ollama for Windows with an AMD GPU")
        )
        fixes.append(
            Fix(
                "Run Ollama for Windows instead of inside WSL: it uses Radeon GPUs through ROCm on Windows "
                "(check your card in Ollama's GPU list)",
                url=OLLAMA_GPU_DOCS,
            )
        )
    if not wsl_runtime:
        fixes.append(
            Fix(
                "Install AMD's WSL build of ROCm (not the regular Linux ROCm), with a current Adrenalin "
                "driver on Windows",
                ("sudo amdgpu-install -y --usecase=wsl,rocm --no-dkms", "rocminfo"),
                Risk.SAFE,
                "https://rocm.docs.amd.com/projects/rocprofiler-sdk/en/develop/how-to/using-rocprofv3-on-wsl.html",
            )
        )
    elif rocm.get("librocdxg") and not dxg_flag:
        fixes.append(
            Fix(
                "ROCm 7 in WSL finds the GPU through librocdxg only with HSA_ENABLE_DXG_DETECTION=1",
                ("export HSA_ENABLE_DXG_DETECTION=1", "rocminfo"),
            )
        )
    if not fixes:
        return None
    return Finding(
        id="wsl.rocm-unsupported",
        severity=Severity.WARNING,
        title="AMD GPU compute inside WSL 2 needs AMD's WSL runtime"
        + (" (Ollama here will run on the CPU)" if ollama.get("installed") and not nvidia else ""),
        detail=(
            "WSL 2 has no /dev/kfd: ROCm reaches an AMD GPU there only through AMD's WSL runtime over /dev/dxg, "
            "on the Radeon GPUs AMD supports for WSL. Ollama's Linux installer enables only NVIDIA GPUs inside WSL."
        ),
        evidence=tuple(evidence),
        fixes=tuple(fixes),
        explains=("torch.cuda-unavailable", "app.ollama-cpu-fallback"),
    )


CHECKS = [
    wsl1,
    windows_too_old,
    gpu_device,
    linux_driver,
    loader_path,
    libcuda_copies,
    windows_driver,
    cuda_version_err,
    memory_limit,
    rocm_in_wsl,
]
