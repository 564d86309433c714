"""Vendor-table cases (tests/data/vendor_cases/*.toml): load them, turn a case's machine into a live
snapshot and into the `collect_env` text a user would paste, and check the report against the
case's expectations.

A case describes one machine the way its owner would: OS, Python, the torch build, the NVIDIA
driver and GPUs, plus any error text. Its expectations come from the vendor tables it cites
(NVIDIA's driver and CUDA tables, PyTorch's build matrix, ...), never from envdoctor's output:
"no error at all", "the shown fixes must (not) match", "no fix names a driver newer than the GPU's
last branch". The same machine is diagnosed twice: from a live snapshot (high-confidence facts, as
the probes would collect them) and from the pasted `collect_env` report (which, like the real tool,
does not print the driver's highest CUDA version, so it has to be derived).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from envdoctor.model.report import Report
from envdoctor.model.snapshot import Snapshot, absent, collected

CASES_DIR = Path(__file__).resolve().parent / "data" / "vendor_cases"
KINDS = ("healthy", "trap", "problem")
_DRIVER_NUMBER = re.compile(
    r"(?i)(?:driver[^0-9\n]{0,40}?|nvidia-driver-|\bR)(\d{3})(?:\.\d+){0,2}(?!\d)"
    r"|\b(\d{3})(?:\.\d+){0,2}\+?(?: or newer| or later)?(?: NVIDIA)? driver"
)


@dataclass(frozen=True)
class Case:
    """One vendor-table case."""

    id: str
    kind: str
    title: str
    sources: tuple[str, ...]
    why: str
    machine: dict[str, Any]
    paste: dict[str, Any]
    expect: dict[str, Any]
    path: Path = field(compare=False)

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(self.expect.get("paths", ("live", "paste")))


def load_cases() -> list[Case]:
    """Every case file, validated enough that a malformed one fails loudly."""
    cases = []
    for path in sorted(CASES_DIR.glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        for raw in doc.get("cases", []):
            case = Case(
                id=raw["id"],
                kind=raw["kind"],
                title=raw["title"],
                sources=tuple(raw["sources"]),
                why=raw["why"],
                machine=dict(raw.get("machine", {})),
                paste=dict(raw.get("paste", {})),
                expect=dict(raw["expect"]),
                path=path,
            )
            cases.append(case)
    return cases


# -- the live snapshot ------------------------------------------------------------------------------
def _os_group(m: dict[str, Any]) -> Any:
    kind = m.get("os", "linux")
    arch = m.get("arch", "x86_64")
    if kind == "windows":
        data = {"system": "Windows", "distro_name": m.get("distro", "Windows 11"), "arch": "AMD64"}
    elif kind == "macos":
        data = {"system": "Darwin", "distro_name": m.get("distro", "macOS 14.5"), "arch": arch}
    else:
        name = m.get("distro", "Ubuntu 22.04.4 LTS")
        distro_id = name.split()[0].lower()
        found = re.search(r"\d+(\.\d+)?", name)
        version = found.group(0) if found else ""
        data = {
            "system": "Linux",
            "distro_id": distro_id,
            "distro_version": version,
            "distro_name": name,
            "distro_like": ["debian"] if distro_id == "ubuntu" else [],
            "kernel": "5.15.153.1-microsoft-standard-WSL2"
            if kind == "wsl2"
            else "5.15.0-122-generic",
            "arch": arch,
            "glibc": "2.35",
            "virtualization": "wsl" if kind == "wsl2" else None,
        }
    return collected("os", "probe:os_info", data, summary=data.get("distro_name", ""))


def _version_py(torch: str, cuda: str | None, hip: str | None) -> str:
    """torch/version.py laid out like the real file of a 2.x wheel (git_version left out)."""
    return (
        "from typing import Optional\n\n"
        "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
        f"__version__ = '{torch}'\ndebug = False\n"
        f"cuda: Optional[str] = {cuda!r}\nhip: Optional[str] = {hip!r}\n"
        f"xpu: Optional[str] = None\n"
    )


def _python_platform(m: dict[str, Any]) -> str:
    return {"windows": "win32", "macos": "darwin"}.get(m.get("os", "linux"), "linux")


def live_snapshot(case: Case, ms: Any) -> Snapshot:
    """The snapshot the probes would collect on the case's machine."""
    from envdoctor.ingest import torch_metadata

    m = case.machine
    snap = Snapshot(origin="live")
    snap.add(_os_group(m))
    gpus = m.get("gpus", [])
    if m.get("driver"):
        snap.add(
            collected(
                "nvidia.driver",
                "probe:nvidia_gpu",
                {
                    "driver_version": m["driver"],
                    "cuda_driver_max": m.get("driver_cuda"),
                    "driver_loaded": True,
                    "gpu_count": len(gpus),
                    "platform": _python_platform(m),
                },
            )
        )
        snap.add(
            collected(
                "nvidia.gpus",
                "probe:nvidia_gpu",
                {
                    "gpus": [
                        {
                            "index": i,
                            "name": g["name"],
                            "compute_capability": g.get("cc"),
                            "memory_total_mib": g.get("memory_mib"),
                        }
                        for i, g in enumerate(gpus)
                    ]
                },
            )
        )
    else:
        snap.add(absent("nvidia.driver", "probe:nvidia_gpu", "no NVIDIA driver on this machine"))
        snap.add(absent("nvidia.gpus", "probe:nvidia_gpu", "no NVIDIA driver on this machine"))
    if m.get("os", "linux") in ("linux",):
        devices = [
            {"address": f"0000:{i + 1:02x}:00.0", "is_gpu": True, "driver": "nvidia"}
            for i, _ in enumerate(gpus)
        ]
        snap.add(
            collected(
                "nvidia.pci", "probe:nvidia_pci", {"devices": devices, "gpu_count": len(gpus)}
            )
        )
    platform = _python_platform(m)
    machine = m.get("arch", "x86_64") if platform != "win32" else "AMD64"
    exe = (
        "C:\\Users\\user\\venv\\Scripts\\python.exe"
        if platform == "win32"
        else "/home/user/venv/bin/python"
    )
    packages = dict(m.get("packages", {}))
    if m.get("torch"):
        packages.setdefault("torch", m["torch"])
    snap.add(
        collected(
            "python",
            "probe:python_env",
            {
                "executable": exe,
                "version": m.get("python", "3.11.9"),
                "implementation": "CPython",
                "environment": "venv",
                "prefix": exe.rsplit("/bin/", 1)[0] if "/bin/" in exe else "C:\\Users\\user\\venv",
                "platform": platform,
                "machine": machine,
                "pointer_bits": 64,
            },
        )
    )
    snap.add(
        collected(
            "python.packages",
            "probe:python_env",
            {"packages": packages, "installers": {n: "pip" for n in packages}, "locations": {}},
        )
    )
    if m.get("torch"):
        env = {
            "platform_system": {"win32": "Windows", "darwin": "Darwin"}.get(platform, "Linux"),
            "platform_machine": machine,
            "sys_platform": platform,
            "python_version": ".".join(m.get("python", "3.11.9").split(".")[:2]),
            "python_full_version": m.get("python", "3.11.9"),
            "os_name": "nt" if platform == "win32" else "posix",
            "implementation_name": "cpython",
            "platform_python_implementation": "CPython",
            "platform_release": "",
        }
        dists = {
            "torch": {
                "version": m["torch"],
                "installer": "pip",
                "requires": [],
                "files": {
                    "torch/version.py": _version_py(
                        m["torch"], m.get("torch_cuda"), m.get("torch_hip")
                    )
                },
                "location": "/home/user/venv/lib/python3.11/site-packages",
            }
        }
        for name, version in packages.items():
            if name != "torch":
                dists[name] = {"version": version}
        data = torch_metadata.torch_facts(dists, env)  # the arch list: diagnose's enrichment
        snap.add(
            collected(
                "python.torch", "probe:torch_build", data, summary=torch_metadata.summary(data)
            )
        )
    else:
        snap.add(
            absent(
                "python.torch", "probe:torch_build", "torch is not installed in this interpreter"
            )
        )
    return snap


# -- the pasted report ------------------------------------------------------------------------------
def collect_env_text(case: Case) -> str:
    """What `python -m torch.utils.collect_env` prints on the case's machine (layout of the real
    reports in tests/fixtures/real/collect_env), followed by the case's error text."""
    m = case.machine
    if "raw" in case.paste:
        return str(case.paste["raw"])
    kind = m.get("os", "linux")
    arch = m.get("arch", "x86_64")
    py = m.get("python", "3.11.9")
    torch = m.get("torch")
    lines: list[str] = []
    if case.paste.get("collect_env", True):
        lines.append(f"PyTorch version: {torch or 'N/A'}")
        lines.append("Is debug build: False")
        lines.append(f"CUDA used to build PyTorch: {m.get('torch_cuda') or 'None'}")
        lines.append(f"ROCM used to build PyTorch: {m.get('torch_hip') or 'N/A'}")
        lines.append("")
        if kind == "windows":
            lines.append(f"OS: Microsoft {m.get('distro', 'Windows 11 Pro')}")
            lines.append("GCC version: Could not collect")
        elif kind == "macos":
            lines.append(f"OS: {m.get('distro', 'macOS 14.5')} ({arch})")
            lines.append("GCC version: Could not collect")
        else:
            lines.append(f"OS: {m.get('distro', 'Ubuntu 22.04.4 LTS')} ({arch})")
            lines.append("GCC version: (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0")
        lines.append("Clang version: Could not collect")
        lines.append("CMake version: Could not collect")
        lines.append(
            "Libc version: N/A" if kind in ("windows", "macos") else "Libc version: glibc-2.35"
        )
        lines.append("")
        lines.append(
            f"Python version: {py} (main, Jun  6 2024, 18:26:44) [GCC 11.4.0] (64-bit runtime)"
        )
        if kind == "windows":
            lines.append("Python platform: Windows-10-10.0.22631-SP0")
        elif kind == "macos":
            found = re.search(r"\d+(?:\.\d+)+", m.get("distro", "macOS 14.5"))
            tail = "arm-64bit" if arch == "arm64" else "i386-64bit"
            version = found.group(0) if found else "14.5"
            lines.append(f"Python platform: macOS-{version}-{arch}-{tail}")
        elif kind == "wsl2":
            lines.append(
                "Python platform: Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35"
            )
        else:
            lines.append(f"Python platform: Linux-5.15.0-122-generic-{arch}-with-glibc2.35")
        lines.append(f"Is CUDA available: {m.get('cuda_available', False)}")
        lines.append(f"CUDA runtime version: {m.get('cuda_runtime', 'No CUDA')}")
        gpus = m.get("gpus", [])
        if gpus:
            lines.append("GPU models and configuration:")
            lines += [f"GPU {i}: {g['name']}" for i, g in enumerate(gpus)]
            lines.append("")
        else:
            lines.append("GPU models and configuration: No CUDA")
        lines.append(f"Nvidia driver version: {m.get('driver') or 'No CUDA'}")
        lines.append("cuDNN version: Could not collect")
        lines.append(f"HIP runtime version: {m.get('hip_runtime', 'N/A')}")
        lines.append("MIOpen runtime version: N/A")
        lines.append("Is XNNPACK available: True")
        lines.append("")
        lines.append("Versions of relevant libraries:")
        packages = dict(m.get("packages", {}))
        if torch:
            packages.setdefault("torch", torch)
        lines += [f"[pip3] {name}=={version}" for name, version in sorted(packages.items())]
    extra = case.paste.get("extra")
    if extra:
        lines += ["", str(extra).rstrip("\n")]
    return "\n".join(lines) + "\n"


# -- expectations -----------------------------------------------------------------------------------
def shown_fix_texts(report: Report) -> list[str]:
    """Every fix the report shows: its summary and commands, one string per fix."""
    return ["\n".join([fix.summary, *fix.commands]) for f in report.findings for fix in f.fixes]


def drivers_named(text: str) -> list[int]:
    """Driver branches a fix text names ("driver 525 or newer", "nvidia-driver-535", "R580")."""
    found = [int(a or b) for a, b in _DRIVER_NUMBER.findall(text)]
    return [n for n in found if 300 <= n <= 999]


def problems(case: Case, report: Report) -> list[str]:
    """What in `report` breaks the case's expectations; [] when it meets them all."""
    e = case.expect
    out: list[str] = []
    ids = [f.id for f in report.findings]
    errors = [f.id for f in report.findings if f.severity.value == "error"]
    texts = shown_fix_texts(report)
    if e.get("no_error") and errors:
        out.append(f"expected no error, got {errors}")
    if e.get("error") and not errors:
        out.append(f"expected an error, got none (findings: {ids})")
    for wanted in e.get("finding_ids", []):
        if wanted not in ids:
            out.append(f"missing finding {wanted} (findings: {ids})")
    for unwanted in e.get("absent_finding_ids", []):
        if unwanted in ids:
            out.append(f"unexpected finding {unwanted}")
    for pattern in e.get("fix_must_match", []):
        if not any(re.search(pattern, t) for t in texts):
            out.append(
                f"no shown fix matches {pattern!r} (fixes: {[t.splitlines()[0] for t in texts]})"
            )
    for pattern in e.get("fix_must_not_match", []):
        bad = [t.splitlines()[0] for t in texts if re.search(pattern, t)]
        if bad:
            out.append(f"a shown fix matches forbidden {pattern!r}: {bad}")
    limit = e.get("max_driver_branch")
    if limit is not None:
        for text in texts:
            too_new = [n for n in drivers_named(text) if n > int(limit)]
            if too_new:
                out.append(
                    f"a fix names driver {too_new} past the GPU's last branch {limit}: {text.splitlines()[0]!r}"
                )
    return out
