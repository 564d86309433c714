"""Native Windows: the CPU-only torch `pip install torch` gives, GPU resets (TDR), no Direct3D 11 GPU,
the Microsoft Store Python, and a Python built for another CPU than Windows runs on."""

from __future__ import annotations

from envdoctor.checkdef import check
from envdoctor.checks import platform_facts as pf
from envdoctor.findings import Evidence, Finding, Fix, Risk, Severity
from envdoctor.matrixset import MatrixSet
from envdoctor.remedies import fixes_for
from envdoctor.snapshot import Snapshot

TDR_DOCS = "https://learn.microsoft.com/en-us/windows-hardware/drivers/display/tdr-registry-keys"
STORE_PYTHON_DOCS = "https://docs.python.org/3/using/windows.html#known-issues"
PYTHON_DOWNLOADS = "https://www.python.org/downloads/windows/"
BASIC_ADAPTERS = (
    "microsoft basic display adapter",
    "microsoft basic render driver",
    "microsoft remote display adapter",
    "microsoft hyper-v video",
    "vmware svga 3d",
    "citrix indirect display",
)


def _is_windows(snap: Snapshot) -> bool:
    return snap.has("platform.windows") or pf.os_system(snap) == "Windows"


def _windows_nvidia(snap: Snapshot) -> list[str]:
    names = [str(g.get("name")) for g in pf.nvidia_gpus(snap) if g.get("name")]
    for adapter in snap.fact("platform.windows", "display_adapters") or []:
        if (
            isinstance(adapter, dict)
            and adapter.get("nvidia_driver")
            and adapter.get("name") not in names
        ):
            names.append(str(adapter.get("name")))
    return names


@check(
    "windows.pip-cpu-torch",
    needs=("python.torch",),
    matrices=("torch_releases", "torch_arch", "torch_index"),
)
def pip_cpu_torch(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """`pip install torch` on Windows installed the CPU-only build, on a machine with an NVIDIA GPU.

    PyPI hosts only the CPU build of torch for Windows: `pip install torch` (or a requirements file
    naming plain `torch`) gives `2.x.y+cpu`, and `torch.cuda.is_available()` is False on any GPU.
    The CUDA builds for Windows come only from PyTorch's own index
    (`--index-url https://download.pytorch.org/whl/cu1XX`). This is the cause behind
    torch.cpu-build-on-gpu-host on Windows; the fix reinstalls torch (and torchvision / torchaudio)
    from the CUDA index whose build has kernels for the GPU and runs on its driver.
    """
    if not _is_windows(snap):
        return None
    torch = pf.torch_facts(snap)
    if torch.get("backend") != "cpu" and torch.get("variant") != "cpu":
        return None
    gpus = _windows_nvidia(snap)
    if not gpus:
        return None
    fixes = fixes_for(snap, ms, "torch-build-for-gpu", gpu_names=tuple(gpus))
    return Finding(
        id="windows.pip-cpu-torch",
        severity=Severity.ERROR,
        title=f"torch {torch.get('version')} is the CPU-only build that plain `pip install torch` gives on Windows",
        detail=(
            f"This Windows machine has {', '.join(gpus)}, but PyPI's torch wheels for Windows are CPU-only: "
            "CUDA builds come only from download.pytorch.org. Reinstall from the CUDA index."
        ),
        evidence=(
            Evidence("python.torch.version", str(torch.get("version")), "a +cu1XX build"),
            Evidence("os.system", "Windows"),
            Evidence("NVIDIA GPU", ", ".join(gpus)),
        ),
        fixes=fixes,
        explains=("torch.cpu-build-on-gpu-host", "torch.cuda-unavailable"),
    )


@check("windows.device-removed-tdr", needs=("platform.windows",))
def tdr(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Windows reset the GPU driver (TDR): "Display driver stopped responding and has recovered".

    Windows' Timeout Detection and Recovery resets a GPU that does not finish a piece of work within
    TdrDelay seconds (2 by default, HKLM\\System\\CurrentControlSet\\Control\\GraphicsDrivers);
    applications then see DXGI_ERROR_DEVICE_REMOVED / "device removed", CUDA errors, or a crash, and
    the System log records event 4101 from "Display". Long CUDA kernels on a GPU that also drives a
    display, unstable overclocks and driver faults cause it. envdoctor reads the last five 4101
    events and the TDR registry values.
    """
    events = snap.fact("platform.windows", "tdr_events") or {}
    count = events.get("count") or 0
    if not count:
        return None
    values = snap.fact("platform.windows", "tdr") or {}
    delay = values.get("TdrDelay")
    return Finding(
        id="windows.device-removed-tdr",
        severity=Severity.WARNING,
        title=f"Windows reset the GPU driver {count} time{'s' if count != 1 else ''} recently (TDR, event 4101)",
        detail=(
            "The display driver stopped responding and Windows reset it (Timeout Detection and Recovery). "
            "Programs using the GPU at that moment get DXGI_ERROR_DEVICE_REMOVED or CUDA errors. "
            f"TdrDelay is {delay if delay is not None else 'not set (2 s, the default)'}"
            + (" s." if delay is not None else ".")
        ),
        evidence=(
            Evidence(
                "System log event 4101 (Display)",
                f"{count}, newest {events.get('last') or '?'}",
                "none",
            ),
            Evidence("TdrDelay", str(delay) if delay is not None else "unset (2 s)"),
        ),
        fixes=(
            Fix(
                "Remove GPU overclocks and install the current GPU driver",
                url=pf.NVIDIA_DRIVERS,
                risk=Risk.NEEDS_RESTART,
            ),
            Fix(
                "For long compute kernels on a display GPU, raise the TDR timeout (administrator PowerShell, "
                "then reboot)",
                (
                    "New-ItemProperty -Path 'HKLM:\\System\\CurrentControlSet\\Control\\GraphicsDrivers' "
                    "-Name TdrDelay -PropertyType DWord -Value 60 -Force",
                ),
                Risk.NEEDS_RESTART,
                TDR_DOCS,
            ),
        ),
    )


@check("windows.d3d11-required", needs=("platform.windows",))
def no_gpu_adapter(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """Windows offers applications no real GPU: only the Microsoft Basic Display Adapter / a remote or
    virtual display adapter.

    Applications that need Direct3D 11 ("A D3D11-compatible GPU (Feature Level 11.0, Shader Model
    5.0) is required") and every GPU compute API fail when the only adapters are Microsoft's basic
    display / render driver (no GPU driver installed), the remote-desktop adapter, or a VM's emulated
    adapter (no GPU passed through). Install the GPU's driver, or attach a GPU to the VM.
    """
    adapters = [
        a for a in snap.fact("platform.windows", "display_adapters") or [] if isinstance(a, dict)
    ]
    if not adapters:
        return None
    basic = [
        a for a in adapters if any(b in str(a.get("name") or "").lower() for b in BASIC_ADAPTERS)
    ]
    if len(basic) != len(adapters):
        return None
    names = ", ".join(str(a.get("name")) for a in adapters)
    in_vm = any(
        "vmware" in n.lower() or "hyper-v" in n.lower() or "citrix" in n.lower()
        for n in (str(a.get("name")) for a in adapters)
    )
    fixes = [
        Fix(
            "Install the GPU's Windows driver (Device Manager must then list the GPU under Display adapters)",
            ("devmgmt.msc", "dxdiag"),
            Risk.NEEDS_RESTART,
            pf.NVIDIA_DRIVERS,
        )
    ]
    if in_vm:
        fixes.insert(
            0,
            Fix(
                "This is a VM without a GPU: attach one (PCI passthrough / DDA, or an NVIDIA vGPU profile) in "
                "the hypervisor, or choose a GPU instance type",
                risk=Risk.NEEDS_RESTART,
            ),
        )
    return Finding(
        id="windows.d3d11-required",
        severity=Severity.WARNING,
        title=f"Windows has no GPU driver in use: display adapters are {names}",
        detail=(
            "Only a basic, remote or emulated display adapter is present, so Direct3D 11 applications "
            '("A D3D11-compatible GPU is required"), CUDA and DirectML have no GPU.'
        ),
        evidence=(Evidence("Win32_VideoController", names, "your GPU with its vendor driver"),),
        fixes=tuple(fixes),
    )


@check("windows.store-python", needs=("python",))
def store_python(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The Python is the Microsoft Store package.

    Python's Windows documentation: "Because of restrictions on Microsoft Store apps, Python scripts
    may not have full write access to shared locations such as TEMP and the registry. Instead, it will
    write to a private copy." Files that installers and tools write to %APPDATA% or %TEMP% land in the
    package's private folder, which other programs (and the same tool started from another Python)
    do not see. For GPU stacks use the python.org installer, conda or uv instead.
    """
    executable = str(snap.fact("python", "executable") or "")
    lowered = executable.replace("/", "\\").lower()
    if "\\windowsapps\\" not in lowered and "pythonsoftwarefoundation.python" not in lowered:
        return None
    return Finding(
        id="windows.store-python",
        severity=Severity.INFO,
        title="This Python is the Microsoft Store package (its writes to %APPDATA% and TEMP are redirected)",
        detail=(
            "The Store package redirects writes to shared folders and the registry into a private copy, which "
            "confuses tools that share files with other programs. The python.org installer has no such limits."
        ),
        evidence=(Evidence("python.executable", executable, "a python.org, conda or uv Python"),),
        fixes=(
            Fix(
                "Install Python from python.org (or use conda / uv), then create the environment with it",
                ("py -0p",),
                Risk.SAFE,
                PYTHON_DOWNLOADS,
            ),
        ),
    )


@check("windows.python-arch-mismatch", needs=("python",))
def python_arch(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The Python runs for another CPU architecture than Windows: a 32-bit (x86) Python, or an x64
    Python emulated on ARM64 Windows.

    PyTorch's Windows builds are x86_64 only (RELEASE.md: "Windows | x86_64"), so a 32-bit Python
    finds no torch wheel at all. On ARM64 Windows, x86 and x64 programs run under emulation: an x64
    Python works but every package runs translated, and native ARM64 Pythons exist for what supports them.
    """
    if not _is_windows(snap):
        return None
    bits = snap.fact("python", "pointer_bits")
    machine = str(snap.fact("python", "machine") or "").upper()
    native = str(snap.fact("platform.windows", "os_arch") or "").upper()
    if bits == 32:
        return Finding(
            id="windows.python-arch-mismatch",
            severity=Severity.ERROR
            if pf.gpu_intent(snap) or pf.torch_facts(snap).get("version")
            else Severity.WARNING,
            title="This Python is a 32-bit build: PyTorch and CUDA have no 32-bit Windows packages",
            detail="PyTorch publishes Windows wheels for x86_64 only, so pip finds no torch for this interpreter.",
            evidence=(
                Evidence("python.pointer_bits", "32", "64"),
                Evidence("Windows architecture", native or "unknown"),
            ),
            fixes=(
                Fix(
                    "Install the 64-bit Python from python.org and recreate the environment with it",
                    ("py -0p",),
                    Risk.SAFE,
                    PYTHON_DOWNLOADS,
                ),
            ),
        )
    if native == "ARM64" and machine in ("AMD64", "X86_64", "X86"):
        return Finding(
            id="windows.python-arch-mismatch",
            severity=Severity.WARNING,
            title=f"An {machine} Python runs emulated on ARM64 Windows",
            detail=(
                "Windows on ARM runs x64 programs through emulation: the Python and every compiled package run "
                "translated. Use a native ARM64 Python where your packages publish ARM64 wheels."
            ),
            evidence=(
                Evidence("python.machine", machine, "ARM64"),
                Evidence("Windows architecture", native),
            ),
            fixes=(
                Fix(
                    "Install the ARM64 build of Python from python.org for packages that support it",
                    ("py -0p",),
                    Risk.SAFE,
                    PYTHON_DOWNLOADS,
                ),
            ),
        )
    return None


CHECKS = [pip_cpu_torch, tdr, no_gpu_adapter, store_python, python_arch]
