"""WSL: WSL 1, a Windows build too old for GPU compute, the GPU switched off, a Windows driver too
old for the CUDA build, nvidia-smi's "CUDA Version: ERR!", a VM memory limit below the GPU's
memory, and AMD GPUs / ROCm / Ollama inside WSL. The driver libraries inside WSL are
`platform_wsl_libraries`."""

from __future__ import annotations

from envdoctor.checks import platform_facts as pf
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.model.versions import parse
from envdoctor.queries import nvidia as nq

WSL_CONTAINERS = "https://github.com/microsoft/wslg/blob/main/samples/container/Containers.md"
OLLAMA_INSTALL = "https://github.com/ollama/ollama/blob/main/scripts/install.sh"
OLLAMA_GPU_DOCS = "https://github.com/ollama/ollama/blob/main/docs/gpu.mdx"
CUDA_ERR_ISSUE = "https://github.com/microsoft/WSL/issues/11589"


def gpu_severity(snap: Snapshot) -> Severity:
    """An error when the machine is meant to compute on the GPU, else a warning."""
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
        severity=gpu_severity(snap),
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
        severity=gpu_severity(snap),
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
            severity=gpu_severity(snap),
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
            severity=gpu_severity(snap),
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
        severity=gpu_severity(snap),
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
    windows_driver,
    cuda_version_err,
    memory_limit,
    rocm_in_wsl,
]
