"""Linux device facts shared by the AMD and Intel GPU probes (not a probe itself).

PCI display devices of a vendor (/sys/bus/pci/devices), DRM render nodes and the PCI device behind
each (/sys/class/drm/renderD*/device), the mode and group of a device node and whether this user
may open it, this user's groups (the process's and /etc/group's), kernel modules (/proc/modules,
/sys/module) and installed dpkg package versions (/var/lib/dpkg/status). Everything goes through
the ProbeContext, so a fake root tree stands in for a machine.
"""

from __future__ import annotations

import os
import re
from typing import Any

from envdoctor.probes.context import ProbeContext

SMALL_READ = 65536
DISPLAY_CLASSES = ("0x03", "0x12")  # display controllers; processing accelerators (Instinct)
_DRM_RENDER = re.compile(r"^renderD(\d+)$")
_PCI_ADDRESS = re.compile(r"^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$")


def read_small(ctx: ProbeContext, path: str) -> str | None:
    """A small sysfs/procfs file's text, stripped (None when missing or unreadable)."""
    text = ctx.read_text(path, SMALL_READ)
    return text.strip() if text is not None else None


def link_name(ctx: ProbeContext, path: str) -> str | None:
    """The last component of a symbolic link's target (a driver or PCI address), or None."""
    target = ctx.readlink(path)
    return os.path.basename(target.rstrip("/")) if target else None


def pci_devices(ctx: ProbeContext, vendor: str) -> list[dict[str, Any]]:
    """The display / accelerator PCI functions of `vendor` ("0x1002", "0x8086"), by address:
    {address, vendor, device_id, revision, subsystem_device, class, driver}."""
    out = []
    for path in ctx.glob("/sys/bus/pci/devices/*"):
        address = os.path.basename(path)
        if (read_small(ctx, f"{path}/vendor") or "").lower() != vendor:
            continue
        klass = (read_small(ctx, f"{path}/class") or "").lower()
        if not klass.startswith(DISPLAY_CLASSES):
            continue
        out.append(
            {
                "address": address.lower(),
                "vendor": vendor,
                "device_id": (read_small(ctx, f"{path}/device") or "").lower() or None,
                "revision": (read_small(ctx, f"{path}/revision") or "").lower() or None,
                "subsystem_device": (read_small(ctx, f"{path}/subsystem_device") or "").lower()
                or None,
                "class": klass or None,
                "driver": link_name(ctx, f"{path}/driver"),
            }
        )
    return sorted(out, key=lambda d: d["address"])


def render_nodes(ctx: ProbeContext) -> list[dict[str, Any]]:
    """Every /dev/dri/renderD* node with its minor, the PCI address, vendor and driver behind it
    (from /sys/class/drm/renderD<N>/device), and its mode, group and access for this user."""
    identity = user_identity(ctx)
    minors: dict[int, str] = {}
    for path in ctx.glob("/dev/dri/renderD*") + ctx.glob("/sys/class/drm/renderD*"):
        match = _DRM_RENDER.match(os.path.basename(path))
        if match:
            minors[int(match.group(1))] = f"/dev/dri/renderD{match.group(1)}"
    out = []
    for minor, node in sorted(minors.items()):
        sys_dev = f"/sys/class/drm/renderD{minor}/device"
        address = link_name(ctx, sys_dev)
        entry = device_node(ctx, node, identity)
        entry.update(
            {
                "minor": minor,
                "pci_address": address.lower() if address and _PCI_ADDRESS.match(address) else None,
                "vendor": (read_small(ctx, f"{sys_dev}/vendor") or "").lower() or None,
                "driver": link_name(ctx, f"{sys_dev}/driver"),
            }
        )
        out.append(entry)
    return out


def device_node(
    ctx: ProbeContext, path: str, identity: dict[str, Any] | None = None
) -> dict[str, Any]:
    """{path, exists, mode ("0660"), uid, gid, group (name), accessible} for one device node.
    `accessible` is read+write permission from the mode bits for this user (None when unknown);
    cgroup device rules inside containers are not visible here."""
    identity = identity if identity is not None else user_identity(ctx)
    st = ctx.stat(path)
    if st is None:
        return {
            "path": path,
            "exists": False,
            "mode": None,
            "uid": None,
            "gid": None,
            "group": None,
            "accessible": None,
        }
    mode = st.st_mode & 0o777
    return {
        "path": path,
        "exists": True,
        "mode": f"{mode:04o}",
        "uid": st.st_uid,
        "gid": st.st_gid,
        "group": identity["group_names"].get(st.st_gid),
        "accessible": may_open(
            mode, st.st_uid, st.st_gid, identity.get("uid"), set(identity.get("gids") or [])
        ),
    }


def may_open(mode: int, owner: int, group: int, uid: int | None, gids: set[int]) -> bool | None:
    """Read and write permission from the mode bits alone."""
    if uid is None:
        return None
    if uid == 0:
        return True
    if uid == owner:
        return mode & 0o600 == 0o600
    if group in gids:
        return mode & 0o060 == 0o060
    return mode & 0o006 == 0o006


def process_uid() -> int | None:
    """This process's uid (None off POSIX)."""
    getuid = getattr(os, "getuid", None)
    return getuid() if getuid else None


def process_gids() -> list[int]:
    """The groups this process holds now (a group added after login is missing until re-login)."""
    try:
        return sorted(set(os.getgroups()) | {os.getgid()})
    except (AttributeError, OSError):
        return []


def user_identity(ctx: ProbeContext) -> dict[str, Any]:
    """This user: uid, name, the gids the process holds and their names, and the groups
    /etc/group lists the user in (`member_of`, what a fresh login would give)."""
    uid = process_uid()
    gids = process_gids()
    names: dict[int, str] = {}
    members: dict[str, list[str]] = {}
    for line in (ctx.read_text("/etc/group") or "").splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[2].isdigit():
            names.setdefault(int(parts[2]), parts[0])
            members[parts[0]] = [m for m in parts[3].split(",") if m]
    user = _user_name(ctx, uid)
    member_of = sorted(g for g, who in members.items() if user and user in who)
    primary = _primary_group(ctx, user)
    if primary and primary not in member_of:
        member_of = sorted(member_of + [primary])
    return {
        "uid": uid,
        "user": user,
        "gids": gids,
        "groups": sorted({names[g] for g in gids if g in names}),
        "member_of": member_of,
        "group_names": names,
    }


def _user_name(ctx: ProbeContext, uid: int | None) -> str | None:
    if uid is not None:
        for line in (ctx.read_text("/etc/passwd") or "").splitlines():
            parts = line.split(":")
            if len(parts) >= 3 and parts[2] == str(uid):
                return parts[0]
    return ctx.env.get("USER") or ctx.env.get("LOGNAME") or None


def _primary_group(ctx: ProbeContext, user: str | None) -> str | None:
    if not user:
        return None
    gid = None
    for line in (ctx.read_text("/etc/passwd") or "").splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[0] == user:
            gid = parts[3]
    if gid is None:
        return None
    for line in (ctx.read_text("/etc/group") or "").splitlines():
        parts = line.split(":")
        if len(parts) >= 3 and parts[2] == gid:
            return parts[0]
    return None


def kernel_module(ctx: ProbeContext, name: str) -> dict[str, Any]:
    """{loaded (True/False/None when unreadable), version (/sys/module/<name>/version, set by
    out-of-tree builds such as DKMS), refcount} of one kernel module."""
    text = ctx.read_text("/proc/modules", 1 << 20)
    loaded: bool | None = None
    refcount = None
    if text is not None:
        loaded = False
        for line in text.splitlines():
            parts = line.split()
            if parts and parts[0] == name:
                loaded = True
                refcount = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None
    sys_dir = f"/sys/module/{name}"
    if (
        not loaded
        and ctx.is_dir(sys_dir)
        and (ctx.exists(f"{sys_dir}/initstate") or ctx.exists(f"{sys_dir}/version"))
    ):
        loaded = True
    version = read_small(ctx, f"{sys_dir}/version") if loaded else None
    return {"loaded": loaded, "version": version or None, "refcount": refcount}


def running_kernel(ctx: ProbeContext) -> str | None:
    """The running kernel release (/proc/sys/kernel/osrelease)."""
    return read_small(ctx, "/proc/sys/kernel/osrelease") or None


def dpkg_versions(ctx: ProbeContext, names: tuple[str, ...]) -> dict[str, str]:
    """Installed versions of the named Debian packages (from /var/lib/dpkg/status, parsed once)."""
    from envdoctor.probes.platform_packages import installed_dpkg

    wanted = set(names)
    return dict(
        sorted((name, version) for name, version in installed_dpkg(ctx).items() if name in wanted)
    )


def in_container(ctx: ProbeContext) -> bool:
    """Whether the target looks like a container (/.dockerenv, /run/.containerenv, or PID 1's
    cgroup naming docker / kubepods / lxc / containerd)."""
    if ctx.exists("/.dockerenv") or ctx.exists("/run/.containerenv"):
        return True
    cgroup = ctx.read_text("/proc/1/cgroup", SMALL_READ) or ""
    return any(m in cgroup for m in ("docker", "kubepods", "lxc", "containerd", "libpod"))


def find_libraries(
    ctx: ProbeContext, patterns: tuple[str, ...], dirs: tuple[str, ...]
) -> list[str]:
    """Files matching any glob pattern ("libze_intel_gpu.so*") in the given folders."""
    found: list[str] = []
    for folder in dirs:
        for pattern in patterns:
            for path in ctx.glob(f"{folder}/{pattern}"):
                if path not in found:
                    found.append(path)
    return found


LIBRARY_DIRS = (
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/lib/x86_64-linux-gnu",
    "/usr/local/lib",
    "/usr/lib/aarch64-linux-gnu",
)
