"""NVIDIA kernel and user-space plumbing: modules, DKMS builds, Secure Boot, device nodes,
driver libraries and fabric manager.

Fills `nvidia.kernel` with:
- kernel (running release), cmdline (/proc/cmdline), modules_readable;
- modules: {nvidia, nvidia_uvm, nvidia_drm, nvidia_modeset, nvidia_peermem, nouveau} ->
  {loaded, version, refcount, used_by};
- module_for_kernel: {present (True/False/None), files, modinfo {filename, version, license,
  signer, vermagic}} for the running kernel; dkms: [{module, version, kernel, arch}];
  kernels_with_module: kernel releases under /lib/modules that carry an nvidia module;
- nouveau_blacklisted (modprobe.d or the kernel command line), secure_boot {enabled, source},
  sig_enforce, lockdown;
- devices: [{path, mode, uid, gid, group, accessible}] for /dev/nvidia*, /dev/nvidia-caps/*, /dev/dxg;
  user {uid, gids};
- libraries: {"libnvidia-ml": [...], "libcuda": [...]} each {path, version, found_by};
  nvidia_modprobe {path, setuid} (libcuda uses it to load nvidia_uvm on demand);
- fabric_manager: {nvswitch_devices, service, process_running} (probed only with NVSwitch nodes).
"""

from __future__ import annotations

import os
import re
from typing import Any

from envdoctor.model import nvidia_records as rec
from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.amd_sysfs import (
    may_open,  # the same mode-bit rule for every vendor's device nodes
)
from envdoctor.probes.context import ProbeContext

GROUPS = ("nvidia.kernel",)
TIMEOUT_S = 10.0

MODULES = ("nvidia", "nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia_peermem", "nouveau")
LIBRARIES = ("libnvidia-ml", "libcuda")
# the usual dirs of the driver's user-space libraries (libcuda, libnvidia-ml): the distro's, an
# NVIDIA container image's (/usr/local/nvidia) and WSL2's; container_inside looks in these too
DRIVER_LIBRARY_DIRS = (
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/lib/x86_64-linux-gnu",
    "/lib64",
    "/usr/local/nvidia/lib64",
    "/usr/local/nvidia/lib",
    "/usr/lib/wsl/lib",
)
LIBRARY_DIRS = (
    *DRIVER_LIBRARY_DIRS,
    "/run/nvidia/driver/usr/lib/x86_64-linux-gnu",
    "/usr/lib/nvidia",
)
MODULE_GLOBS = (
    "/lib/modules/{k}/updates/dkms/nvidia.ko*",
    "/lib/modules/{k}/updates/nvidia.ko*",
    "/lib/modules/{k}/extra/nvidia.ko*",
    "/lib/modules/{k}/extra/nvidia/nvidia.ko*",
    "/lib/modules/{k}/kernel/drivers/video/nvidia.ko*",
    "/lib/modules/{k}/video/nvidia.ko*",
    "/lib/modules/{k}/extramodules/nvidia.ko*",
    "/lib/modules/{k}/updates/dkms/nvidia-current.ko*",
    "/lib/modules/{k}/extra/nvidia-current.ko*",
    "/lib/modules/{k}/kernel/drivers/gpu/nvidia.ko*",
)
SECURE_BOOT_VAR = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e0a38e8ed4c7"
MODINFO_TIMEOUT_S = 3.0
# procfs/sysfs files are small, and /proc/sys refuses a read buffer of megabytes (ENOMEM)
SMALL_READ = 65536
LDCONFIG_TIMEOUT_S = 3.0


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Gather the kernel-side facts; absent on systems without /proc (Windows, macOS)."""
    if not ctx.exists("/proc") and not ctx.exists("/sys"):
        return [absent("nvidia.kernel", "procfs", "no /proc or /sys: not a Linux system")]
    kernel = (ctx.read_text("/proc/sys/kernel/osrelease", SMALL_READ) or "").strip() or None
    if kernel is None and str(ctx.root) == "/":
        kernel = os.uname().release or None  # the read can fail (ENOMEM) or be cached as failed
    modules, readable = loaded_modules(ctx)
    devices = device_nodes(ctx)
    data: dict[str, Any] = {
        "kernel": kernel,
        "cmdline": (ctx.read_text("/proc/cmdline", SMALL_READ) or "").strip() or None,
        "modules_readable": readable,
        "modules": modules,
        "module_for_kernel": module_for_kernel(ctx, kernel),
        "dkms": dkms_builds(ctx),
        "kernels_with_module": kernels_with_module(ctx),
        "nouveau_blacklisted": nouveau_blacklisted(ctx),
        "secure_boot": secure_boot(ctx),
        "sig_enforce": rec.yes_no(
            {"Y": "yes", "N": "no"}.get(
                (
                    ctx.read_text("/sys/module/module/parameters/sig_enforce", SMALL_READ) or ""
                ).strip(),
                "",
            )
        ),
        "lockdown": _lockdown(ctx),
        "devices": devices,
        "user": {"uid": _uid(), "gids": sorted(_gids())},
        "libraries": find_libraries(ctx),
        "nvidia_modprobe": nvidia_modprobe(ctx),
        "fabric_manager": fabric_manager(ctx, devices),
    }
    return [collected("nvidia.kernel", "procfs", data, summary=_summary(data))]


def _summary(data: dict[str, Any]) -> str:
    loaded = [name for name, info in data["modules"].items() if info.get("loaded")]
    nodes = [d["path"] for d in data["devices"]]
    parts = [
        f"kernel {data['kernel']}" if data["kernel"] else "kernel unknown",
        "modules: " + (", ".join(loaded) if loaded else "none of nvidia/nouveau loaded"),
    ]
    parts.append(f"{len(nodes)} /dev/nvidia* node{'s' if len(nodes) != 1 else ''}")
    return ", ".join(parts)


def _uid() -> int | None:
    getuid = getattr(os, "getuid", None)
    return getuid() if getuid else None


def _gids() -> set[int]:
    try:
        return set(os.getgroups()) | {os.getgid()}
    except (AttributeError, OSError):
        return set()


def loaded_modules(ctx: ProbeContext) -> tuple[dict[str, dict[str, Any]], bool]:
    """The modules of interest from /proc/modules (or /sys/module when that is missing)."""
    text = ctx.read_text("/proc/modules", 1 << 20)
    found: dict[str, dict[str, Any]] = {}
    if text:
        for line in text.splitlines():
            parts = line.split()
            if len(parts) >= 4 and parts[0] in MODULES:
                used_by = [u for u in parts[3].strip(",").split(",") if u and u != "-"]
                found[parts[0]] = {
                    "loaded": True,
                    "refcount": int(parts[2]) if parts[2].isdigit() else None,
                    "used_by": used_by,
                }
    readable = text is not None
    out: dict[str, dict[str, Any]] = {}
    for name in MODULES:
        info = found.get(name)
        sys_dir = f"/sys/module/{name}"
        if (
            info is None
            and ctx.is_dir(sys_dir)
            and (ctx.exists(f"{sys_dir}/initstate") or ctx.exists(f"{sys_dir}/version"))
        ):
            info = {"loaded": True, "refcount": None, "used_by": []}
            readable = True
        if info is None:
            info = {"loaded": False if readable else None, "refcount": None, "used_by": []}
        version = (ctx.read_text(f"{sys_dir}/version", SMALL_READ) or "").strip() or None
        info["version"] = version if info.get("loaded") else None
        out[name] = info
    return out, readable


def module_for_kernel(ctx: ProbeContext, kernel: str | None) -> dict[str, Any]:
    """Whether an nvidia module is installed for the running kernel, and what modinfo says of it."""
    result: dict[str, Any] = {"present": None, "files": [], "modinfo": None}
    if not kernel:
        return result
    files: list[str] = []
    for pattern in MODULE_GLOBS:
        for base in ("", "/usr"):
            files.extend(ctx.glob(base + pattern.format(k=kernel)))
    result["files"] = sorted(set(files))
    modinfo = _modinfo(ctx)
    result["modinfo"] = modinfo
    if files or (modinfo and modinfo.get("filename")):
        result["present"] = True
    elif ctx.is_dir(f"/lib/modules/{kernel}") or ctx.is_dir(f"/usr/lib/modules/{kernel}"):
        result["present"] = False
    return result


def _modinfo(ctx: ProbeContext) -> dict[str, Any] | None:
    if str(ctx.root) != "/" or not ctx.which("modinfo"):
        return None
    run = ctx.run(["modinfo", "nvidia"], MODINFO_TIMEOUT_S)
    if not run.ok:
        return {"error": run.describe_failure()}
    fields: dict[str, Any] = {}
    for line in run.stdout.splitlines():
        key, sep, value = line.partition(":")
        key = key.strip()
        if sep and key in {"filename", "version", "license", "signer", "sig_key", "vermagic"}:
            fields.setdefault(key, value.strip())
    return fields


def dkms_builds(ctx: ProbeContext) -> list[dict[str, Any]]:
    """DKMS builds of NVIDIA modules: /var/lib/dkms/<module>/<version>/<kernel>/<arch>/."""
    out = []
    for module_dir in ctx.glob("/var/lib/dkms/nvidia*"):
        module = module_dir.rsplit("/", 1)[-1]
        for version_dir in ctx.glob(f"{module_dir}/*"):
            version = version_dir.rsplit("/", 1)[-1]
            if not re.match(r"\d", version) or not ctx.is_dir(version_dir):
                continue
            for kernel_dir in ctx.glob(f"{version_dir}/*"):
                kernel = kernel_dir.rsplit("/", 1)[-1]
                if kernel in {"source", "build", "log"} or not ctx.is_dir(kernel_dir):
                    continue
                for arch_dir in ctx.glob(f"{kernel_dir}/*"):
                    if ctx.is_dir(arch_dir):
                        out.append(
                            {
                                "module": module,
                                "version": version,
                                "kernel": kernel,
                                "arch": arch_dir.rsplit("/", 1)[-1],
                            }
                        )
    return out


def kernels_with_module(ctx: ProbeContext) -> list[str]:
    """Kernel releases under /lib/modules (or /usr/lib/modules) that carry an nvidia module."""
    kernels: set[str] = set()
    for base in ("/lib/modules", "/usr/lib/modules"):
        for kernel_dir in ctx.glob(f"{base}/*"):
            kernel = kernel_dir.rsplit("/", 1)[-1]
            for pattern in MODULE_GLOBS:
                suffix = pattern.split("{k}", 1)[1]
                if ctx.glob(f"{kernel_dir}{suffix}"):
                    kernels.add(kernel)
                    break
    return sorted(kernels)


def nouveau_blacklisted(ctx: ProbeContext) -> bool | None:
    """True when modprobe.d or the kernel command line blacklists nouveau."""
    cmdline = ctx.read_text("/proc/cmdline", SMALL_READ) or ""
    if re.search(
        r"(?:modprobe\.blacklist|rd\.driver\.blacklist)=\S*nouveau|nouveau\.modeset=0", cmdline
    ):
        return True
    seen_dir = False
    for folder in ("/etc/modprobe.d", "/usr/lib/modprobe.d", "/lib/modprobe.d"):
        if ctx.is_dir(folder):
            seen_dir = True
        for path in ctx.glob(f"{folder}/*.conf"):
            text = ctx.read_text(path) or ""
            if re.search(r"^\s*blacklist\s+nouveau\b", text, re.M):
                return True
    return False if seen_dir else None


def secure_boot(ctx: ProbeContext) -> dict[str, Any]:
    """Secure Boot state from the EFI variable (or `mokutil --sb-state`)."""
    efi = ctx.is_dir("/sys/firmware/efi")
    raw = ctx.read(SECURE_BOOT_VAR, max_bytes=64).text
    if raw is not None and len(raw) >= 5:
        return {"enabled": raw[4] == "\x01", "efi": True, "source": "efivars"}
    if str(ctx.root) == "/" and ctx.which("mokutil"):
        run = ctx.run(["mokutil", "--sb-state"], 3.0)
        text = (run.stdout + run.stderr).lower()
        if "secureboot enabled" in text:
            return {"enabled": True, "efi": True, "source": "mokutil"}
        if "secureboot disabled" in text:
            return {"enabled": False, "efi": True, "source": "mokutil"}
        if "not supported" in text:
            return {"enabled": False, "efi": False, "source": "mokutil"}
        return {
            "enabled": False if not efi and ctx.exists("/sys/firmware") else None,
            "efi": efi,
            "source": None,
            "error": run.describe_failure()
            if not run.ok
            else "mokutil --sb-state printed no Secure Boot state",
        }
    return {
        "enabled": False if not efi and ctx.exists("/sys/firmware") else None,
        "efi": efi,
        "source": None,
    }


def _lockdown(ctx: ProbeContext) -> str | None:
    text = ctx.read_text("/sys/kernel/security/lockdown", SMALL_READ)
    if not text:
        return None
    match = re.search(r"\[(\w+)\]", text)
    return match.group(1) if match else None


def _group_names(ctx: ProbeContext) -> dict[int, str]:
    names: dict[int, str] = {}
    for line in (ctx.read_text("/etc/group") or "").splitlines():
        parts = line.split(":")
        if len(parts) >= 3 and parts[2].isdigit():
            names.setdefault(int(parts[2]), parts[0])
    return names


def device_nodes(ctx: ProbeContext) -> list[dict[str, Any]]:
    """The NVIDIA device nodes with their owner, mode and whether this user may open them."""
    paths = ctx.glob("/dev/nvidia*") + ctx.glob("/dev/nvidia-caps/*") + ctx.glob("/dev/dxg")
    uid, gids = _uid(), _gids()
    groups = _group_names(ctx)
    out = []
    for path in sorted(set(paths)):
        st = ctx.stat(path)
        if st is None or ctx.is_dir(path):
            continue
        mode = st.st_mode & 0o777
        out.append(
            {
                "path": path,
                "mode": f"{mode:04o}",
                "uid": st.st_uid,
                "gid": st.st_gid,
                "group": groups.get(st.st_gid),
                "accessible": may_open(mode, st.st_uid, st.st_gid, uid, gids),
            }
        )
    return out


def find_libraries(ctx: ProbeContext) -> dict[str, list[dict[str, Any]]]:
    """libnvidia-ml and libcuda as the loader finds them (ldconfig cache) and in known folders.

    CUDA toolkit stubs (`…/stubs/…`) are not driver libraries and are left out. The version comes
    from the resolved file name ("libcuda.so.550.54.14"); WSL's plain files have none.
    """
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in LIBRARIES}
    seen: set[str] = set()

    def add(name: str, path: str, how: str) -> None:
        if "/stubs/" in path or path in seen:
            return
        seen.add(path)
        target = _resolve(ctx, path)
        found[name].append(
            {
                "path": path,
                "resolved": target if target != path else None,
                "version": rec.version_from_library_name(target or path),
                "found_by": how,
            }
        )

    if str(ctx.root) == "/":
        wanted = {f"{name}.so.1": name for name in LIBRARIES}
        for soname, path in _loader_cache(ctx):
            if soname in wanted:
                add(wanted[soname], path, "ldconfig")
    for folder in LIBRARY_DIRS:
        for name in LIBRARIES:
            for path in ctx.glob(f"{folder}/{name}.so.1"):
                add(name, path, "dir")
    return found


def _loader_cache(ctx: ProbeContext) -> list[tuple[str, str]]:
    """(soname, path) of the loader cache's driver libraries (`ld_cache.listing`)."""
    from envdoctor.probes import ld_cache

    rows, _how, _error = ld_cache.listing(
        ctx, tuple(f"{name}.so.1" for name in LIBRARIES), LDCONFIG_TIMEOUT_S
    )
    return [(soname, path) for soname, _flags, path in rows]


def _resolve(ctx: ProbeContext, path: str) -> str:
    current = path
    for _ in range(8):
        target = ctx.readlink(current)
        if target is None:
            return current
        current = target if target.startswith("/") else current.rsplit("/", 1)[0] + "/" + target
    return current


def nvidia_modprobe(ctx: ProbeContext) -> dict[str, Any]:
    """nvidia-modprobe (the setuid helper libcuda uses to load nvidia_uvm and create device nodes)."""
    path = ctx.which("nvidia-modprobe") if str(ctx.root) == "/" else None
    if path is None:
        path = next(
            (p for p in ("/usr/bin/nvidia-modprobe", "/usr/sbin/nvidia-modprobe") if ctx.exists(p)),
            None,
        )
    st = ctx.stat(path) if path else None
    return {"path": path, "setuid": bool(st.st_mode & 0o4000) if st else None}


def fabric_manager(ctx: ProbeContext, devices: list[dict[str, Any]]) -> dict[str, Any]:
    """Fabric manager state on NVSwitch systems (nothing is run without NVSwitch device nodes)."""
    switches = [
        d
        for d in devices
        if d["path"].startswith("/dev/nvidia-nvswitch") and d["path"] != "/dev/nvidia-nvswitchctl"
    ]
    result: dict[str, Any] = {
        "nvswitch_devices": len(switches),
        "service": None,
        "process_running": None,
    }
    if not switches:
        return result
    if str(ctx.root) == "/" and ctx.which("systemctl"):
        run = ctx.run(["systemctl", "is-active", "nvidia-fabricmanager"], 3.0)
        state = run.stdout.strip()
        result["service"] = state or None
    running = False
    for comm in ctx.glob("/proc/[0-9]*/comm"):
        if (ctx.read_text(comm, SMALL_READ) or "").strip() == "nv-fabricmanager":
            running = True
            break
    result["process_running"] = running
    return result
