"""Windows Subsystem for Linux: WSL 1 or 2, the Windows-side GPU plumbing, what breaks it.

Fills `platform.wsl` (absent when nothing says WSL) with:
- `wsl_version` 1 / 2 / None and `version_evidence`: the kernel release (`…-microsoft-standard-WSL2`,
  older WSL 2 kernels `…-microsoft-standard`; WSL 1 reports a Windows build such as
  `4.4.0-19041-Microsoft`), /dev/dxg (the GPU paravirtualisation device of WSL 2's dxgkrnl driver),
  /usr/lib/wsl/lib. `WSL_DISTRO_NAME` / `WSL_INTEROP` are recorded but never decide alone
  (services and `sudo -i` do not inherit them).
- `kernel`, `distro_name`, `interop` (WSL_INTEROP or the WSLInterop binfmt entry), `in_container`.
- `dxg`, `wsl_lib_dir`, `wsl_lib_files` (names in /usr/lib/wsl/lib), `libcuda_files` [{name, kind
  "file" | "symlink", target}], `driver_store_dirs` (/usr/lib/wsl/drivers), `nvidia_smi`
  (/usr/lib/wsl/lib/nvidia-smi exists), `nvidia_smi_on_path`.
- loader path: `wsl_lib_in_ld_conf` (an /etc/ld.so.conf.d/*.conf line names /usr/lib/wsl/lib),
  `ld_conf_files`, `wsl_lib_in_ld_library_path`, `ldconfig_libcuda` (the libcuda.so.1 paths in
  loader-cache order, from /etc/ld.so.cache or `ldconfig -p`; live only) and `ldconfig_ran`.
- Linux drivers inside WSL: `linux_driver_packages` {name: version} (nvidia-driver-*,
  libnvidia-compute-*, cuda-drivers, Debian's libcuda1 ...), `cuda_meta_packages` (`cuda`,
  `cuda-X-Y`), `cuda_repos` (the NVIDIA apt repositories configured: "wsl-ubuntu", "ubuntu2204" ...),
  `linux_libcuda` (libcuda.so* files in the system library folders that are not links into
  /usr/lib/wsl).
- `wsl_conf` {gpu_enabled, automount_ldconfig, systemd, interop_enabled} from /etc/wsl.conf.
- `wslconfigs`: [{memory_bytes, swap_bytes, processors, memory_text}] from every
  /mnt/c/Users/*/.wslconfig `[wsl2]` section visible from here; sizes with KB/MB/GB/TB suffixes are
  taken as powers of 1024, bare numbers as bytes. `mem_total_mib`: the VM's MemTotal.
- `windows_version` ("10.0.22631.4317") and `windows_build` (22631) from `cmd.exe /c ver` when
  interop works; `wsl_package_version` from `wslinfo --wsl-version`.
- AMD/ROCm: `kfd` (/dev/kfd, never present in WSL), `rocm` {opt_rocm, librocdxg,
  hsa_enable_dxg_detection, wsl_runtime_package}, `ollama` {installed, rocm_libs}.
"""

from __future__ import annotations

import configparser
import platform
import re
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes import cuda_paths
from envdoctor.probes.context import ProbeContext
from envdoctor.probes.platform_packages import installed_dpkg
from envdoctor.probes.platform_windows import parse_ver

GROUPS = ("platform.wsl",)
TIMEOUT_S = 10.0
SOURCE = "probe:platform_wsl"
WSL_LIB = "/usr/lib/wsl/lib"
CMD_TIMEOUT_S = 4.0
LDCONFIG_TIMEOUT_S = 5.0

_LINUX_DRIVER = re.compile(
    r"^(?:nvidia-driver(?:-\d+.*|-bin|-libs)?|nvidia-dkms-.*|nvidia-kernel-(?:common|source|dkms|open)(?:-.*)?|"
    r"nvidia-utils-\d+.*|libnvidia-compute-\d+.*|libnvidia-gl-\d+.*|nvidia-open(?:-.*)?|"
    r"cuda-drivers(?:-\d+.*)?|libcuda1|nvidia-smi|xserver-xorg-video-nvidia(?:-.*)?|nvidia-headless-.*)$"
)
_CUDA_META = re.compile(r"^cuda(?:-\d+-\d+)?$")
_NVIDIA_REPO = re.compile(r"developer\.download\.nvidia\.com/compute/cuda/repos/([\w.-]+)/")
_LOCAL_REPO = re.compile(r"^cuda-repo-((?:wsl-)?[a-z]+[\w]*?)-\d+-\d+-local")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?B?)?\s*$", re.IGNORECASE)
_UNITS = {
    "": 1,
    "B": 1,
    "K": 1024,
    "KB": 1024,
    "M": 1024**2,
    "MB": 1024**2,
    "G": 1024**3,
    "GB": 1024**3,
    "T": 1024**4,
    "TB": 1024**4,
}
_LIB_DIRS = ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib")
_SKIP_USERS = {"default", "default user", "public", "all users"}


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe WSL, or say why this is not WSL."""
    live = str(ctx.root) == "/"
    kernel = (ctx.read_text("/proc/sys/kernel/osrelease") or "").strip()
    if not kernel and live and platform.system() == "Linux":
        kernel = platform.release()
    proc_version = (ctx.read_text("/proc/version") or "").strip()
    distro = ctx.env.get("WSL_DISTRO_NAME") or None
    dxg = ctx.exists("/dev/dxg")
    lib_dir = ctx.is_dir(WSL_LIB)
    binfmt = ctx.exists("/proc/sys/fs/binfmt_misc/WSLInterop") or ctx.exists(
        "/proc/sys/fs/binfmt_misc/WSLInterop-late"
    )
    microsoft = "microsoft" in kernel.lower() or "microsoft" in proc_version.lower()
    if not (microsoft or distro or dxg or lib_dir or binfmt):
        shown = kernel or "unknown"
        return [
            absent(
                "platform.wsl",
                SOURCE,
                f"not WSL: kernel {shown} does not say Microsoft, "
                "no /dev/dxg, no /usr/lib/wsl/lib, no WSL_DISTRO_NAME",
            )
        ]
    version, evidence = wsl_version(kernel or proc_version, dxg, lib_dir)
    if distro:
        evidence.append(f"WSL_DISTRO_NAME={distro}")
    data: dict[str, Any] = {
        "wsl_version": version,
        "version_evidence": evidence,
        "kernel": kernel or None,
        "distro_name": distro,
        "interop": True
        if (binfmt or ctx.env.get("WSL_INTEROP"))
        else (None if version == 1 else False),
        "in_container": ctx.exists("/.dockerenv") or ctx.exists("/run/.containerenv"),
        "dxg": dxg,
        "wsl_lib_dir": lib_dir,
    }
    data.update(_wsl_lib(ctx, lib_dir))
    data.update(_loader(ctx, live))
    data.update(_linux_driver(ctx))
    data["wsl_conf"] = parse_wsl_conf(ctx.read_text("/etc/wsl.conf") or "")
    data["wslconfigs"] = _wslconfigs(ctx)
    data["mem_total_mib"] = _mem_total_mib(ctx)
    data.update(_windows_side(ctx))
    data.update(_amd(ctx))
    return [collected("platform.wsl", SOURCE, data, summary=_summary(data))]


def wsl_version(kernel: str, dxg: bool, lib_dir: bool) -> tuple[int | None, list[str]]:
    """(1, 2 or None, the evidence) from the kernel release and the WSL 2 device/folder."""
    lowered = kernel.lower()
    if "microsoft" in lowered:
        if "wsl2" in lowered or "microsoft-standard" in lowered:
            return 2, [f"kernel {kernel} is a WSL 2 kernel"]
        if (
            re.search(r"microsoft\s*$", lowered)
            or "-microsoft" in lowered
            and "standard" not in lowered
        ):
            return 1, [f"kernel {kernel} is WSL 1's (a Windows build number, no Linux kernel)"]
    if dxg:
        return 2, ["/dev/dxg exists (WSL 2's GPU paravirtualisation device)"]
    if lib_dir:
        return 2, [f"{WSL_LIB} exists"]
    return None, [f"kernel {kernel or 'unknown'} does not tell WSL 1 from WSL 2"]


def _wsl_lib(ctx: ProbeContext, lib_dir: bool) -> dict[str, Any]:
    names = ctx.listdir(WSL_LIB) if lib_dir else []
    libcuda = []
    for name in names:
        if name.startswith("libcuda.so"):
            target = ctx.readlink(f"{WSL_LIB}/{name}")
            libcuda.append(
                {
                    "name": name,
                    "kind": "symlink" if target is not None else "file",
                    "target": target,
                }
            )
    return {
        "wsl_lib_files": names[:80],
        "libcuda_files": libcuda,
        "driver_store_dirs": ctx.listdir("/usr/lib/wsl/drivers")[:30],
        "nvidia_smi": "nvidia-smi" in names,
        "nvidia_smi_on_path": ctx.which("nvidia-smi") is not None,
    }


def _loader(ctx: ProbeContext, live: bool) -> dict[str, Any]:
    conf_files = []
    for path in ctx.glob("/etc/ld.so.conf.d/*.conf"):
        lines = [line.strip().rstrip("/") for line in (ctx.read_text(path) or "").splitlines()]
        if WSL_LIB in lines:
            conf_files.append(path)
    ld_path = [p.rstrip("/") for p in (ctx.env.get("LD_LIBRARY_PATH") or "").split(":") if p]
    out: dict[str, Any] = {
        "wsl_lib_in_ld_conf": bool(conf_files),
        "ld_conf_files": conf_files,
        "wsl_lib_in_ld_library_path": WSL_LIB in ld_path,
        "ldconfig_ran": False,
        "ldconfig_libcuda": [],
    }
    if live:
        from envdoctor.probes import ld_cache

        rows, _how, error = ld_cache.listing(ctx, ("libcuda.so.1",), LDCONFIG_TIMEOUT_S)
        if error is None:
            out["ldconfig_ran"] = True  # the loader cache was listed (read, or ldconfig -p run)
            out["ldconfig_libcuda"] = [path for _soname, _flags, path in rows]
    return out


def _linux_driver(ctx: ProbeContext) -> dict[str, Any]:
    packages = installed_dpkg(ctx)
    drivers = {n: v for n, v in sorted(packages.items()) if _LINUX_DRIVER.match(n)}
    meta = {n: v for n, v in sorted(packages.items()) if _CUDA_META.match(n)}
    repos: list[str] = []
    for path in ctx.glob("/etc/apt/sources.list.d/*") + ["/etc/apt/sources.list"]:
        for repo in _NVIDIA_REPO.findall(ctx.read_text(path) or ""):
            if repo not in repos:
                repos.append(repo)
    for entry in ctx.listdir("/var"):
        local = _LOCAL_REPO.match(entry)
        if local and f"{local.group(1)} (local)" not in repos:
            repos.append(f"{local.group(1)} (local)")
    foreign = []
    for folder in _LIB_DIRS:
        for path in ctx.glob(f"{folder}/libcuda.so*"):
            real = cuda_paths.resolve(ctx, path)
            if not real.startswith("/usr/lib/wsl/"):
                foreign.append(path)
    return {
        "linux_driver_packages": drivers,
        "cuda_meta_packages": meta,
        "cuda_repos": repos,
        "linux_libcuda": foreign,
    }


def parse_wsl_conf(text: str) -> dict[str, bool | None]:
    """The /etc/wsl.conf keys that matter to the GPU, as booleans (None when unset)."""
    parser = configparser.ConfigParser(
        strict=False, interpolation=None, inline_comment_prefixes=("#", ";")
    )
    try:
        parser.read_string(text)
    except configparser.Error:
        return {
            "gpu_enabled": None,
            "automount_ldconfig": None,
            "systemd": None,
            "interop_enabled": None,
            "parse_error": True,
        }

    def flag(section: str, key: str) -> bool | None:
        value = parser.get(section, key, fallback=None)
        if value is None:
            return None
        value = value.strip().strip('"').lower()
        return (
            True
            if value in ("true", "1", "yes")
            else (False if value in ("false", "0", "no") else None)
        )

    return {
        "gpu_enabled": flag("gpu", "enabled"),
        "automount_ldconfig": flag("automount", "ldconfig"),
        "systemd": flag("boot", "systemd"),
        "interop_enabled": flag("interop", "enabled"),
    }


def parse_size(text: str | None) -> int | None:
    """Bytes of a .wslconfig size ("8GB", "512MB", "1073741824")."""
    if not text:
        return None
    match = _SIZE.match(text.strip().strip('"'))
    if not match:
        return None
    unit = (match.group(2) or "").upper()
    return int(float(match.group(1)) * _UNITS.get(unit, 1)) if unit in _UNITS else None


def parse_wslconfig(text: str) -> dict[str, Any]:
    """The [wsl2] sizes of a .wslconfig."""
    parser = configparser.ConfigParser(
        strict=False, interpolation=None, inline_comment_prefixes=("#", ";")
    )
    try:
        parser.read_string(text)
    except configparser.Error:
        return {"parse_error": True}
    section = next((s for s in parser.sections() if s.lower() == "wsl2"), None)
    if section is None:
        return {"memory_bytes": None, "swap_bytes": None, "processors": None, "memory_text": None}
    memory = parser.get(section, "memory", fallback=None)
    processors = parser.get(section, "processors", fallback=None)
    return {
        "memory_bytes": parse_size(memory),
        "memory_text": memory.strip() if memory else None,
        "swap_bytes": parse_size(parser.get(section, "swap", fallback=None)),
        "processors": int(processors) if processors and processors.strip().isdigit() else None,
    }


def _wslconfigs(ctx: ProbeContext) -> list[dict[str, Any]]:
    found = []
    for path in ctx.glob("/mnt/c/Users/*/.wslconfig"):
        user = path.split("/")[-2].lower()
        if user in _SKIP_USERS:
            continue
        text = ctx.read_text(path, max_bytes=65536)
        if text is not None:
            found.append(parse_wslconfig(text))
    return found


def _mem_total_mib(ctx: ProbeContext) -> int | None:
    for line in (ctx.read_text("/proc/meminfo", max_bytes=8192) or "").splitlines():
        if line.startswith("MemTotal:"):
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                return int(parts[1]) // 1024
    return None


def _windows_side(ctx: ProbeContext) -> dict[str, Any]:
    out: dict[str, Any] = {
        "windows_version": None,
        "windows_build": None,
        "windows_error": None,
        "wsl_package_version": None,
    }
    cmd = ctx.which("cmd.exe")
    if cmd:
        run = ctx.run([cmd, "/c", "ver"], CMD_TIMEOUT_S)
        if run.ok:
            out["windows_version"], out["windows_build"] = parse_ver(run.stdout)
        else:
            out["windows_error"] = run.describe_failure()
    else:
        out["windows_error"] = "cmd.exe is not on PATH (WSL interop off or appendWindowsPath=false)"
    if ctx.which("wslinfo"):
        run = ctx.run(["wslinfo", "--wsl-version"], CMD_TIMEOUT_S)
        text = run.stdout.strip()
        if run.ok and re.fullmatch(r"\d+(?:\.\d+)+", text):
            out["wsl_package_version"] = text
    return out


def _amd(ctx: ProbeContext) -> dict[str, Any]:
    packages = installed_dpkg(ctx)
    return {
        "kfd": ctx.exists("/dev/kfd"),
        "rocm": {
            "opt_rocm": ctx.is_dir("/opt/rocm"),
            "librocdxg": bool(
                ctx.glob("/opt/rocm*/lib/librocdxg.so*")
                or ctx.glob("/usr/lib/x86_64-linux-gnu/librocdxg.so*")
            ),
            "hsa_enable_dxg_detection": ctx.env.get("HSA_ENABLE_DXG_DETECTION"),
            "wsl_runtime_package": packages.get("hsa-runtime-rocr4wsl-amdgpu"),
        },
        "ollama": {
            "installed": ctx.which("ollama") is not None
            or ctx.exists("/usr/local/bin/ollama")
            or ctx.exists("/usr/bin/ollama"),
            "rocm_libs": ctx.is_dir("/usr/local/lib/ollama/rocm")
            or ctx.is_dir("/usr/lib/ollama/rocm"),
        },
    }


def _summary(data: dict[str, Any]) -> str:
    version = data.get("wsl_version")
    parts = [f"WSL {version}" if version else "WSL (version unknown)"]
    if data.get("distro_name"):
        parts[0] += f" ({data['distro_name']})"
    if data.get("kernel"):
        parts.append(f"kernel {data['kernel']}")
    if data.get("windows_build"):
        parts.append(f"Windows build {data['windows_build']}")
    if version == 2:
        parts.append("/dev/dxg present" if data.get("dxg") else "no /dev/dxg")
    if data.get("in_container"):
        parts.append("inside a container")
    return ", ".join(parts)
