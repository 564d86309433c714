"""Operating system: distribution, kernel, architecture, C library, virtualisation hints.

Fills `os` with: system ("Linux", "Windows", "Darwin"), distro_id, distro_version, distro_name,
distro_like (list), kernel, arch, glibc (version or None), virtualization (a hint such as
"kvm", "wsl", "docker", or None) and the evidence for that hint.
"""

from __future__ import annotations

import os
import platform
import re

from envdoctor.context import ProbeContext
from envdoctor.snapshot import FactGroup, collected

GROUPS = ("os",)
TIMEOUT_S = 5.0

_DMI_HYPERVISORS = {
    "qemu": "kvm",
    "kvm": "kvm",
    "vmware": "vmware",
    "virtualbox": "virtualbox",
    "innotek": "virtualbox",
    "microsoft corporation": "hyperv",
    "xen": "xen",
    "amazon ec2": "kvm",
    "google": "kvm",
    "openstack": "kvm",
    "bochs": "kvm",
    "parallels": "parallels",
}


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Read the OS facts of the target system."""
    live = str(ctx.root) == "/"
    distro_facts = _distro(ctx, live)
    kernel = (ctx.read_text("/proc/sys/kernel/osrelease") or "").strip() or (
        platform.release() if live else None
    )
    arch = platform.machine() if live else None
    system = (
        platform.system() if live else ("Linux" if ctx.exists("/proc") or distro_facts else None)
    )
    glibc = _glibc(live)
    virt, virt_evidence = _virtualization(ctx)
    data = {
        "system": system,
        **distro_facts,
        "kernel": kernel or None,
        "arch": arch,
        "glibc": glibc,
        "virtualization": virt,
        "virtualization_evidence": virt_evidence,
        # who runs envdoctor, for the fixes' commands (root needs no sudo); live only
        "euid": os.geteuid() if live and hasattr(os, "geteuid") else None,
        "sudo": (ctx.which("sudo") is not None) if live else None,
    }
    pretty = distro_facts.get("distro_name") or system or "unknown OS"
    parts = [pretty]
    if kernel:
        parts.append(f"kernel {kernel}")
    if arch:
        parts.append(arch)
    if glibc:
        parts.append(f"glibc {glibc}")
    if virt:
        parts.append(f"in {virt}")
    return [collected("os", "probe:os_info", data, summary=", ".join(parts))]


def _distro(ctx: ProbeContext, live: bool) -> dict:
    fast = os_release_facts(ctx)
    if fast is not None:
        return fast
    try:
        import distro
    except ImportError:
        return _os_release(ctx)
    try:
        # os-release only: distro would otherwise run lsb_release and uname itself, outside
        # ctx.run (no deadline; a Python script on Debian)
        info = distro.LinuxDistribution(
            include_lsb=False,
            include_uname=False,
            include_oslevel=False,
            root_dir=None if live else str(ctx.root),
        )
        if not info.id():
            return _os_release(ctx)
        return {
            "distro_id": info.id() or None,
            "distro_version": info.version() or None,
            "distro_name": info.name(pretty=True) or None,
            "distro_like": info.like().split() if info.like() else [],
            "distro_codename": info.codename() or None,
        }
    except Exception:  # noqa: BLE001 - distro parses files we do not control
        return _os_release(ctx)


_NORMALIZED_ID = {"ol": "oracle", "opensuse-leap": "opensuse"}  # distro's NORMALIZED_OS_ID
_VERSION_CODENAME = re.compile(
    r"\((\D+)\)|,\s*(\D+)"
)  # "22.04.4 LTS (Jammy Jellyfish)", as distro reads it


def os_release_facts(ctx: ProbeContext) -> dict | None:
    """The distro facts from os-release alone, read as `distro` reads it, when that file answers
    everything `distro` would ask it (ID, VERSION_ID, PRETTY_NAME and a codename, possibly empty):
    one small file instead of importing `distro` (~11 ms: it brings logging, argparse and
    subprocess). None otherwise, and `distro` decides (it also reads /etc/*-release files)."""
    text = ctx.read_text("/etc/os-release") or ctx.read_text("/usr/lib/os-release")
    if not text:
        return None
    import shlex

    try:
        lexer = shlex.shlex(text, posix=True)
        lexer.whitespace_split = True
        props = {k.lower(): v for k, _, v in (t.partition("=") for t in lexer if "=" in t)}
    except ValueError:  # an unterminated quote: let distro cope
        return None
    codename = None
    match = _VERSION_CODENAME.search(props.get("version", ""))
    if match:
        codename = match.group(1) or match.group(2)
    if "version_codename" in props:
        codename = props["version_codename"]
    elif "ubuntu_codename" in props:
        codename = props["ubuntu_codename"]
    distro_id = props.get("id", "").lower().replace(" ", "_")
    if (
        not distro_id
        or not props.get("version_id")
        or not props.get("pretty_name")
        or codename is None
    ):
        return None
    return {
        "distro_id": _NORMALIZED_ID.get(distro_id, distro_id),
        "distro_version": props["version_id"],
        "distro_name": props["pretty_name"],
        "distro_like": props["id_like"].split() if props.get("id_like") else [],
        "distro_codename": codename or None,
    }


def _os_release(ctx: ProbeContext) -> dict:
    text = ctx.read_text("/etc/os-release") or ctx.read_text("/usr/lib/os-release")
    if not text:
        return {}
    fields = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            fields[key.strip()] = value.strip().strip('"').strip("'")
    return {
        "distro_id": fields.get("ID"),
        "distro_version": fields.get("VERSION_ID"),
        "distro_name": fields.get("PRETTY_NAME") or fields.get("NAME"),
        "distro_like": fields.get("ID_LIKE", "").split(),
        "distro_codename": fields.get("VERSION_CODENAME"),
    }


def _glibc(live: bool) -> str | None:
    if not live:
        return None
    try:
        value = os.confstr("CS_GNU_LIBC_VERSION")  # "glibc 2.36"
    except (AttributeError, ValueError, OSError):
        return None
    if value and value.startswith("glibc "):
        return value.split()[1]
    return None


def _virtualization(ctx: ProbeContext) -> tuple[str | None, list[str]]:
    evidence: list[str] = []
    proc_version = ctx.read_text("/proc/version") or ""
    if "microsoft" in proc_version.lower():
        evidence.append("/proc/version mentions Microsoft")
        return "wsl", evidence
    if ctx.exists("/.dockerenv"):
        return "docker", ["/.dockerenv exists"]
    if ctx.exists("/run/.containerenv"):
        return "podman", ["/run/.containerenv exists"]
    cgroup = ctx.read_text("/proc/1/cgroup") or ""
    for marker, name in (("kubepods", "kubernetes"), ("docker", "docker"), ("lxc", "lxc")):
        if marker in cgroup:
            return name, [f"/proc/1/cgroup mentions {marker}"]
    vendor = " ".join(
        (ctx.read_text(p) or "").strip().lower()
        for p in ("/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name")
    )
    for marker, name in _DMI_HYPERVISORS.items():
        if marker in vendor:
            if marker == "microsoft corporation" and "virtual" not in vendor:
                continue  # a Surface laptop is not a VM
            return name, [f"DMI vendor/product: {vendor.strip()}"]
    cpuinfo = ctx.read_text("/proc/cpuinfo", max_bytes=65536) or ""
    for line in cpuinfo.splitlines():
        if line.startswith("flags") and " hypervisor" in line:
            return "vm", ["CPU flag 'hypervisor' set"]
    return None, evidence
