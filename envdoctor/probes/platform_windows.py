"""Native Windows: build, CPU architecture, the NVIDIA driver's files, display adapters, TDR.

Runs on Windows itself (every call guarded: no POSIX-only function is used) and, for tests, on a
fake root holding a `Windows/System32` tree with fake tools on PATH. Fills `platform.windows`
(absent elsewhere) with:
- `windows_version` ("10.0.22631"), `windows_build` (22631), `windows_release` ("11" from build
  22000 on, else "10").
- `os_arch` (the native architecture: "AMD64" / "ARM64" / "x86", from IsWow64Process2, else
  PROCESSOR_ARCHITEW6432 / PROCESSOR_ARCHITECTURE) and `process_arch` (this process's).
- `nvidia_smi` (the nvidia-smi.exe that would run: PATH, System32, or the driver store),
  `nvml_dlls` (nvml.dll copies in System32 and DriverStore\\FileRepository\\nv*),
  `nvidia_driver_store` (the nv* driver-store folder names).
- `cuda_path` ($CUDA_PATH), `cuda_path_exists`, `cuda_path_versions` {CUDA_PATH_V12_4: path}.
- `display_adapters` [{name, driver_version, vendor, status, pnp_id, nvidia_driver}] from
  Win32_VideoController (PowerShell); nvidia_driver turns "32.0.15.6094" into "560.94".
- `tdr` {TdrDelay, TdrLevel, TdrDdiDelay, HwSchMode} from HKLM\\SYSTEM\\CurrentControlSet\\Control\\
  GraphicsDrivers (`reg query`; unset values are Windows' defaults, TdrDelay 2 s).
- `tdr_events` {count, last} of System-log event 4101 from the Display source ("Display driver
  nvlddmkm stopped responding and has successfully recovered"), newest five, via `wevtutil`.
- `wsl_available` (wsl.exe exists).
"""

from __future__ import annotations

import json
import platform
import re
import sys
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext

GROUPS = ("platform.windows",)
TIMEOUT_S = 15.0
SOURCE = "probe:platform_windows"
PS_TIMEOUT_S = 10.0
TOOL_TIMEOUT_S = 5.0
GRAPHICS_KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\GraphicsDrivers"
TDR_QUERY = "*[System[Provider[@Name='Display'] and (EventID=4101)]]"
MACHINES = {0x8664: "AMD64", 0xAA64: "ARM64", 0x014C: "x86", 0x01C4: "ARM"}
_PS_ADAPTERS = (
    "Get-CimInstance Win32_VideoController | Select-Object Name,DriverVersion,"
    "AdapterCompatibility,Status,PNPDeviceID | ConvertTo-Json -Compress"
)
_REG_LINE = re.compile(r"^\s*(\w+)\s+REG_DWORD\s+0x([0-9a-fA-F]+)\s*$")
_VER = re.compile(r"\[Version\s+(\d+)\.(\d+)\.(\d+)(?:\.(\d+))?\]")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe native Windows, or say this is not Windows."""
    live = str(ctx.root) == "/"
    if live and platform.system() != "Windows":
        return [absent("platform.windows", SOURCE, f"not Windows ({platform.system()})")]
    if not live and not ctx.is_dir("/Windows/System32"):
        return [
            absent("platform.windows", SOURCE, "not Windows: no Windows/System32 under the root")
        ]
    windir = (
        (ctx.env.get("SystemRoot") or ctx.env.get("windir") or r"C:\Windows")
        if live
        else "/Windows"
    )
    version, build = _windows_version(ctx, live)
    data: dict[str, Any] = {
        "windows_version": version,
        "windows_build": build,
        "windows_release": None if build is None else ("11" if build >= 22000 else "10"),
        "os_arch": _native_arch(ctx, live),
        "process_arch": _process_arch(ctx, live),
    }
    data.update(_nvidia_files(ctx, windir))
    data.update(_cuda_path(ctx))
    data["display_adapters"] = _adapters(ctx)
    data["tdr"] = _tdr(ctx)
    data["tdr_events"] = _tdr_events(ctx)
    data["wsl_available"] = ctx.exists(f"{windir}/System32/wsl.exe")
    summary = (
        f"Windows {data['windows_release'] or '?'} (build {build or '?'}, {data['os_arch'] or '?'})"
    )
    return [collected("platform.windows", SOURCE, data, summary=summary)]


def parse_ver(text: str) -> tuple[str | None, int | None]:
    """("10.0.22631.4317", 22631) from `ver`'s "Microsoft Windows [Version 10.0.22631.4317]"."""
    match = _VER.search(text)
    if not match:
        return None, None
    return ".".join(p for p in match.groups() if p is not None), int(match.group(3))


def _windows_version(ctx: ProbeContext, live: bool) -> tuple[str | None, int | None]:
    getver = getattr(sys, "getwindowsversion", None)
    if live and getver is not None:
        try:
            info = getver()
            return f"{info.major}.{info.minor}.{info.build}", int(info.build)
        except (OSError, ValueError, AttributeError):
            pass
    cmd = ctx.which("cmd")
    if cmd:
        run = ctx.run([cmd, "/c", "ver"], TOOL_TIMEOUT_S)
        if run.ok:
            return parse_ver(run.stdout)
    return None, None


def _native_arch(ctx: ProbeContext, live: bool) -> str | None:
    if live:
        native = _iswow64process2()
        if native:
            return native
    env = ctx.env
    return env.get("PROCESSOR_ARCHITEW6432") or env.get("PROCESSOR_ARCHITECTURE") or None


def _iswow64process2() -> str | None:
    """The native machine from kernel32's IsWow64Process2 (Windows 10 1709+), or None."""
    try:
        import ctypes
        from ctypes import wintypes

        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
        func = kernel32.IsWow64Process2
        process = ctypes.c_ushort(0)
        native = ctypes.c_ushort(0)
        func.argtypes = [
            wintypes.HANDLE,
            ctypes.POINTER(ctypes.c_ushort),
            ctypes.POINTER(ctypes.c_ushort),
        ]
        if not func(kernel32.GetCurrentProcess(), ctypes.byref(process), ctypes.byref(native)):
            return None
        return MACHINES.get(native.value)
    except (ImportError, AttributeError, OSError, ValueError):
        return None


def _process_arch(ctx: ProbeContext, live: bool) -> str | None:
    if live:
        bits = 64 if sys.maxsize > 2**32 else 32
        machine = platform.machine() or None
        return "x86" if bits == 32 else machine
    return ctx.env.get("PROCESSOR_ARCHITECTURE") or None


def _nvidia_files(ctx: ProbeContext, windir: str) -> dict[str, Any]:
    store = f"{windir}/System32/DriverStore/FileRepository"
    folders = [p.replace("\\", "/").rsplit("/", 1)[-1] for p in ctx.glob(f"{store}/nv*")]
    smi = ctx.which("nvidia-smi")
    if smi is None:
        direct = f"{windir}/System32/nvidia-smi.exe"
        in_store = ctx.glob(f"{store}/nv*/nvidia-smi.exe")
        smi = direct if ctx.exists(direct) else (in_store[0] if in_store else None)
    nvml = (
        [f"{windir}/System32/nvml.dll"] if ctx.exists(f"{windir}/System32/nvml.dll") else []
    ) + ctx.glob(f"{store}/nv*/nvml.dll")
    return {"nvidia_smi": smi, "nvml_dlls": nvml[:10], "nvidia_driver_store": folders[:20]}


def _cuda_path(ctx: ProbeContext) -> dict[str, Any]:
    path = ctx.env.get("CUDA_PATH") or None
    versions = {k: v for k, v in sorted(ctx.env.items()) if k.upper().startswith("CUDA_PATH_V")}
    return {
        "cuda_path": path,
        "cuda_path_exists": ctx.is_dir(path) if path else None,
        "cuda_path_versions": versions,
    }


def nvidia_driver_from_wmi(version: str | None) -> str | None:
    """NVIDIA's driver number from the Windows driver version: "32.0.15.6094" -> "560.94"."""
    parts = (version or "").split(".")
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        return None
    digits = (parts[2] + parts[3].zfill(4))[-5:]
    return f"{int(digits[:3])}.{digits[3:]}"


def parse_adapters(text: str) -> list[dict[str, Any]]:
    """Win32_VideoController rows from PowerShell's ConvertTo-Json (an object or a list)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return []
    rows = doc if isinstance(doc, list) else [doc]
    out = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        vendor = row.get("AdapterCompatibility")
        pnp = str(row.get("PNPDeviceID") or "")
        nvidia = "VEN_10DE" in pnp.upper() or "NVIDIA" in str(vendor or "").upper()
        out.append(
            {
                "name": row.get("Name"),
                "driver_version": row.get("DriverVersion"),
                "vendor": vendor,
                "status": row.get("Status"),
                "pnp_id": pnp or None,
                "nvidia_driver": nvidia_driver_from_wmi(row.get("DriverVersion"))
                if nvidia
                else None,
            }
        )
    return out


def _adapters(ctx: ProbeContext) -> list[dict[str, Any]]:
    shell = ctx.which("powershell") or ctx.which("pwsh")
    if not shell:
        return []
    run = ctx.run([shell, "-NoProfile", "-NonInteractive", "-Command", _PS_ADAPTERS], PS_TIMEOUT_S)
    return parse_adapters(run.stdout) if run.ok else []


def parse_reg_dwords(text: str) -> dict[str, int]:
    """REG_DWORD values of `reg query KEY` output."""
    values = {}
    for line in text.splitlines():
        match = _REG_LINE.match(line)
        if match:
            values[match.group(1)] = int(match.group(2), 16)
    return values


def _tdr(ctx: ProbeContext) -> dict[str, Any]:
    reg = ctx.which("reg")
    if not reg:
        return {"read": False}
    run = ctx.run([reg, "query", GRAPHICS_KEY], TOOL_TIMEOUT_S)
    if not run.ok:
        return {"read": False, "error": run.describe_failure()}
    values = parse_reg_dwords(run.stdout)
    return {
        "read": True,
        **{k: values.get(k) for k in ("TdrDelay", "TdrLevel", "TdrDdiDelay", "HwSchMode")},
    }


def parse_events(text: str) -> dict[str, Any]:
    """Count and newest date of `wevtutil qe ... /f:text` events."""
    dates = re.findall(r"^\s*Date:\s*(\S+)", text, re.MULTILINE)
    count = len(re.findall(r"^Event\[\d+\]", text, re.MULTILINE)) or len(dates)
    return {"count": count, "last": dates[0] if dates else None}


def _tdr_events(ctx: ProbeContext) -> dict[str, Any]:
    tool = ctx.which("wevtutil")
    if not tool:
        return {"read": False, "count": None, "last": None}
    run = ctx.run(
        [tool, "qe", "System", f"/q:{TDR_QUERY}", "/c:5", "/rd:true", "/f:text"], TOOL_TIMEOUT_S
    )
    if not run.ok:
        return {"read": False, "count": None, "last": None, "error": run.describe_failure()}
    return {"read": True, **parse_events(run.stdout)}
