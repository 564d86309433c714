"""The NVIDIA probes on fake sysfs/procfs trees (kernel layouts) and fake nvidia-smi / dmesg tools."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from envdoctor.diagnosis.enrich import nvidia_compute_capability
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Status
from envdoctor.probes import nvidia_events, nvidia_gpu, nvidia_kernel, nvidia_pci
from envdoctor.probes.context import ProbeContext

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "nvidia"
SYSTEM_PATH = (
    os.pathsep + "/usr/bin" + os.pathsep + "/bin"
)  # for sh, cat and sleep inside the fake tools
GPU = "/sys/bus/pci/devices/0000:01:00.0"
AER_COR = "RxErr 3\nBadTLP 0\nBadDLLP 1\nRollover 0\nTimeout 0\nNonFatalErr 0\nCorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR 4\n"
AER_FATAL = (
    "Undefined 0\nDLP 0\nSDES 0\nTLP 0\nFCP 0\nCmpltTO 0\nCmpltAbrt 0\nUnxCmplt 0\nRxOF 0\nMalfTLP 0\n"
    "ECRC 0\nUnsupReq 0\nACSViol 0\nUncorrIntErr 0\nBlockedTLP 0\nAtomicOpBlocked 0\nTLPBlockedErr 0\n"
    "PoisonTLPBlocked 0\nTOTAL_ERR_FATAL 0\n"
)
AER_NONFATAL = AER_FATAL.replace("TOTAL_ERR_FATAL 0", "TOTAL_ERR_NONFATAL 2")


def _pci_tree(fake_root, driver: str | None = "nvidia"):
    files = {
        f"{GPU}/vendor": "0x10de\n",
        f"{GPU}/device": "0x2684\n",
        f"{GPU}/class": "0x030000\n",
        f"{GPU}/subsystem_vendor": "0x1043\n",
        f"{GPU}/subsystem_device": "0x889d\n",
        f"{GPU}/current_link_speed": "2.5 GT/s PCIe\n",
        f"{GPU}/max_link_speed": "16.0 GT/s PCIe\n",
        f"{GPU}/current_link_width": "16\n",
        f"{GPU}/max_link_width": "16\n",
        f"{GPU}/numa_node": "-1\n",
        f"{GPU}/aer_dev_correctable": AER_COR,
        f"{GPU}/aer_dev_fatal": AER_FATAL,
        f"{GPU}/aer_dev_nonfatal": AER_NONFATAL,
        "/sys/bus/pci/devices/0000:01:00.1/vendor": "0x10de\n",
        "/sys/bus/pci/devices/0000:01:00.1/device": "0x22ba\n",
        "/sys/bus/pci/devices/0000:01:00.1/class": "0x040300\n",
        "/sys/bus/pci/devices/0000:05:00.0/vendor": "0x10de\n",
        "/sys/bus/pci/devices/0000:05:00.0/device": "0x22a3\n",
        "/sys/bus/pci/devices/0000:05:00.0/class": "0x068000\n",
        "/sys/bus/pci/devices/0000:00:02.0/vendor": "0x8086\n",
        "/sys/bus/pci/devices/0000:00:02.0/class": "0x030000\n",
    }
    links = {f"{GPU}/driver": f"../../../bus/pci/drivers/{driver}"} if driver else {}
    links["/sys/bus/pci/devices/0000:01:00.1/driver"] = "../../../bus/pci/drivers/snd_hda_intel"
    return fake_root(files, links)


def test_pci_devices_links_and_aer(fake_root):
    ctx = ProbeContext(root=_pci_tree(fake_root))
    group = nvidia_pci.collect(ctx)[0]
    assert group.collected and group.source == "sysfs"
    data = group.data
    assert (data["gpu_count"], data["nvswitch_count"], data["pci_device_count"]) == (1, 1, 4)
    gpu = next(d for d in data["devices"] if d["is_gpu"])
    assert (gpu["address"], gpu["device_id"], gpu["class"], gpu["driver"]) == (
        "0000:01:00.0",
        "0x2684",
        "0x030000",
        "nvidia",
    )
    assert gpu["link"] == {
        "speed_current_gts": 2.5,
        "gen_current": 1,
        "width_current": 16,
        "speed_max_gts": 16.0,
        "gen_max": 4,
        "width_max": 16,
    }
    assert gpu["aer"] == {"correctable": 4, "nonfatal": 2, "fatal": 0}
    assert gpu["numa_node"] is None
    audio = next(d for d in data["devices"] if d["address"] == "0000:01:00.1")
    assert not audio["is_gpu"] and audio["driver"] == "snd_hda_intel"
    assert group.summary == "0000:01:00.0 0x2684 driver=nvidia; 1 NVSwitch"


def test_pci_gpu_without_driver(fake_root):
    group = nvidia_pci.collect(ProbeContext(root=_pci_tree(fake_root, driver=None)))[0]
    assert next(d for d in group.data["devices"] if d["is_gpu"])["driver"] is None


def test_pci_no_bus(fake_root):
    empty = fake_root({"/etc/os-release": "ID=debian\n"})
    group = nvidia_pci.collect(ProbeContext(root=empty))[0]
    assert group.status is Status.ABSENT and "/sys/bus/pci/devices is missing" in group.reason


def _kernel_tree(
    fake_root, *, module_built: bool = True, secure_boot: bytes = b"\x06\x00\x00\x00\x01"
):
    kernel = "6.8.0-45-generic"
    files: dict[str, str | bytes] = {
        "/proc/sys/kernel/osrelease": kernel + "\n",
        "/proc/cmdline": "BOOT_IMAGE=/vmlinuz-6.8.0-45-generic root=UUID=1 ro quiet splash\n",
        "/proc/modules": (
            "nvidia_uvm 1597440 0 - Live 0x0000000000000000 (POE)\n"
            "nvidia_drm 90112 4 - Live 0x0000000000000000 (POE)\n"
            "nvidia_modeset 1343488 6 nvidia_drm, Live 0x0000000000000000 (POE)\n"
            "nvidia 56836096 12 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n"
            "snd_hda_intel 61440 3 - Live 0x0000000000000000\n"
        ),
        "/sys/module/nvidia/version": "550.54.14\n",
        "/sys/module/nvidia/initstate": "live\n",
        "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e0a38e8ed4c7": secure_boot,
        "/sys/module/module/parameters/sig_enforce": "N\n",
        "/sys/kernel/security/lockdown": "[none] integrity confidentiality\n",
        "/var/lib/dkms/nvidia/550.54.14/6.5.0-18-generic/x86_64/module/nvidia.ko": "",
        "/etc/modprobe.d/nvidia-graphics-drivers-kms.conf": "options nvidia-drm modeset=1\n",
        "/etc/modprobe.d/blacklist-framebuffer.conf": "blacklist nouveau\n",
        "/etc/group": "root:x:0:\nvideo:x:44:alice\nrender:x:109:\n",
        "/dev/nvidiactl": "",
        "/dev/nvidia0": "",
        "/dev/nvidia-uvm": "",
        "/dev/nvidia-caps/nvidia-cap1": "",
        "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.14": "",
        "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14": "",
        "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so": "",
    }
    if module_built:
        files[f"/lib/modules/{kernel}/updates/dkms/nvidia.ko.zst"] = ""
    else:
        files[f"/lib/modules/{kernel}/kernel/drivers/gpu/drm/drm.ko.zst"] = ""
        files["/lib/modules/6.5.0-18-generic/updates/dkms/nvidia.ko"] = ""
    root = fake_root(
        files,
        {
            "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1": "libnvidia-ml.so.550.54.14",
            "/usr/lib/x86_64-linux-gnu/libcuda.so.1": "libcuda.so.550.54.14",
        },
    )
    os.chmod(root / "dev/nvidia0", 0o660)
    os.chmod(root / "dev/nvidiactl", 0o666)
    return root


def test_kernel_modules_dkms_secure_boot_nodes_libraries(fake_root):
    group = nvidia_kernel.collect(ProbeContext(root=_kernel_tree(fake_root)))[0]
    data = group.data
    assert data["kernel"] == "6.8.0-45-generic" and data["modules_readable"]
    assert data["modules"]["nvidia"] == {
        "loaded": True,
        "refcount": 12,
        "used_by": ["nvidia_uvm", "nvidia_modeset"],
        "version": "550.54.14",
    }
    assert data["modules"]["nvidia_uvm"]["loaded"] and data["modules"]["nouveau"]["loaded"] is False
    assert data["module_for_kernel"]["present"] is True
    assert data["module_for_kernel"]["files"] == [
        "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko.zst"
    ]
    assert data["dkms"] == [
        {"module": "nvidia", "version": "550.54.14", "kernel": "6.5.0-18-generic", "arch": "x86_64"}
    ]
    assert data["kernels_with_module"] == ["6.8.0-45-generic"]
    assert data["nouveau_blacklisted"] is True
    assert data["secure_boot"] == {"enabled": True, "efi": True, "source": "efivars"}
    assert data["sig_enforce"] is False and data["lockdown"] == "none"
    nodes = {d["path"]: d for d in data["devices"]}
    assert set(nodes) == {
        "/dev/nvidiactl",
        "/dev/nvidia0",
        "/dev/nvidia-uvm",
        "/dev/nvidia-caps/nvidia-cap1",
    }
    assert nodes["/dev/nvidia0"]["mode"] == "0660" and nodes["/dev/nvidiactl"]["mode"] == "0666"
    libraries = data["libraries"]
    assert [(lib["path"], lib["version"]) for lib in libraries["libnvidia-ml"]] == [
        ("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "550.54.14")
    ]
    assert [lib["version"] for lib in libraries["libcuda"]] == [
        "550.54.14"
    ]  # the toolkit stub is left out
    assert data["fabric_manager"] == {
        "nvswitch_devices": 0,
        "service": None,
        "process_running": None,
    }


def test_kernel_module_missing_for_running_kernel(fake_root):
    data = nvidia_kernel.collect(ProbeContext(root=_kernel_tree(fake_root, module_built=False)))[
        0
    ].data
    assert data["module_for_kernel"]["present"] is False
    assert data["kernels_with_module"] == ["6.5.0-18-generic"]


def test_secure_boot_off_and_permission_rule(fake_root):
    data = nvidia_kernel.collect(
        ProbeContext(root=_kernel_tree(fake_root, secure_boot=b"\x06\x00\x00\x00\x00"))
    )[0].data
    assert data["secure_boot"]["enabled"] is False
    may_open = nvidia_kernel.may_open
    assert may_open(0o660, 0, 44, 1000, {1000, 44}) is True
    assert may_open(0o660, 0, 44, 1000, {1000}) is False
    assert may_open(0o666, 0, 0, 1000, {1000}) is True
    assert may_open(0o600, 0, 0, 0, {0}) is True


def test_procfs_information_file_real_capture(fake_root, fake_tools):
    info = (
        FIXTURES / "unidentified-proc-driver-nvidia-gpus-information-h100-gsp-535.129.03.txt"
    ).read_text()
    root = fake_root(
        {
            "/proc/version": "Linux version 5.15.0-91-generic\n",
            "/proc/driver/nvidia/version": "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023\n",
            "/proc/driver/nvidia/gpus/0000:62:00.0/information": info,
        }
    )
    ctx = ProbeContext(root=root, env={"PATH": fake_tools({})})
    driver, gpus = nvidia_gpu.gather(ctx, use_nvml=False)
    assert driver.collected and driver.source == "procfs"
    assert (driver.data["driver_version"], driver.data["kernel_module"]) == (
        "535.129.03",
        "proprietary",
    )
    gpu = gpus.data["gpus"][0]
    assert (gpu["name"], gpu["uuid"], gpu["pci_bus_id"], gpu["minor_number"], gpu["excluded"]) == (
        "NVIDIA H100 80GB HBM3",
        "GPU-9221d5d1-b60b-a624-bf14-0a1819cfda3b",
        "0000:62:00.0",
        5,
        False,
    )
    assert gpu["compute_capability"] is None  # procfs does not say; the GPU table does:
    nvidia_compute_capability(gpus.data["gpus"], load_bundled())
    assert gpu["compute_capability"] == "9.0" and gpu["compute_capability_source"] == "matrix"


def _smi_ctx(fake_root, fake_tools, script: str):
    root = fake_root({"/proc/version": "Linux version 6.1.0-18-amd64\n"})
    return ProbeContext(root=root, env={"PATH": fake_tools({"nvidia-smi": script}) + SYSTEM_PATH})


def test_nvidia_smi_xml_fallback(real_captures, fake_root, fake_tools):
    capture = real_captures / "nvidia-smi-q-x" / "telegraf-a10g-driver-515.105.01.xml"
    ctx = _smi_ctx(
        fake_root, fake_tools, f'#!/bin/sh\n[ "$1 $2" = "-q -x" ] || exit 2\ncat \'{capture}\'\n'
    )
    driver, gpus = nvidia_gpu.gather(ctx, use_nvml=False)
    assert driver.collected and driver.source == "nvidia-smi"
    assert (driver.data["driver_version"], driver.data["cuda_driver_max"]) == ("515.105.01", "11.7")
    assert driver.data["nvml_error"] is None
    gpu = gpus.data["gpus"][0]
    # the nvidia_gpus row for the A10G is marked unverified: a hint, never a fact
    assert (gpu["name"], gpu["compute_capability"]) == ("NVIDIA A10G", None)
    assert "nvidia-smi -q -x" in driver.raw


def test_nvidia_smi_error_message(real_captures, fake_root, fake_tools):
    capture = (
        real_captures
        / "nvidia-smi-text"
        / "error-couldnt-communicate-wsl1-microsoft-WSL-issue-3847.txt"
    )
    ctx = _smi_ctx(fake_root, fake_tools, f"#!/bin/sh\ncat '{capture}'\nexit 9\n")
    driver, gpus = nvidia_gpu.gather(ctx, use_nvml=False)
    assert driver.collected and driver.data["driver_loaded"] is False
    assert driver.data["smi_error"] == "couldn't communicate with the NVIDIA driver"
    assert gpus.status is Status.ABSENT


def test_hung_nvidia_smi_is_cut_off(fake_root, fake_tools):
    ctx = _smi_ctx(fake_root, fake_tools, "#!/bin/sh\nsleep 60\n")
    start = time.monotonic()
    driver, gpus = nvidia_gpu.gather(ctx, use_nvml=False, smi_timeout_s=1)
    assert time.monotonic() - start < 5
    assert driver.status is Status.FAILED and gpus.status is Status.FAILED
    assert driver.reason == "nvidia-smi timed out after 1 s; the driver may be hung"


def test_no_driver_at_all(fake_root, fake_tools):
    ctx = ProbeContext(
        root=fake_root({"/proc/version": "Linux version 6.1.0\n"}), env={"PATH": fake_tools({})}
    )
    driver, gpus = nvidia_gpu.gather(ctx, use_nvml=False)
    assert driver.status is Status.ABSENT and gpus.status is Status.ABSENT
    assert driver.reason.startswith("no NVIDIA driver: ")
    assert "nvidia-smi not found" in driver.reason and "no /proc/driver/nvidia" in driver.reason


def test_events_from_dmesg_and_unreadable_log(real_captures, fake_tools):
    capture = (
        real_captures
        / "misc"
        / "dmesg-nvrm-fallen-off-bus-no-xid-open-kernel-module-570.158.01-NVSentinel-issue-155.txt"
    )
    ctx = ProbeContext(
        root="/", env={"PATH": fake_tools({"dmesg": f"#!/bin/sh\ncat '{capture}'\n"}) + SYSTEM_PATH}
    )
    group = nvidia_events.collect(ctx)[0]
    assert group.collected and group.source == "dmesg"
    assert [m["kind"] for m in group.data["messages"]] == ["fallen-off-bus", "probe-failed"]
    denied = (
        "#!/bin/sh\necho 'dmesg: read kernel buffer failed: Operation not permitted' >&2\nexit 1\n"
    )
    ctx = ProbeContext(
        root="/",
        env={
            "PATH": fake_tools({"dmesg": denied, "journalctl": "#!/bin/sh\nexit 1\n"}) + SYSTEM_PATH
        },
    )
    group = nvidia_events.collect(ctx)[0]
    assert group.status is Status.FAILED
    assert "dmesg: read kernel buffer failed: Operation not permitted" in group.reason


def test_check_finishes_quickly_with_a_hung_nvidia_smi(fake_tools):
    """The whole `envdoctor check` stays fast: nvidia-smi is cut off at its timeout and reported."""
    bindir = fake_tools({"nvidia-smi": "#!/bin/sh\nsleep 60\n"})
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "envdoctor", "check", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    elapsed = time.monotonic() - start
    assert run.returncode in (0, 1), run.stderr
    groups = json.loads(run.stdout)["snapshot"]["groups"]
    driver = groups["nvidia.driver"]
    if driver["source"] == "nvml":
        pytest.skip("NVML answers on this machine, so nvidia-smi is never run")
    assert elapsed < 20
    assert "nvidia-smi timed out after 5 s" in (
        driver.get("reason") or driver["data"].get("smi_error") or ""
    )
