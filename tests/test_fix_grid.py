"""Every fix envdoctor shows, over a grid of machines, obeys rules written here independently.

The grid walks NVIDIA generations Kepler..Blackwell plus Jetson, AMD, Intel and Apple GPUs; driver
branches 450..580; torch releases and variants; Python versions; Linux, Windows, WSL2 and macOS;
as live snapshots (fact groups as the probes fill them) and as pasted `collect_env` reports read
through triage. The rules below are NOT asked of envdoctor's tables, chooser or verifier: they are
NVIDIA's and PyTorch's published floors, typed in from the sources named beside them, so a wrong
table row or a verifier bug shows up as a rule violation instead of agreeing with itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from envdoctor.checks import load_checks
from envdoctor.engine import run_checks
from envdoctor.findings import Finding, Fix
from envdoctor.matrixset import load_bundled
from envdoctor.snapshot import Snapshot, collected

# ------------------------------------------------------------------ the independent rule table
# NVIDIA, CUDA minor-version compatibility, Table 1
# (https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html): the driver
# branch floor of each CUDA major -- 11.x >= 450, 12.x >= 525, 13.x >= 580.
DRIVER_FLOOR = {11: 450, 12: 525, 13: 580}
# NVIDIA: the 470 legacy branch is the last for Kepler; Maxwell, Pascal and Volta end with the 580
# branch (NVIDIA's driver support notices; CUDA 13.0 release notes).
LAST_BRANCH = {"Kepler": 470, "Maxwell": 580, "Pascal": 580, "Volta": 580}
# NVIDIA CUDA toolkit release notes: the CUDA range whose compiler targets the architecture (Kepler
# sm_35/37 removed in 12.0; Maxwell/Pascal/Volta removed in 13.0; sm_86 from 11.1; sm_87 (Orin)
# from 11.4; Ada sm_89 and Hopper sm_90 from 11.8; Blackwell sm_100/sm_120 from 12.8).
CUDA_RANGE = {
    "Kepler": ((5, 0), (11, 8)),
    "Maxwell": ((6, 0), (12, 9)),
    "Pascal": ((8, 0), (12, 9)),
    "Volta": ((9, 0), (12, 9)),
    "Turing": ((10, 0), None),
    "Ampere": ((11, 1), None),
    "Orin": ((11, 4), None),
    "Ada": ((11, 8), None),
    "Hopper": ((11, 8), None),
    "Blackwell": ((12, 8), None),
}
LINUX_TOOLS = re.compile(
    r"^(sudo |apt(-get)? |dnf |yum |zypper |pacman |systemctl |service |modprobe |usermod |"
    r"ubuntu-drivers |nvidia-ctk |dkms )"
)
LINUX_DRIVER_INSTALL = re.compile(
    r"nvidia-driver-\d+|ubuntu-drivers install|akmod-nvidia|nvidia-open"
)


def variant_cuda(variant: str) -> tuple[int, int] | None:
    """PyTorch's variant label spells its CUDA: cu118 -> 11.8, cu121 -> 12.1, cu130 -> 13.0."""
    m = re.fullmatch(r"cu(\d+)(\d)", variant)
    return (int(m.group(1)), int(m.group(2))) if m else None


# ------------------------------------------------------------------ the grid
@dataclass(frozen=True)
class Gpu:
    name: str
    cc: str
    arch: str


NVIDIA = (
    Gpu("Tesla K80", "3.7", "Kepler"),
    Gpu("NVIDIA GeForce GTX 970", "5.2", "Maxwell"),
    Gpu("NVIDIA GeForce GTX 1080 Ti", "6.1", "Pascal"),
    Gpu("Tesla V100-SXM2-16GB", "7.0", "Volta"),
    Gpu("NVIDIA GeForce RTX 2080 Ti", "7.5", "Turing"),
    Gpu("NVIDIA GeForce RTX 3090", "8.6", "Ampere"),
    Gpu("NVIDIA GeForce RTX 4090", "8.9", "Ada"),
    Gpu("NVIDIA H100 80GB HBM3", "9.0", "Hopper"),
    Gpu("NVIDIA GeForce RTX 5090", "12.0", "Blackwell"),
)
JETSON = Gpu("Orin", "8.7", "Orin")
DRIVERS = (
    "450.248.02",
    "470.256.02",
    "525.147.05",
    "535.216.01",
    "550.144.03",
    "570.153.02",
    "580.95.05",
)
TORCH = ("2.1.2+cu121", "2.4.1+cu118", "2.7.1+cu126", "2.8.0+cu128", "2.9.1+cu130", "2.5.1+cpu")
PYTHONS = ("3.10.12", "3.12.3", "3.14.0")
SYSTEMS = ("linux", "windows", "wsl2", "macos")
LIVE_MODULES = (
    "python_versions",
    "torch_gpu",
    "torch_packages",
    "nvidia_presence",
    "nvidia_driver_arch",
    "platform_windows",
    "platform_wsl",
    "platform_macos",
)


@dataclass(frozen=True)
class Machine:
    gpu: Gpu | None
    driver: str | None
    torch: str
    python: str
    system: str
    vendor: str = "nvidia"
    root: bool = False

    def label(self) -> str:
        what = self.gpu.name if self.gpu else self.vendor
        return f"{what}/{self.driver}/{self.torch}/py{self.python}/{self.system}"


def grid() -> Iterator[Machine]:
    """Every NVIDIA GPU x driver x torch build; the OS, Python and root rotate through theirs
    (each value meets every GPU and driver), then Jetson, AMD, Intel and Apple machines."""
    i = 0
    for gpu in NVIDIA:
        for driver in DRIVERS:
            for torch in TORCH:
                system = SYSTEMS[i % len(SYSTEMS)]
                python = PYTHONS[(i // len(SYSTEMS)) % len(PYTHONS)]
                yield Machine(gpu, driver, torch, python, system, root=i % 5 == 0)
                i += 1
    for driver in ("540.4.0", "540.3.0"):
        for torch in ("2.5.1+cpu", "2.8.0+cu128"):
            yield Machine(JETSON, driver, torch, "3.10.12", "linux-aarch64")
    for torch in ("2.5.1+cpu", "2.8.0+cu128", "2.8.0+rocm6.3"):
        for system in ("linux", "windows", "wsl2"):
            yield Machine(None, None, torch, "3.12.3", system, vendor="amd")
    for torch in ("2.8.0+cpu", "2.8.0+xpu", "2.8.0+cu128"):
        yield Machine(None, None, torch, "3.12.3", "linux", vendor="intel")
    for torch in ("2.8.0", "2.2.2"):
        for python in ("3.12.3", "3.13.1"):
            yield Machine(None, None, torch, python, "macos", vendor="apple")


MACHINES = list(grid())


def _variant(torch: str) -> str | None:
    return torch.split("+", 1)[1] if "+" in torch else None


def live_snapshot(m: Machine) -> Snapshot:
    """The fact groups the probes fill for machine `m` (shapes as in envdoctor/probes)."""
    snap = Snapshot(origin="live")
    windows = m.system == "windows"
    macos = m.system == "macos"
    arch = "aarch64" if m.system == "linux-aarch64" else ("arm64" if macos else "x86_64")
    system = {"windows": "Windows", "macos": "Darwin"}.get(m.system, "Linux")
    os_data = {"system": system, "arch": arch, "euid": 0 if m.root else 1000, "sudo": not m.root}
    if system == "Linux":
        os_data.update(
            {"distro_id": "ubuntu", "distro_version": "22.04", "distro_like": ["debian"]}
        )
    snap.add(collected("os", "test", os_data))
    exe = "C:\\venv\\Scripts\\python.exe" if windows else "/home/u/venv/bin/python"
    platform = {"windows": "win32", "macos": "darwin"}.get(m.system, "linux")
    snap.add(
        collected(
            "python",
            "test",
            {
                "version": m.python,
                "executable": exe,
                "environment": "venv",
                "prefix": exe.rsplit("bin", 1)[0],
                "platform": platform,
                "machine": arch,
            },
        )
    )
    release = m.torch.split("+")[0]
    snap.add(
        collected(
            "python.packages",
            "test",
            {"packages": {"torch": release}, "installers": {"torch": "pip"}},
        )
    )
    variant = _variant(m.torch) or ("cpu" if macos else None)
    cuda = variant_cuda(variant or "")
    backend = (
        "cuda"
        if cuda
        else "rocm"
        if (variant or "").startswith("rocm")
        else "xpu"
        if variant == "xpu"
        else "cpu"
    )
    snap.add(
        collected(
            "python.torch",
            "test",
            {
                "version": m.torch,
                "variant": variant,
                "build": backend,
                "backend": backend,
                "cuda": f"{cuda[0]}.{cuda[1]}" if cuda else None,
                "os": "windows" if windows else ("macos" if macos else "linux"),
            },
        )
    )
    if m.system == "wsl2":
        snap.add(collected("platform.wsl", "test", {"wsl_version": 2, "dxg": True}))
    if macos:
        snap.add(
            collected(
                "platform.macos",
                "test",
                {"macos_version": "14.5", "apple_silicon": True, "mps_built": True},
            )
        )
    if m.gpu is not None:
        snap.add(
            collected(
                "nvidia.gpus",
                "test",
                {"gpus": [{"index": 0, "name": m.gpu.name, "compute_capability": m.gpu.cc}]},
            )
        )
    if m.driver is not None:
        snap.add(collected("nvidia.driver", "test", {"driver_version": m.driver}))
    if m.vendor == "amd":
        snap.add(
            collected(
                "amd.gpus",
                "test",
                {"gpus": [{"index": 0, "name": "AMD Instinct MI300X", "gfx_target": "gfx942"}]},
            )
        )
    if m.vendor == "intel":
        snap.add(collected("intel.gpus", "test", {"gpus": [{"name": "Intel Arc A770"}]}))
    return snap


def collect_env_text(m: Machine) -> str:
    """A `python -m torch.utils.collect_env` report for `m` (layout of the real ones in
    shared/fixtures/real/collect_env), with the error line users paste under it."""
    cuda = variant_cuda(_variant(m.torch) or "")
    os_line, platform = {
        "linux": ("Ubuntu 22.04.4 LTS (x86_64)", "Linux-5.15.0-105-generic-x86_64-with-glibc2.35"),
        "windows": ("Microsoft Windows 11 Pro", "Windows-10-10.0.22631-SP0"),
        "wsl2": (
            "Ubuntu 22.04.4 LTS (x86_64)",
            "Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35",
        ),
        "macos": ("macOS 14.5 (arm64)", "macOS-14.5-arm64-arm-64bit"),
    }.get(m.system, ("Ubuntu 22.04.4 LTS (aarch64)", "Linux-5.15.136-tegra-aarch64-with-glibc2.35"))
    named = {"amd": "AMD Instinct MI300X", "intel": "Intel(R) Arc(TM) A770 Graphics"}
    gpu = f"GPU 0: {m.gpu.name}" if m.gpu else named.get(m.vendor, "Could not collect")
    return (
        f"PyTorch version: {m.torch}\n"
        "Is debug build: False\n"
        f"CUDA used to build PyTorch: {f'{cuda[0]}.{cuda[1]}' if cuda else 'None'}\n"
        "ROCM used to build PyTorch: N/A\n\n"
        f"OS: {os_line}\n"
        "GCC version: Could not collect\nClang version: Could not collect\n"
        "CMake version: Could not collect\nLibc version: glibc-2.35\n\n"
        f"Python version: {m.python} (main, Nov 20 2023, 15:14:05) [GCC 11.4.0] (64-bit runtime)\n"
        f"Python platform: {platform}\n"
        "Is CUDA available: False\n"
        "CUDA runtime version: No CUDA\n"
        f"GPU models and configuration: {gpu}\n"
        f"Nvidia driver version: {m.driver or 'Could not collect'}\n"
        "cuDNN version: Could not collect\nHIP runtime version: N/A\n"
        "MIOpen runtime version: N/A\nIs XNNPACK available: True\n\n"
        "Versions of relevant libraries:\n"
        "[pip3] numpy==1.26.4\n"
        f"[pip3] torch=={m.torch}\n\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
    )


# ------------------------------------------------------------------ the rules
def _driver_major(text: str) -> int:
    return int(text.strip().lstrip("Rr").split(".")[0])


def violations(m: Machine, finding: Finding, fix: Fix, live: bool = True) -> list[str]:
    """The rules `fix` breaks on machine `m` (empty when it obeys them all)."""
    out = []
    commands = list(fix.commands)
    text = " ".join(commands)
    effect = fix.effect
    # a torch build the fix installs, from its effect or its pip line
    variants = {effect.torch.variant} if effect and effect.torch else set()
    variants |= set(re.findall(r"download\.pytorch\.org/whl/(cu\d+)", text))
    for variant in variants:
        cuda = variant_cuda(variant)
        if cuda is None:
            continue
        if m.system == "macos" or m.vendor != "nvidia":
            out.append(f"a CUDA build ({variant}) for a {m.vendor} GPU on {m.system}")
            continue
        if m.gpu is not None:
            low, high = CUDA_RANGE[m.gpu.arch]
            if cuda < low or (high is not None and cuda > high):
                out.append(f"{variant}: CUDA {cuda} cannot target {m.gpu.arch} (sm {m.gpu.cc})")
        floor = DRIVER_FLOOR.get(cuda[0])
        if (
            m.driver
            and floor
            and _driver_major(m.driver) < floor
            and not (effect and (effect.driver_min or effect.driver_branch))
        ):
            out.append(f"{variant} needs a {floor}+ driver, the machine has {m.driver}")
    # a driver the fix installs
    if effect and (effect.driver_min or effect.driver_branch) and m.gpu is not None:
        new = _driver_major(str(effect.driver_min or effect.driver_branch))
        last = LAST_BRANCH.get(m.gpu.arch)
        if last is not None and new > last:
            out.append(f"driver {new}: {m.gpu.arch} ends at {last}")
    if m.system == "wsl2" and LINUX_DRIVER_INSTALL.search(text):
        out.append("a Linux driver install inside WSL2")
    # the OS, the vendor, the privileges, the Python
    if m.system == "windows" and any(LINUX_TOOLS.search(c) for c in commands):
        out.append("Linux commands on Windows")
    if m.system == "macos" and any(
        LINUX_TOOLS.search(c) and not c.startswith("sudo ") for c in commands
    ):
        out.append("Linux commands on macOS")
    if m.vendor != "nvidia" and re.search(r"nvidia-ctk|nvidia-container-toolkit", text):
        out.append("NVIDIA Container Toolkit steps for a non-NVIDIA GPU")
    if live and m.root and any(c.startswith("sudo ") for c in commands):
        out.append("sudo for root")
    have = ".".join(m.python.split(".")[:2])
    if re.search(
        rf"\b[Ii]nstall Python {re.escape(have)}\b|Python {re.escape(have)} venv", fix.summary
    ):
        out.append(f"tells a Python {have} user to get Python {have}")
    # a shown fix with an effect was re-diagnosed; unverified ones say what they assume
    if effect is not None and not effect.empty:
        if fix.verified is None:
            out.append("an effect that was never re-diagnosed")
        if fix.verified is False and not fix.assumptions:
            out.append("unverified without a stated assumption")
    claim = re.search(r"runs on driver (\d+)", fix.summary)
    if claim and m.driver and _driver_major(claim.group(1)) != _driver_major(m.driver):
        out.append(f"claims driver {claim.group(1)}, the machine has {m.driver}")
    return out


def _check(m: Machine, findings: list[Finding], live: bool = True) -> list[str]:
    bad = []
    for finding in findings:
        assert finding.id != "envdoctor.check-crashed", (m.label(), finding.detail)
        for fix in finding.fixes:
            bad += [
                f"{m.label()} {finding.id}: {fix.summary[:70]} -> {v}"
                for v in violations(m, finding, fix, live)
            ]
    return bad


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


@pytest.fixture(scope="module")
def live_checks():
    return load_checks(LIVE_MODULES)


def test_the_grid_covers_what_the_issue_names():
    arches = {m.gpu.arch for m in MACHINES if m.gpu}
    assert {g.arch for g in NVIDIA} | {"Orin"} <= arches
    assert {m.vendor for m in MACHINES} == {"nvidia", "amd", "intel", "apple"}
    assert {m.system for m in MACHINES} >= set(SYSTEMS)
    assert {m.python for m in MACHINES} >= set(PYTHONS)
    assert len(MACHINES) > 390


def test_every_fix_on_live_snapshots_obeys_the_published_floors(ms, live_checks):
    bad: list[str] = []
    shown = 0
    for m in MACHINES:
        outcome = run_checks(live_snapshot(m), ms, live_checks)
        shown += sum(len(f.fixes) for f in outcome.findings)
        bad += _check(m, outcome.findings)
    assert shown > 300  # the grid is full of broken machines: fixes must be shown
    assert not bad, "\n".join(bad[:40]) + f"\n({len(bad)} in all)"


def test_every_fix_on_pasted_reports_obeys_the_published_floors(ms):
    from envdoctor.commands.triage import triage_text

    bad: list[str] = []
    # every third machine (the rotation still meets every GPU, driver and torch build)
    for m in MACHINES[::3]:
        report = triage_text(collect_env_text(m))
        bad += _check(m, report.findings, live=False)
    assert not bad, "\n".join(bad[:40]) + f"\n({len(bad)} in all)"


# ------------------------------------------------------------------ the issue's own examples
def _run(ms, m: Machine) -> list[Finding]:
    return run_checks(live_snapshot(m), ms, load_checks(LIVE_MODULES)).findings


def test_k80_on_470_with_cu121_gets_no_driver_525(ms):
    m = Machine(NVIDIA[0], "470.256.02", "2.1.2+cu121", "3.10.12", "linux")
    found = {f.id: f for f in _run(ms, m)}
    old = found["torch.driver-too-old"]
    assert not [f for f in old.fixes if "525" in f.summary]
    rejected = [r for r in old.rejected_fixes if "525" in r.summary]
    assert rejected and "no branch after 470 supports Tesla K80 (Kepler)" in rejected[0].reason
    assert old.fixes and all(f.effect.torch.variant == "cu118" for f in old.fixes)  # sm_37 + 470


def test_rtx5090_on_570_153_gets_no_cuda_13_claim_from_pasted_text(ms):
    from envdoctor.commands.triage import triage_text

    m = Machine(NVIDIA[-1], "570.153.02", "2.7.1+cu126", "3.12.3", "linux")
    report = triage_text(collect_env_text(m))
    fixes = [x for f in report.findings for x in f.fixes]
    assert fixes
    assert not [x for x in fixes if re.search(r"cu13\d", " ".join(x.commands) + x.summary)]
    assert any("cu128" in x.summary for x in fixes)


def test_no_kernel_image_paste_is_resolved_for_the_gpu_not_cu128(ms):
    from envdoctor.commands.triage import triage_text

    for gpu, driver in ((NVIDIA[0], "450.248.02"), (NVIDIA[1], "470.256.02")):
        m = Machine(gpu, driver, "2.8.0+cu128", "3.10.12", "linux")
        report = triage_text(collect_env_text(m))
        text = " ".join(" ".join(x.commands) + x.summary for f in report.findings for x in f.fixes)
        assert "whl/cu128" not in text and "cu128)" not in text, text


def test_docker_start_for_root_without_sudo_or_dockerd(ms):
    snap = Snapshot(origin="live")
    snap.add(collected("os", "t", {"system": "Linux", "euid": 0, "sudo": False}))
    docker = {"state": "not-running", "host": "unix:///var/run/docker.sock"}
    snap.add(
        collected(
            "container.docker",
            "t",
            {**docker, "host_source": "default", "systemd": False, "dockerd_path": None},
        )
    )
    found = run_checks(snap, ms, load_checks(("container_docker",))).findings
    commands = [c for f in found for x in f.fixes for c in x.commands]
    assert not [c for c in commands if "sudo" in c or "service docker start" in c]


def test_wsl2_driver_is_updated_on_windows(ms):
    m = Machine(NVIDIA[5], "470.256.02", "2.8.0+cu128", "3.12.3", "wsl2")
    found = {f.id: f for f in _run(ms, m)}
    drivers = [x for x in found["torch.driver-too-old"].fixes if x.effect and x.effect.driver_min]
    assert drivers and all(not x.commands and "on Windows" in x.summary for x in drivers)
