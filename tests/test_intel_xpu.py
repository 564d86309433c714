"""Intel GPUs: the intel_gpu probe on fake sysfs trees and the four Intel checks (failing and passing)."""

from __future__ import annotations

import os

import pytest

from envdoctor.checks import intel_xpu
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.findings import Severity
from envdoctor.model.snapshot import Snapshot, Status, absent, collected
from envdoctor.probes import amd_sysfs, intel_gpu
from envdoctor.probes.context import ProbeContext

ARC = {
    "/sys/bus/pci/devices/0000:03:00.0/vendor": "0x8086\n",
    "/sys/bus/pci/devices/0000:03:00.0/device": "0x56a0\n",
    "/sys/bus/pci/devices/0000:03:00.0/class": "0x030000\n",
    "/sys/bus/pci/devices/0000:00:02.0/vendor": "0x8086\n",
    "/sys/bus/pci/devices/0000:00:02.0/device": "0xa780\n",
    "/sys/bus/pci/devices/0000:00:02.0/class": "0x030000\n",
    "/sys/bus/pci/devices/0000:00:14.0/vendor": "0x8086\n",  # a USB controller: not a GPU
    "/sys/bus/pci/devices/0000:00:14.0/class": "0x0c0330\n",
    "/sys/bus/pci/drivers/i915/bind": "",
    "/sys/bus/pci/drivers/xe/bind": "",
    "/dev/dri/renderD128": "",
    "/dev/dri/renderD129": "",
    "/usr/share/misc/pci.ids": "# pci.ids\n10de  NVIDIA Corporation\n\t56a0  not this one\n8086  Intel Corporation\n"
    "\t56a0  DG2 [Arc A770]\n\t\t1043 1234  some board\n\ta780  Raptor Lake-S GT1 [UHD Graphics 770]\n",
    "/proc/modules": "xe 3145728 2 - Live 0x0\ni915 4194304 1 - Live 0x0\n",
}
LINKS = {
    "/sys/bus/pci/devices/0000:03:00.0/driver": "../../drivers/xe",
    "/sys/bus/pci/devices/0000:00:02.0/driver": "../../drivers/i915",
    "/sys/class/drm/renderD128/device": "../../../bus/pci/devices/0000:00:02.0",
    "/sys/class/drm/renderD129/device": "../../../bus/pci/devices/0000:03:00.0",
}


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def _collect(root, env=None):
    groups = {
        g.name: g
        for g in intel_gpu.collect(
            ProbeContext(root=root, env={"PATH": "/nonexistent", **(env or {})})
        )
    }
    return groups["intel.gpus"], groups["intel.runtime"]


def test_probe_arc_and_igpu(fake_root):
    root = fake_root(
        {
            **ARC,
            "/usr/lib/x86_64-linux-gnu/libze_loader.so.1": "",
            "/usr/lib/x86_64-linux-gnu/libze_intel_gpu.so.1": "",
            "/etc/OpenCL/vendors/intel.icd": "libigdrcl.so\n",
            "/var/lib/dpkg/status": "Package: libze-intel-gpu1\nStatus: install ok installed\nVersion: 24.35.30872.22-1\n",
        },
        LINKS,
    )
    gpus, runtime = _collect(root, {"ONEAPI_DEVICE_SELECTOR": "level_zero:0"})
    assert gpus.status is Status.COLLECTED
    assert [
        (g["pci_bus_id"], g["name"], g["driver"], g["discrete"]) for g in gpus.data["gpus"]
    ] == [
        ("0000:00:02.0", "Raptor Lake-S GT1 [UHD Graphics 770]", "i915", False),
        ("0000:03:00.0", "DG2 [Arc A770]", "xe", True),
    ]
    assert gpus.data["gpus"][1]["render_node"]["path"] == "/dev/dri/renderD129"
    data = runtime.data
    assert data["modules"]["xe"]["loaded"] and data["modules"]["i915"]["loaded"]
    assert data["level_zero"]["gpu_driver"] == ["/usr/lib/x86_64-linux-gnu/libze_intel_gpu.so.1"]
    assert data["packages"] == {"libze-intel-gpu1": "24.35.30872.22-1"}
    assert data["env"] == {"ONEAPI_DEVICE_SELECTOR": "level_zero:0"} and data["oneapi"] is None


def test_probe_oneapi_not_sourced(fake_root):
    root = fake_root(
        {
            "/opt/intel/oneapi/setvars.sh": "",
            "/opt/intel/oneapi/compiler/latest/x": "",
            "/opt/intel/oneapi/mkl/latest/y": "",
        }
    )
    gpus, runtime = _collect(root)
    assert gpus.status is Status.ABSENT and gpus.reason == "no PCI display device of vendor 0x8086"
    oneapi = runtime.data["oneapi"]
    assert oneapi == {
        "root": "/opt/intel/oneapi",
        "exists": True,
        "setvars": "/opt/intel/oneapi/setvars.sh",
        "components": ["compiler", "mkl"],
        "sourced": False,
    }
    _, sourced = _collect(root, {"SETVARS_COMPLETED": "1"})
    assert sourced.data["oneapi"]["sourced"] is True


def test_probe_nothing_intel(fake_root):
    gpus, runtime = _collect(fake_root({"/proc/modules": "amdgpu 1 0 - Live 0x0\n"}))
    assert gpus.status is Status.ABSENT and runtime.status is Status.ABSENT


def test_probe_render_node_access(fake_root, monkeypatch):
    root = fake_root(ARC, LINKS)
    for node in ("dev/dri/renderD128", "dev/dri/renderD129"):
        (root / node).chmod(0o660)
    gid = os.stat(root / "dev/dri/renderD129").st_gid
    monkeypatch.setattr(amd_sysfs, "process_uid", lambda: 1000)
    monkeypatch.setattr(amd_sysfs, "process_gids", lambda: [gid + 1])
    gpus, _ = _collect(root)
    assert [g["render_node"]["accessible"] for g in gpus.data["gpus"]] == [False, False]
    monkeypatch.setattr(amd_sysfs, "process_gids", lambda: [gid])
    gpus, _ = _collect(root)
    assert [g["render_node"]["accessible"] for g in gpus.data["gpus"]] == [True, True]


# -- checks ------------------------------------------------------------------------------------
def snap(**groups) -> Snapshot:
    out = Snapshot()
    for key, data in groups.items():
        name = key.replace("__", ".")
        out.add(absent(name, "test", "not here") if data is None else collected(name, "test", data))
    return out


XPU_TORCH = {"version": "2.7.1+xpu", "variant": "xpu", "backend": "xpu"}
ARC_GPU = {
    "gpus": [
        {
            "index": 0,
            "name": "DG2 [Arc A770]",
            "pci_bus_id": "0000:03:00.0",
            "driver": "xe",
            "render_node": {
                "path": "/dev/dri/renderD129",
                "mode": "0660",
                "group": "render",
                "gid": 992,
                "accessible": True,
            },
        }
    ]
}
RUNTIME_OK = {
    "level_zero": {
        "loader": ["/usr/lib/x86_64-linux-gnu/libze_loader.so.1"],
        "gpu_driver": ["/usr/lib/x86_64-linux-gnu/libze_intel_gpu.so.1"],
    }
}


def test_xpu_without_runtime(ms):
    s = snap(
        python__torch=XPU_TORCH,
        intel__gpus=ARC_GPU,
        intel__runtime={"level_zero": {"loader": [], "gpu_driver": []}},
        os={"distro_id": "ubuntu", "distro_version": "24.04"},
    )
    [finding] = intel_xpu.xpu_without_runtime.run(s, ms)
    assert finding.severity is Severity.ERROR
    assert finding.fixes[0].commands == (
        "sudo apt update",
        "sudo apt install libze1 libze-intel-gpu1 intel-opencl-icd",
    )
    debian = snap(
        python__torch=XPU_TORCH,
        intel__gpus=ARC_GPU,
        intel__runtime=None,
        os={"distro_id": "debian", "distro_version": "12"},
    )
    [finding] = intel_xpu.xpu_without_runtime.run(debian, ms)
    assert finding.fixes[0].commands == (
        "sudo apt update",
        "sudo apt install libze1 intel-opencl-icd",
    )
    assert finding.fixes[0].url == "https://github.com/intel/compute-runtime/releases"


def test_xpu_without_an_intel_gpu(ms):
    s = snap(
        python__torch=XPU_TORCH,
        intel__gpus=None,
        intel__runtime=None,
        python={"executable": "python3"},
    )
    [finding] = intel_xpu.xpu_without_runtime.run(s, ms)
    assert finding.severity is Severity.WARNING and "no Intel GPU" in finding.title


def test_xpu_runtime_passes(ms):
    assert (
        intel_xpu.xpu_without_runtime.run(
            snap(python__torch=XPU_TORCH, intel__gpus=ARC_GPU, intel__runtime=RUNTIME_OK), ms
        )
        == []
    )
    # a pasted collect_env says nothing about the runtime: no claim
    assert intel_xpu.xpu_without_runtime.run(snap(python__torch=XPU_TORCH), ms) == []
    cuda = {"version": "2.7.1+cu126", "variant": "cu126", "backend": "cuda"}
    assert (
        intel_xpu.xpu_without_runtime.run(snap(python__torch=cuda, intel__runtime=None), ms) == []
    )


def test_render_node_permission(ms):
    blocked = {
        "gpus": [
            dict(
                ARC_GPU["gpus"][0],
                render_node=dict(ARC_GPU["gpus"][0]["render_node"], accessible=False),
            )
        ]
    }
    [finding] = intel_xpu.render_node_permission.run(snap(intel__gpus=blocked), ms)
    assert finding.title == "This user cannot open /dev/dri/renderD129 (group render, mode 0660)"
    assert finding.fixes[0].commands == (
        "sudo usermod -a -G render $LOGNAME",
        "newgrp render",
        "id",
    )
    assert intel_xpu.render_node_permission.run(snap(intel__gpus=ARC_GPU), ms) == []


def test_ipex_torch_mismatch(ms):
    s = snap(
        python__packages={
            "packages": {"torch": "2.7.0", "intel_extension_for_pytorch": "2.6.10+xpu"}
        },
        python__torch={"version": "2.7.0+xpu"},
        python={"executable": "/opt/venv/bin/python", "environment": "venv"},
    )
    [finding] = intel_xpu.ipex_torch_mismatch.run(s, ms)
    assert (
        finding.title
        == "intel-extension-for-pytorch 2.6.10+xpu needs torch 2.6.*, but torch 2.7.0+xpu is installed"
    )
    assert finding.fixes[0].commands == (
        "/opt/venv/bin/python -m pip install 'intel-extension-for-pytorch==2.7.*' "
        "--extra-index-url https://pytorch-extension.intel.com/release-whl/stable/xpu/us/",
    )
    assert (
        finding.fixes[1]
        .commands[0]
        .startswith("/opt/venv/bin/python -m pip install 'torch==2.6.*'")
    )


def test_ipex_torch_pair_passes(ms):
    s = snap(
        python__packages={
            "packages": {"torch": "2.3.1", "intel-extension-for-pytorch": "2.3.110+xpu"}
        }
    )
    assert intel_xpu.ipex_torch_mismatch.run(s, ms) == []
    assert (
        intel_xpu.ipex_torch_mismatch.run(
            snap(python__packages={"packages": {"torch": "2.3.1"}}), ms
        )
        == []
    )


def test_oneapi_not_sourced(ms):
    runtime = {
        "oneapi": {
            "root": "/opt/intel/oneapi",
            "exists": True,
            "setvars": "/opt/intel/oneapi/setvars.sh",
            "sourced": False,
        }
    }
    packages = {
        "packages": {"intel-extension-for-pytorch": "2.1.20+xpu", "torch": "2.1.0.post0+cxx11.abi"}
    }
    [finding] = intel_xpu.oneapi_not_sourced.run(
        snap(intel__runtime=runtime, python__packages=packages), ms
    )
    assert finding.fixes[0].commands[0] == "source /opt/intel/oneapi/setvars.sh"
    sourced = {"oneapi": dict(runtime["oneapi"], sourced=True)}
    assert (
        intel_xpu.oneapi_not_sourced.run(
            snap(intel__runtime=sourced, python__packages=packages), ms
        )
        == []
    )
    cpu_ipex = {"packages": {"intel-extension-for-pytorch": "2.3.0", "torch": "2.3.0"}}
    assert (
        intel_xpu.oneapi_not_sourced.run(
            snap(intel__runtime=runtime, python__packages=cpu_ipex), ms
        )
        == []
    )
