"""The NVIDIA kernel module's own files: /proc/driver/nvidia and /sys/module/nvidia.

Not a probe of its own: `envdoctor.probes.nvidia_gpu` calls `read`. Gives the loaded module's
version and kind (open / proprietary) and, per GPU, what `/proc/driver/nvidia/gpus/*/information`
says (model, UUID, bus location, minor number, whether the GPU is excluded).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from envdoctor.ingest import proc_nvidia_version
from envdoctor.model import nvidia_records as rec
from envdoctor.probes.context import ProbeContext

VERSION_FILE = "/proc/driver/nvidia/version"
SYS_MODULE_VERSION = "/sys/module/nvidia/version"
GPUS_DIR = "/proc/driver/nvidia/gpus"
SMALL_READ = 65536  # procfs refuses some multi-megabyte read buffers


@dataclass
class ProcfsResult:
    """What the module's files say; empty fields when the module is not loaded."""

    version: dict[str, Any] | None = None  # proc_nvidia_version.parse() of the version file
    sys_module_version: str | None = None
    gpus: list[dict[str, Any]] = field(default_factory=list)
    raw: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # files there but unreadable, with the reason

    @property
    def module_loaded(self) -> bool:
        """True when the files show a loaded nvidia module."""
        return self.version is not None or self.sys_module_version is not None


def read(ctx: ProbeContext) -> ProcfsResult:
    """Read the module's version files and per-GPU information files."""
    result = ProcfsResult()

    def text_of(path: str) -> str | None:
        read = ctx.read(path, SMALL_READ)
        if read.error and ctx.exists(path):
            result.errors.append(read.error)
        return read.text

    text = text_of(VERSION_FILE)
    if text:
        result.raw[VERSION_FILE] = text[:2000]
        result.version = proc_nvidia_version.parse(text)
    module = (text_of(SYS_MODULE_VERSION) or "").strip()
    result.sys_module_version = module or None
    for index, folder in enumerate(ctx.glob(f"{GPUS_DIR}/*")):
        info = text_of(f"{folder}/information")
        if info:
            result.gpus.append(gpu_from_information(info, index, folder.rsplit("/", 1)[-1]))
    return result


def parse_information(text: str) -> dict[str, str]:
    """ "Model: \\t NVIDIA A100" lines as {"Model": "NVIDIA A100", ...}."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    return fields


def gpu_from_information(text: str, index: int, folder: str) -> dict[str, Any]:
    """A GPU record from one `information` file (only the facts it holds)."""
    fields = parse_information(text)
    gpu = rec.new_gpu(index)
    gpu["name"] = rec.clean(fields.get("Model"))
    gpu["uuid"] = rec.clean(fields.get("GPU UUID"))
    gpu["pci_bus_id"] = rec.bus_id(fields.get("Bus Location") or folder)
    minor = fields.get("Device Minor")
    gpu["minor_number"] = int(minor) if minor and minor.isdigit() else None
    gpu["excluded"] = rec.yes_no(fields.get("GPU Excluded"))
    gpu["vbios"] = rec.clean(fields.get("Video BIOS"))
    return gpu
