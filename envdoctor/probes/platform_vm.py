"""Virtual machines: the hypervisor, the display adapters the guest sees, NVIDIA vGPU licensing.

Fills `platform.vm` with:
- `hypervisor` (a display name such as "VMware", "KVM/QEMU", "Microsoft Hyper-V", "Amazon EC2"),
  `hypervisor_evidence`, `detect_virt` (what `systemd-detect-virt --vm` printed, live only), `dmi`
  {sys_vendor, product_name, bios_vendor, board_vendor}, `cpu_hypervisor_flag`.
- `display_adapters`: PCI display-class devices [{slot, vendor_id, device_id, kind, name, driver}];
  kind is "virtual" (an emulated adapter: VMware SVGA, QXL, virtio-gpu, Bochs/std VGA, Cirrus,
  VirtualBox, Hyper-V, EC2 VGA), "bmc" (a server's management controller: ASPEED, Matrox), or the
  GPU vendor ("nvidia", "amd", "intel"), else "other". `drm_drivers`: kernel DRM drivers bound to
  /sys/class/drm/card* (vmwgfx, qxl, virtio_gpu, hyperv_drm, nvidia, amdgpu, i915 ...).
- `vgpu`: {gridd_installed, gridd_unit, gridd_active ("active"/"inactive"/..., live only),
  gridd_conf {present, feature_type, server_address_set}, client_tokens (count of
  /etc/nvidia/ClientConfigToken/*.tok), licenses [{gpu, product_name, license_status, licensed,
  restricted, expiry, virtualization_mode}] from the "vGPU Software Licensed Product" section of
  `nvidia-smi -q`, smi_error}.
Absent when nothing points to a hypervisor or to vGPU software (bare metal).
"""

from __future__ import annotations

import re
from typing import Any

from envdoctor.model.snapshot import FactGroup, absent, collected
from envdoctor.probes.context import ProbeContext

GROUPS = ("platform.vm",)
TIMEOUT_S = 15.0
SOURCE = "probe:platform_vm"
SMI_TIMEOUT_S = 10.0

# PCI vendor:device -> (kind, name) for the emulated adapters hypervisors give their guests
VIRTUAL_ADAPTERS = {
    ("0x15ad", "0x0405"): "VMware SVGA II",
    ("0x15ad", "0x0406"): "VMware SVGA 3",
    ("0x1234", "0x1111"): "QEMU standard VGA (Bochs)",
    ("0x1b36", "0x0100"): "QXL paravirtual graphics",
    ("0x1af4", "0x1050"): "virtio-gpu",
    ("0x1013", "0x00b8"): "Cirrus Logic GD 5446 (emulated)",
    ("0x80ee", "0xbeef"): "VirtualBox Graphics Adapter",
    ("0x1414", "0x5353"): "Hyper-V virtual VGA",
    ("0x1d0f", "0x1111"): "Amazon EC2 VGA",
}
BMC_VENDORS = {"0x1a03": "ASPEED BMC graphics", "0x102b": "Matrox (server management graphics)"}
GPU_VENDORS = {"0x10de": "nvidia", "0x1002": "amd", "0x8086": "intel"}
VIRTUAL_DRM = {
    "vmwgfx",
    "qxl",
    "virtio_gpu",
    "virtio-gpu",
    "bochs",
    "bochs-drm",
    "cirrus",
    "cirrus-qemu",
    "hyperv_drm",
    "vboxvideo",
}
_DMI_NAMES = (
    ("vmware", "VMware"),
    ("qemu", "KVM/QEMU"),
    ("kvm", "KVM/QEMU"),
    ("virtualbox", "VirtualBox"),
    ("innotek", "VirtualBox"),
    ("xen", "Xen"),
    ("amazon ec2", "Amazon EC2"),
    ("google", "Google Compute Engine"),
    ("openstack", "OpenStack"),
    ("parallels", "Parallels"),
    ("nutanix", "Nutanix AHV"),
    ("bochs", "KVM/QEMU"),
)
_DETECT_VIRT = {
    "kvm": "KVM/QEMU",
    "qemu": "KVM/QEMU",
    "vmware": "VMware",
    "microsoft": "Microsoft Hyper-V",
    "oracle": "VirtualBox",
    "xen": "Xen",
    "amazon": "Amazon EC2",
    "google": "Google Compute Engine",
    "parallels": "Parallels",
    "bochs": "KVM/QEMU",
    "wsl": "WSL (Hyper-V)",
}
_GPU_HEADER = re.compile(r"^GPU\s+([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d)\s*$")
_KV = re.compile(r"^\s*([^:]+?)\s*:\s*(.*?)\s*$")


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the hypervisor and the guest's display adapters, or say there is none."""
    live = str(ctx.root) == "/"
    dmi = {
        k: (ctx.read_text(f"/sys/class/dmi/id/{k}") or "").strip() or None
        for k in ("sys_vendor", "product_name", "bios_vendor", "board_vendor")
    }
    detect_virt = _detect_virt(ctx) if live else None
    flag = _cpu_flag(ctx)
    hypervisor, evidence = _hypervisor(ctx, dmi, detect_virt, flag)
    adapters = display_adapters(ctx)
    drm = _drm_drivers(ctx)
    vgpu = _vgpu(ctx, live)
    virtual_shown = any(a["kind"] == "virtual" for a in adapters) or bool(VIRTUAL_DRM & set(drm))
    has_vgpu_software = vgpu["gridd_installed"] or vgpu["gridd_conf"]["present"] or vgpu["licenses"]
    if hypervisor is None and not virtual_shown and not has_vgpu_software:
        return [
            absent(
                "platform.vm",
                SOURCE,
                "no hypervisor detected (DMI, CPU flags and display adapters look like bare metal)",
            )
        ]
    data = {
        "hypervisor": hypervisor,
        "hypervisor_evidence": evidence,
        "detect_virt": detect_virt,
        "dmi": dmi,
        "cpu_hypervisor_flag": flag,
        "display_adapters": adapters,
        "drm_drivers": drm,
        "vgpu": vgpu,
    }
    return [collected("platform.vm", SOURCE, data, summary=_summary(data))]


def _detect_virt(ctx: ProbeContext) -> str | None:
    if not ctx.which("systemd-detect-virt"):
        return None
    run = ctx.run(["systemd-detect-virt", "--vm"], 3.0)
    text = run.stdout.strip()
    return text or None


def _cpu_flag(ctx: ProbeContext) -> bool | None:
    text = ctx.read_text("/proc/cpuinfo", max_bytes=65536)
    if text is None:
        return None
    return any(line.startswith("flags") and " hypervisor" in line for line in text.splitlines())


def _hypervisor(
    ctx: ProbeContext, dmi: dict[str, str | None], detect_virt: str | None, flag: bool | None
) -> tuple[str | None, list[str]]:
    if detect_virt and detect_virt != "none":
        return _DETECT_VIRT.get(detect_virt, detect_virt), [
            f"systemd-detect-virt --vm: {detect_virt}"
        ]
    xen = (ctx.read_text("/sys/hypervisor/type") or "").strip()
    if xen:
        return xen.capitalize(), [f"/sys/hypervisor/type: {xen}"]
    joined = " ".join(v for v in dmi.values() if v).lower()
    if "microsoft corporation" in joined and "virtual" in joined:
        return "Microsoft Hyper-V", [f"DMI: {' / '.join(v for v in dmi.values() if v)}"]
    for marker, name in _DMI_NAMES:
        if marker in joined:
            return name, [f"DMI: {' / '.join(v for v in dmi.values() if v)}"]
    if flag:
        return "unknown hypervisor", ["CPU flag 'hypervisor' set"]
    return None, []


def display_adapters(ctx: ProbeContext) -> list[dict[str, Any]]:
    """PCI display-class devices (class 0x03xxxx) with what kind of adapter each is."""
    out = []
    for dev in ctx.glob("/sys/bus/pci/devices/*"):
        klass = (ctx.read_text(f"{dev}/class") or "").strip().lower()
        if not klass.startswith("0x03"):
            continue
        vendor = (ctx.read_text(f"{dev}/vendor") or "").strip().lower()
        device = (ctx.read_text(f"{dev}/device") or "").strip().lower()
        driver = ctx.readlink(f"{dev}/driver")
        if (vendor, device) in VIRTUAL_ADAPTERS:
            kind, name = "virtual", VIRTUAL_ADAPTERS[(vendor, device)]
        elif vendor in BMC_VENDORS:
            kind, name = "bmc", BMC_VENDORS[vendor]
        elif vendor in GPU_VENDORS:
            kind, name = GPU_VENDORS[vendor], None
        elif vendor == "0x15ad":
            kind, name = "virtual", "VMware virtual adapter"
        else:
            kind, name = "other", None
        out.append(
            {
                "slot": dev.rsplit("/", 1)[-1],
                "vendor_id": vendor,
                "device_id": device,
                "kind": kind,
                "name": name,
                "driver": driver.rsplit("/", 1)[-1] if driver else None,
            }
        )
    return out


def _drm_drivers(ctx: ProbeContext) -> list[str]:
    names = []
    for card in ctx.glob("/sys/class/drm/card[0-9]*"):
        if "-" in card.rsplit("/", 1)[-1]:
            continue  # connectors such as card0-HDMI-A-1
        target = ctx.readlink(f"{card}/device/driver")
        if target:
            name = target.rsplit("/", 1)[-1]
            if name not in names:
                names.append(name)
    return names


def parse_gridd_conf(text: str | None) -> dict[str, Any]:
    """FeatureType and whether a ServerAddress is set, from /etc/nvidia/gridd.conf."""
    if text is None:
        return {"present": False, "feature_type": None, "server_address_set": False}
    fields = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        fields[key.strip()] = value.strip()
    feature = fields.get("FeatureType")
    return {
        "present": True,
        "feature_type": int(feature) if feature and feature.isdigit() else feature,
        "server_address_set": bool(fields.get("ServerAddress")),
    }


def parse_license_sections(text: str) -> list[dict[str, Any]]:
    """The vGPU licence of each GPU in `nvidia-smi -q` text ("vGPU Software Licensed Product").

    license_status is printed as "Licensed (Expiry: 2023-1-31 11:32:22 GMT)", "Licensed",
    "Unlicensed (Restricted)" (throttled), "Unlicensed (Unrestricted)" (grace period) or "Unlicensed".
    """
    out: list[dict[str, Any]] = []
    gpu: str | None = None
    mode: str | None = None
    in_license = False
    in_virt = False
    for raw in text.splitlines():
        header = _GPU_HEADER.match(raw.strip())
        if header:
            gpu, mode, in_license, in_virt = header.group(1), None, False, False
            continue
        stripped = raw.strip()
        if stripped == "vGPU Software Licensed Product":
            in_license, in_virt = True, False
            out.append(
                {
                    "gpu": gpu,
                    "product_name": None,
                    "license_status": None,
                    "licensed": None,
                    "restricted": None,
                    "expiry": None,
                    "virtualization_mode": mode,
                }
            )
            continue
        if stripped == "GPU Virtualization Mode":
            in_virt, in_license = True, False
            continue
        match = _KV.match(raw)
        if not match:
            continue
        key, value = match.group(1), match.group(2)
        if in_virt and key == "Virtualization Mode":
            mode = value
            for entry in out:
                if entry["gpu"] == gpu:
                    entry["virtualization_mode"] = mode
            continue
        if in_license and out:
            if key == "Product Name":
                out[-1]["product_name"] = value
            elif key == "License Status":
                out[-1].update(_license_status(value))
                in_license = False
    return out


def _license_status(value: str) -> dict[str, Any]:
    lowered = value.lower()
    expiry = re.search(r"expiry:\s*([^)]+)", value, re.IGNORECASE)
    licensed = lowered.startswith("licensed")
    restricted = None
    if not licensed:
        restricted = (
            True if "(restricted)" in lowered else (False if "unrestricted" in lowered else None)
        )
    return {
        "license_status": value,
        "licensed": licensed if lowered.startswith(("licensed", "unlicensed")) else None,
        "restricted": restricted,
        "expiry": expiry.group(1).strip() if expiry else None,
    }


def _vgpu(ctx: ProbeContext, live: bool) -> dict[str, Any]:
    unit = next(
        (
            p
            for p in (
                "/lib/systemd/system/nvidia-gridd.service",
                "/usr/lib/systemd/system/nvidia-gridd.service",
                "/etc/systemd/system/nvidia-gridd.service",
            )
            if ctx.exists(p)
        ),
        None,
    )
    installed = ctx.exists("/usr/bin/nvidia-gridd") or unit is not None
    conf = parse_gridd_conf(ctx.read_text("/etc/nvidia/gridd.conf", max_bytes=65536))
    tokens = len(ctx.glob("/etc/nvidia/ClientConfigToken/*.tok"))
    out: dict[str, Any] = {
        "gridd_installed": installed,
        "gridd_unit": unit,
        "gridd_active": None,
        "gridd_conf": conf,
        "client_tokens": tokens,
        "licenses": [],
        "smi_error": None,
    }
    if installed and live and ctx.which("systemctl"):
        run = ctx.run(["systemctl", "is-active", "nvidia-gridd"], 3.0)
        out["gridd_active"] = run.stdout.strip() or None
    smi = ctx.which("nvidia-smi")
    if smi and (installed or conf["present"]):
        run = ctx.run([smi, "-q"], SMI_TIMEOUT_S)
        if run.ok:
            out["licenses"] = parse_license_sections(run.stdout)
        else:
            out["smi_error"] = run.describe_failure()
    return out


def _summary(data: dict[str, Any]) -> str:
    parts = [f"VM: {data['hypervisor']}" if data.get("hypervisor") else "VM"]
    adapters = data.get("display_adapters") or []
    if adapters:
        parts.append("display: " + ", ".join(a.get("name") or a["kind"] for a in adapters))
    licenses = (data.get("vgpu") or {}).get("licenses") or []
    if licenses:
        parts.append(
            "vGPU licence: " + ", ".join(str(lic.get("license_status")) for lic in licenses)
        )
    return ", ".join(parts)
