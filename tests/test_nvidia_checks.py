"""Every NVIDIA check with a failing and a passing snapshot (real captures where one exists)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from envdoctor.checks import load_checks
from envdoctor.diagnosis.engine import run_checks
from envdoctor.ingest import kernel_log, nvidia_smi_text, nvidia_smi_xml, proc_nvidia_version
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.findings import Severity
from envdoctor.model.snapshot import Confidence, Snapshot, absent, collected, failed

MODULES = (
    "nvidia_presence",
    "nvidia_driver_load",
    "nvidia_devices",
    "nvidia_health",
    "nvidia_xid",
    "nvidia_pcie",
    "nvidia_fabric",
)
MS = load_bundled()
CHECKS = load_checks(MODULES)
TESTS = Path(__file__).resolve().parent
UBUNTU = {
    "system": "Linux",
    "distro_id": "ubuntu",
    "distro_version": "24.04",
    "distro_like": ["debian"],
    "kernel": "6.8.0-45-generic",
    "arch": "x86_64",
}
DEBIAN = {
    "system": "Linux",
    "distro_id": "debian",
    "distro_version": "12",
    "distro_like": [],
    "kernel": "6.1.0-18-amd64",
    "arch": "x86_64",
}


def snapshot(*groups):
    snap = Snapshot()
    snap.extend(groups)
    return snap


def run(snap):
    return run_checks(snap, MS, CHECKS).findings


def by_id(snap, finding_id):
    return [f for f in run(snap) if f.id == finding_id]


def assert_passes(snap, finding_id):
    """The check that emits `finding_id` ran on `snap` and found nothing: it is in
    `outcome.passed`, so a check skipped for missing facts cannot satisfy this."""
    [chk] = [c for c in CHECKS if finding_id in c.ids]
    outcome = run_checks(snap, MS, CHECKS)
    skipped = {s.id: s.reason for s in outcome.skipped}
    assert chk.id in outcome.passed, skipped.get(chk.id) or [
        f.id for f in outcome.findings if f.id in chk.ids
    ]


def os_group(facts=UBUNTU):
    return collected("os", "probe:os_info", dict(facts))


def pci(devices, total=12):
    return collected(
        "nvidia.pci",
        "sysfs",
        {
            "devices": devices,
            "gpu_count": sum(d["is_gpu"] for d in devices),
            "nvswitch_count": 0,
            "pci_device_count": total,
        },
    )


def gpu_device(driver=None, aer=None):
    return {
        "address": "0000:01:00.0",
        "device_id": "0x2684",
        "class": "0x030000",
        "is_gpu": True,
        "is_nvswitch": False,
        "driver": driver,
        "link": {},
        "aer": aer,
    }


def kernel(**overrides):
    data = {
        "kernel": "6.8.0-45-generic",
        "modules_readable": True,
        "modules": {
            name: {"loaded": False}
            for name in (
                "nvidia",
                "nvidia_uvm",
                "nvidia_drm",
                "nvidia_modeset",
                "nvidia_peermem",
                "nouveau",
            )
        },
        "module_for_kernel": {"present": None, "files": [], "modinfo": None},
        "dkms": [],
        "kernels_with_module": [],
        "nouveau_blacklisted": False,
        "secure_boot": {"enabled": False, "efi": True, "source": "efivars"},
        "devices": [],
        "user": {"uid": 1000, "gids": [1000]},
        "libraries": {"libnvidia-ml": [], "libcuda": []},
        "nvidia_modprobe": {"path": "/usr/bin/nvidia-modprobe", "setuid": True},
        "fabric_manager": {"nvswitch_devices": 0, "service": None, "process_running": None},
    }
    loaded = overrides.pop("loaded", ())
    data.update(overrides)
    for name in loaded:
        data["modules"][name] = {"loaded": True}
    return collected("nvidia.kernel", "procfs", data)


NO_DRIVER = "no NVIDIA driver: NVML: NVML Shared Library Not Found, nvidia-smi not found, no /proc/driver/nvidia"


def no_driver():
    return [
        absent("nvidia.driver", "nvml", NO_DRIVER),
        absent("nvidia.gpus", "nvml", "no GPU facts without a driver"),
    ]


def working_driver(gpus=None, **extra):
    data = {
        "driver_version": "550.54.14",
        "cuda_driver_max": "12.4",
        "module_version": "550.54.14",
        "library_version": "550.54.14",
        "kernel_module": "open",
        "driver_loaded": True,
        "gpu_count": 1,
        "platform": "linux",
        "nvml_error": None,
    }
    data.update(extra)
    groups = [collected("nvidia.driver", "nvml", data)]
    if gpus is not None:
        groups.append(
            collected("nvidia.gpus", "nvml", {"gpus": gpus, "env": {"CUDA_VISIBLE_DEVICES": None}})
        )
    return groups


def xml_gpus(real_captures, name):
    return nvidia_smi_xml.parse((real_captures / "nvidia-smi-q-x" / name).read_text())[1]


def events_from(real_captures, name):
    return collected(
        "nvidia.events", "dmesg", kernel_log.parse((real_captures / "misc" / name).read_text())
    )


# -- presence ---------------------------------------------------------------------------------


def test_no_gpu_on_this_kind_of_machine():
    toolkit = collected(
        "cuda.toolkits",
        "probe",
        {"toolkits": [{"version": "13.0.88", "real_path": "/usr/local/cuda-13.0"}]},
    )
    snap = snapshot(
        os_group(DEBIAN),
        pci([], total=6),
        kernel(),
        *no_driver(),
        toolkit,
        absent("python.torch", "probe", "torch is not installed"),
    )
    [finding] = by_id(snap, "nvidia.no-gpu")
    assert finding.severity is Severity.INFO
    assert "none of the 6 PCI devices is from NVIDIA" in finding.detail
    assert "CUDA 13.0.88 toolkit at /usr/local/cuda-13.0 can compile CUDA code" in finding.detail
    assert (
        "nothing can run CUDA code here" in finding.detail and "will use the CPU" in finding.detail
    )
    assert "cuda.toolkit-without-driver" in finding.explains
    assert not [f for f in run(snap) if f.severity is not Severity.INFO]


def test_no_gpu_not_said_when_a_gpu_is_on_the_bus():
    assert_passes(
        snapshot(pci([gpu_device("nvidia")]), *working_driver([{"index": 0}])), "nvidia.no-gpu"
    )
    assert_passes(snapshot(pci([gpu_device(None)]), kernel(), *no_driver()), "nvidia.no-gpu")


def test_no_driver_bound_with_nothing_installed():
    snap = snapshot(os_group(DEBIAN), pci([gpu_device(None)]), kernel(), *no_driver())
    [finding] = by_id(snap, "nvidia.no-driver-bound")
    assert finding.severity is Severity.ERROR
    assert "0000:01:00.0 (NVIDIA GeForce RTX 4090, 10de:2684) bound to no driver" in finding.detail
    commands = [c for fix in finding.fixes for c in fix.commands]
    assert (
        "sudo apt-get install -y linux-headers-amd64 nvidia-driver firmware-misc-nonfree"
        in commands
    )
    assert "torch.gpu-test-failed" in finding.explains


def test_no_driver_bound_passes_when_nvidia_owns_the_gpu():
    snap = snapshot(
        pci([gpu_device("nvidia")]),
        kernel(loaded=("nvidia", "nvidia_uvm")),
        *working_driver([{"index": 0}]),
    )
    assert_passes(snap, "nvidia.no-driver-bound")
    assert_passes(
        snapshot(pci([gpu_device("vfio-pci")]), kernel(), *no_driver()), "nvidia.no-driver-bound"
    )


def test_no_driver_bound_from_a_pasted_nvidia_smi_error(real_captures):
    text = (
        real_captures
        / "nvidia-smi-text"
        / "error-couldnt-communicate-wsl1-microsoft-WSL-issue-3847.txt"
    ).read_text()
    snap = snapshot(*nvidia_smi_text.read(text))
    [finding] = by_id(snap, "nvidia.no-driver-bound")
    assert finding.confidence is Confidence.MEDIUM
    wsl = copy.deepcopy(snap)
    wsl.groups["nvidia.driver"].data["platform"] = "wsl"
    assert_passes(wsl, "nvidia.no-driver-bound")


def test_driver_without_gpu():
    assert (
        by_id(snapshot(*working_driver(gpu_count=0)), "nvidia.driver-without-gpu")[0].severity
        is Severity.WARNING
    )
    assert_passes(snapshot(*working_driver([{"index": 0}])), "nvidia.driver-without-gpu")


def test_driver_not_responding():
    hung = failed(
        "nvidia.driver", "nvidia-smi", "nvidia-smi timed out after 5 s; the driver may be hung"
    )
    assert (
        by_id(snapshot(kernel(), hung), "nvidia.driver-not-responding")[0].severity
        is Severity.ERROR
    )
    assert_passes(snapshot(kernel(), *no_driver()), "nvidia.driver-not-responding")


# -- driver loading ---------------------------------------------------------------------------


def test_nouveau_owns_the_gpu_and_explains_the_unbound_gpu():
    snap = snapshot(
        os_group(UBUNTU),
        pci([gpu_device("nouveau")]),
        kernel(loaded=("nouveau",)),
        *no_driver(),
        collected("python.deep", "probe", {}),
    )
    findings = run(snap)
    nouveau = next(f for f in findings if f.id == "nvidia.nouveau-loaded")
    unbound = next(f for f in findings if f.id == "nvidia.no-driver-bound")
    assert unbound.explained_by == "nvidia.nouveau-loaded"
    assert findings.index(nouveau) < findings.index(unbound)
    commands = nouveau.fixes[0].commands
    assert commands[0] == (
        "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | "
        "sudo tee /etc/modprobe.d/blacklist-nouveau.conf"
    )
    assert commands[1:] == ("sudo update-initramfs -u", "sudo reboot")


def test_nouveau_from_a_pasted_boot_log():
    text = (
        (TESTS / "triage_corpus" / "036-fedora-nouveau-bound-blocks-nvidia.txt")
        .read_text()
        .split("#! ---", 1)[1]
    )
    assert by_id(snapshot(*kernel_log.read(text)), "nvidia.nouveau-loaded")


def test_nouveau_not_reported_when_nvidia_is_bound():
    snap = snapshot(
        pci([gpu_device("nvidia")]), kernel(loaded=("nvidia",)), *working_driver([{"index": 0}])
    )
    assert_passes(snap, "nvidia.nouveau-loaded")


def test_module_not_built_for_the_running_kernel():
    state = kernel(
        module_for_kernel={"present": False, "files": [], "modinfo": None},
        dkms=[
            {
                "module": "nvidia",
                "version": "550.54.14",
                "kernel": "6.5.0-18-generic",
                "arch": "x86_64",
            }
        ],
        kernels_with_module=["6.5.0-18-generic"],
        libraries={
            "libnvidia-ml": [
                {"path": "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "version": "550.54.14"}
            ],
            "libcuda": [],
        },
    )
    snap = snapshot(os_group(UBUNTU), pci([gpu_device(None)]), state, *no_driver())
    findings = run(snap)
    [finding] = [f for f in findings if f.id == "nvidia.module-not-built-for-kernel"]
    assert finding.fixes[0].commands == (
        "sudo apt-get update",
        "sudo apt-get install -y linux-headers-6.8.0-45-generic dkms",
        "sudo dkms autoinstall -k 6.8.0-45-generic",
        "sudo modprobe nvidia",
    )
    assert "DKMS built it for 6.5.0-18-generic only" in finding.detail
    assert (
        next(f for f in findings if f.id == "nvidia.no-driver-bound").explained_by
        == "nvidia.module-not-built-for-kernel"
    )


def test_module_built_passes():
    state = kernel(
        module_for_kernel={
            "present": True,
            "files": ["/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko.zst"],
            "modinfo": None,
        },
        loaded=("nvidia",),
    )
    assert_passes(snapshot(state), "nvidia.module-not-built-for-kernel")


def test_secure_boot_blocks_an_unsigned_module():
    state = kernel(
        secure_boot={"enabled": True, "efi": True, "source": "efivars"},
        module_for_kernel={
            "present": True,
            "files": ["/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko.zst"],
            "modinfo": {
                "filename": "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko.zst",
                "version": "550.54.14",
                "license": "Dual MIT/GPL",
            },
        },
    )
    [finding] = by_id(
        snapshot(os_group(UBUNTU), pci([gpu_device(None)]), state, *no_driver()),
        "nvidia.secure-boot-blocks-module",
    )
    assert finding.fixes[0].commands == (
        "sudo update-secureboot-policy --enroll-key",
        "sudo reboot",
    )
    fedora = dict(UBUNTU, distro_id="fedora", distro_version="40", distro_like=[])
    [finding] = by_id(
        snapshot(os_group(fedora), state, *no_driver()), "nvidia.secure-boot-blocks-module"
    )
    assert finding.fixes[0].commands[:2] == (
        "sudo kmodgenca -a",
        "sudo mokutil --import /etc/pki/akmods/certs/public_key.der",
    )


def test_secure_boot_rejection_in_the_kernel_log():
    log = kernel_log.read(
        "[    7.812345] Loading of unsigned module is rejected\n[    7.812399] NVRM: No NVIDIA GPU found.\n"
    )
    assert by_id(snapshot(*log), "nvidia.secure-boot-blocks-module")


def test_secure_boot_off_passes():
    state = kernel(module_for_kernel={"present": True, "files": [], "modinfo": {"filename": "x"}})
    assert_passes(snapshot(state, *no_driver()), "nvidia.secure-boot-blocks-module")


def test_driver_library_mismatch_from_two_real_pastes(real_captures):
    version = (
        real_captures
        / "misc"
        / "proc-driver-nvidia-version-580.173.02-truenas-mismatch-truenas-nvidia-drivers-issue-19.txt"
    ).read_text()
    error = (
        real_captures
        / "nvidia-smi-text"
        / "error-nvml-driver-library-version-mismatch-580-truenas-nvidia-drivers-issue-19.txt"
    ).read_text()
    driver = proc_nvidia_version.read(version)[0]
    for key, value in nvidia_smi_text.parse(error)[0].items():
        if driver.data.get(key) in (None, []):
            driver.data[key] = value
    [finding] = by_id(snapshot(os_group(UBUNTU), driver), "nvidia.driver-library-mismatch")
    assert (
        finding.title
        == "NVIDIA driver/library version mismatch: kernel module 580.173.02, libraries 580.178"
    )
    assert finding.fixes[0].commands == ("sudo reboot",)
    assert "sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia" in finding.fixes[1].commands


def test_driver_library_mismatch_from_the_api_mismatch_line():
    log = kernel_log.read(
        "[ 5.1] NVRM: API mismatch: the client has the version 525.60.11, but\n"
        "        NVRM: this kernel module has the version 520.56.06.  Please\n"
    )
    [finding] = by_id(snapshot(*log), "nvidia.driver-library-mismatch")
    assert "kernel module 520.56.06" in finding.title and "libraries 525.60.11" in finding.title


def test_matching_versions_pass():
    assert_passes(snapshot(*working_driver([{"index": 0}])), "nvidia.driver-library-mismatch")


# -- device nodes and uvm ---------------------------------------------------------------------


def _node(path, accessible=True, group="root", mode="0666"):
    return {
        "path": path,
        "mode": mode,
        "uid": 0,
        "gid": 44 if group == "video" else 0,
        "group": group,
        "accessible": accessible,
    }


def test_device_nodes_missing():
    snap = snapshot(
        kernel(loaded=("nvidia", "nvidia_uvm")),
        *working_driver([{"index": 0}, {"index": 1}], gpu_count=2),
    )
    [finding] = by_id(snap, "nvidia.device-nodes-missing")
    assert (
        finding.title == "NVIDIA device files missing: /dev/nvidiactl, /dev/nvidia0, /dev/nvidia1"
    )
    assert finding.fixes[0].commands == ("sudo nvidia-modprobe -c=0", "sudo nvidia-modprobe -c=1")


def test_device_nodes_present_or_in_a_container():
    nodes = [_node("/dev/nvidiactl"), _node("/dev/nvidia0"), _node("/dev/nvidia-uvm")]
    assert_passes(
        snapshot(
            kernel(loaded=("nvidia", "nvidia_uvm"), devices=nodes), *working_driver([{"index": 0}])
        ),
        "nvidia.device-nodes-missing",
    )
    inside = collected("container.inside", "probe", {"in_container": True})
    assert_passes(
        snapshot(kernel(loaded=("nvidia",)), inside, *working_driver([{"index": 0}])),
        "nvidia.device-nodes-missing",
    )


def test_device_node_permission():
    nodes = [
        _node("/dev/nvidiactl", False, "video", "0660"),
        _node("/dev/nvidia0", False, "video", "0660"),
    ]
    [finding] = by_id(
        snapshot(kernel(loaded=("nvidia",), devices=nodes)), "nvidia.device-node-permission"
    )
    assert finding.fixes[0].commands == ("sudo usermod -aG video $USER",)
    ok = [_node("/dev/nvidiactl"), _node("/dev/nvidia0")]
    assert_passes(snapshot(kernel(loaded=("nvidia",), devices=ok)), "nvidia.device-node-permission")


def test_uvm_not_loaded_without_the_helper():
    state = kernel(loaded=("nvidia",), nvidia_modprobe={"path": None, "setuid": None})
    [finding] = by_id(snapshot(state), "nvidia.uvm-not-loaded")
    assert finding.fixes[0].commands[0] == "sudo modprobe nvidia_uvm"
    assert_passes(
        snapshot(kernel(loaded=("nvidia",))), "nvidia.uvm-not-loaded"
    )  # setuid helper loads it on demand
    assert_passes(
        snapshot(kernel(loaded=("nvidia", "nvidia_uvm"), nvidia_modprobe={"path": None})),
        "nvidia.uvm-not-loaded",
    )


# -- memory health ----------------------------------------------------------------------------


def test_ecc_uncorrected_on_the_k80(real_captures):
    gpus = xml_gpus(real_captures, "openpai-tesla-k80-x4-driver-430.26-cuda-not-found.xml")
    findings = by_id(snapshot(*working_driver(gpus)), "nvidia.ecc-uncorrected")
    assert [f.severity for f in findings] == [
        Severity.WARNING
    ] * 2  # lifetime (aggregate) only: 7 and 4
    assert (
        "7 over the GPU's lifetime" in findings[0].detail
        and "4 over the GPU's lifetime" in findings[1].detail
    )
    hot = copy.deepcopy(gpus[:1])
    hot[0]["ecc"]["volatile_uncorrected"] = 2
    [finding] = by_id(snapshot(*working_driver(hot)), "nvidia.ecc-uncorrected")
    assert (
        finding.severity is Severity.ERROR
        and "sudo nvidia-smi -r -i 0" in finding.fixes[1].commands
    )


def test_ecc_clean_t4(real_captures):
    gpus = xml_gpus(real_captures, "telegraf-tesla-t4-driver-515.105.01.xml")
    assert_passes(snapshot(*working_driver(gpus)), "nvidia.ecc-uncorrected")


def test_row_remap_pending_and_failed(real_captures):
    gpus = xml_gpus(real_captures, "telegraf-a10g-driver-515.105.01.xml")
    assert_passes(snapshot(*working_driver(gpus)), "nvidia.row-remap-pending")
    pending = copy.deepcopy(gpus)
    pending[0]["remapped_rows"]["pending"] = True
    [finding] = by_id(snapshot(*working_driver(pending)), "nvidia.row-remap-pending")
    assert finding.severity is Severity.WARNING
    broken = copy.deepcopy(gpus)
    broken[0]["remapped_rows"]["failure"] = True
    [finding] = by_id(snapshot(*working_driver(broken)), "nvidia.row-remap-failed")
    assert finding.severity is Severity.ERROR and "RMA" in finding.title
    # the same check ran (it found the failure just above) and reports the failure, not a pending
    assert not by_id(snapshot(*working_driver(broken)), "nvidia.row-remap-pending")


def test_retired_pages(real_captures):
    gpus = xml_gpus(real_captures, "openpai-tesla-k80-x4-driver-430.26-cuda-not-found.xml")
    findings = by_id(snapshot(*working_driver(gpus[:1])), "nvidia.retired-pages-high")
    assert [f.severity for f in findings] == [Severity.INFO]
    pending = copy.deepcopy(gpus[:1])
    pending[0]["retired_pages"]["pending"] = True
    assert (
        by_id(snapshot(*working_driver(pending)), "nvidia.retired-pages-high")[0].severity
        is Severity.WARNING
    )
    clean = xml_gpus(real_captures, "telegraf-tesla-t4-driver-515.105.01.xml")
    assert_passes(snapshot(*working_driver(clean)), "nvidia.retired-pages-high")


# -- Xid --------------------------------------------------------------------------------------


def test_fallen_off_the_bus(real_captures):
    events = events_from(
        real_captures,
        "dmesg-nvrm-fallen-off-bus-no-xid-open-kernel-module-570.158.01-NVSentinel-issue-155.txt",
    )
    [finding] = by_id(snapshot(events), "nvidia.xid-fallen-off-bus")
    assert finding.severity is Severity.ERROR and "0000:b3:00.0" in finding.title
    assert finding.fixes[0].commands == ("sudo reboot",)
    lost = [{"index": 0, "name": "NVIDIA A100", "pci_bus_id": "0000:07:00.0", "lost": True}]
    assert by_id(snapshot(*working_driver(lost)), "nvidia.xid-fallen-off-bus")


def test_no_fall_without_xid_79(real_captures):
    events = events_from(real_captures, "dmesg-xid-32-31-old-format-2015-Bumblebee-issue-677.txt")
    assert_passes(snapshot(events), "nvidia.xid-fallen-off-bus")


def test_xid_errors_graded_by_nvidias_mapping(real_captures):
    events = events_from(
        real_captures,
        "TRUNCATED-dmesg-T-nvrm-loading-535.183.01-xid-43-31-94-akash-support-issue-244.txt",
    )
    findings = {f.title.split(" ")[1]: f for f in by_id(snapshot(events), "nvidia.xid-error")}
    assert set(findings) == {"31", "43", "94"}
    assert findings["31"].severity is Severity.WARNING  # RESTART_APP, not fatal
    assert findings["43"].severity is Severity.INFO  # IGNORE
    assert findings["94"].severity is Severity.WARNING
    assert (
        findings["31"].title
        == "Xid 31 (Access Violation Error (MMU Error 2)) on the GPU at 0000:00:07"
    )
    assert "python3.10" in findings["31"].detail
    assert any("compute-sanitizer" in c for fix in findings["31"].fixes for c in fix.commands)
    chia = events_from(
        real_captures, "TRUNCATED-dmesg-xid-31-mmu-fault-62-45-chia-gigahorse-issue-301.txt"
    )
    findings = {f.title.split(" ")[1]: f for f in by_id(snapshot(chia), "nvidia.xid-error")}
    assert findings["62"].severity is Severity.ERROR  # PMU halt: RESET_GPU, fatal
    assert "logged 8 times" in findings["45"].detail


def test_no_xids_no_finding():
    assert_passes(
        snapshot(collected("nvidia.events", "dmesg", kernel_log.parse(""))), "nvidia.xid-error"
    )


# -- PCIe -------------------------------------------------------------------------------------


def test_link_degraded_only_while_busy(real_captures):
    risers = xml_gpus(real_captures, "openpai-geforce-gtx1070-x2-driver-384.66-dtd-v9.xml")
    findings = by_id(snapshot(*working_driver(risers)), "nvidia.pcie-link-degraded")
    assert [f.title for f in findings] == [
        "PCIe link of GPU 0 (GeForce GTX 1070, 0000:01:00.0) runs at gen 3 x1 under load (max gen 3 x16)",
        "PCIe link of GPU 1 (GeForce GTX 1070, 0000:03:00.0) runs at gen 2 x1 under load (max gen 2 x16)",
    ]
    idle = xml_gpus(
        real_captures, "openpai-geforce-rtx2080ti-x2-driver-410.73.xml"
    )  # gen 1 of 3 at 0 %
    assert_passes(snapshot(*working_driver(idle)), "nvidia.pcie-link-degraded")
    busy_full = xml_gpus(
        real_captures, "telegraf-geforce-rtx3080-driver-595.58.03-dtd-v13.xml"
    )  # 65 %, gen 4 x16
    assert_passes(snapshot(*working_driver(busy_full)), "nvidia.pcie-link-degraded")


def test_aer_errors():
    [finding] = by_id(
        snapshot(pci([gpu_device("nvidia", {"correctable": 4, "nonfatal": 2, "fatal": 0})])),
        "nvidia.pcie-aer-errors",
    )
    assert finding.severity is Severity.WARNING
    [finding] = by_id(
        snapshot(pci([gpu_device("nvidia", {"correctable": 4, "nonfatal": 0, "fatal": 0})])),
        "nvidia.pcie-aer-errors",
    )
    assert finding.severity is Severity.INFO
    assert_passes(
        snapshot(pci([gpu_device("nvidia", {"correctable": 0, "nonfatal": 0, "fatal": 0})])),
        "nvidia.pcie-aer-errors",
    )


# -- fabric manager and MIG -------------------------------------------------------------------


def test_fabric_manager_not_running():
    fm = {"nvswitch_devices": 4, "service": "inactive", "process_running": False}
    [finding] = by_id(
        snapshot(os_group(UBUNTU), kernel(fabric_manager=fm), *working_driver([{"index": 0}])),
        "nvidia.fabric-manager-not-running",
    )
    assert finding.fixes[0].commands[0] == "sudo systemctl enable --now nvidia-fabricmanager"
    assert finding.fixes[1].commands[:2] == (
        "sudo apt-get update",
        "sudo apt-get install -y nvidia-fabricmanager-550",
    )
    running = dict(fm, service="active", process_running=True)
    assert_passes(snapshot(kernel(fabric_manager=running)), "nvidia.fabric-manager-not-running")


def test_mig_two_instances_in_one_process(real_captures):
    gpus = xml_gpus(real_captures, "telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml")
    groups = working_driver(gpus)
    groups[1].data["env"] = {"CUDA_VISIBLE_DEVICES": "MIG-aaaa,MIG-bbbb"}
    [finding] = by_id(snapshot(*groups), "nvidia.mig-device-selection")
    assert (
        finding.severity is Severity.ERROR
        and finding.title == "A CUDA process can use only one MIG instance"
    )
    groups[1].data["env"] = {"CUDA_VISIBLE_DEVICES": "MIG-aaaa"}
    assert_passes(snapshot(*groups), "nvidia.mig-device-selection")


def test_mig_on_without_instances(real_captures):
    gpus = copy.deepcopy(
        xml_gpus(real_captures, "telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml")
    )
    gpus[0]["mig_devices"] = []
    [finding] = by_id(snapshot(*working_driver(gpus)), "nvidia.mig-device-selection")
    assert finding.severity is Severity.ERROR and "no MIG instance exists" in finding.title
    assert "sudo nvidia-smi mig -i 0 -lgip" in finding.fixes[0].commands


def test_mig_listing_paste_says_nothing(real_captures):
    text = (real_captures / "misc" / "nvexp-nvidia-smi-L-h100-mig-590.48.01.txt").read_text()
    assert_passes(snapshot(*nvidia_smi_text.read(text)), "nvidia.mig-device-selection")


@pytest.mark.parametrize("module", MODULES)
def test_every_check_has_a_help_page(module):
    for chk in load_checks((module,)):
        assert chk.help and chk.help != "No help written for this check."


def test_xid_matrix_rows():
    from envdoctor.queries.xid import xid_name, xid_row

    table = MS.table("nvidia_xid")
    assert len(table.rows) == 161
    row = xid_row(MS, 79)
    assert (row["mnemonic"], row["description"], row["nvidia_action"], row["fatal"]) == (
        "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS",
        "GPU has fallen off the bus",
        "RESTART_BM",
        True,
    )
    assert xid_row(MS, 48)["nvidia_action"] == "WORKFLOW_XID_48"
    assert xid_name(MS, 119) == "Xid 119 (GSP_RPC_TIMEOUT)"
    assert xid_row(MS, 9999) is None
    assert all(r["source"].startswith("https://github.com/NVIDIA/NVSentinel/") for r in table.rows)


def test_this_machine_says_plainly_there_is_no_gpu():
    """On a machine without an NVIDIA GPU or driver (CI, this container) the report says so, no alarm."""
    from envdoctor.diagnosis.pipeline import collect_live, diagnose
    from envdoctor.probes.context import ProbeOptions

    snap = collect_live(
        ProbeOptions(timeout_s=20),
        modules=(
            "os_info",
            "cuda_toolkit",
            "container_inside",
            "nvidia_gpu",
            "nvidia_pci",
            "nvidia_kernel",
            "nvidia_events",
        ),
    )
    if (
        snap.fact("nvidia.pci", "gpu_count")
        or snap.has("nvidia.driver")
        or not snap.has("nvidia.pci")
    ):
        pytest.skip("this machine has an NVIDIA GPU or driver, or no visible PCI bus")
    report = diagnose(snap, check_modules=MODULES)
    [finding] = [f for f in report.findings if f.id == "nvidia.no-gpu"]
    assert finding.title == (
        "No NVIDIA GPU or driver on this machine: CUDA code cannot run here, frameworks use the CPU"
    )
    assert "no NVIDIA driver is installed" in finding.detail
    assert not [
        f for f in report.findings if f.layer == "nvidia" and f.severity is not Severity.INFO
    ]


def test_no_driver_bound_stays_quiet_when_the_bus_holds_no_nvidia_gpu():
    """Driver libraries installed (libnvidia-ml found), no kernel module, and a PCI bus that was
    read and lists no NVIDIA device: no GPU lacks a driver, so no error (a CI box or an image with
    the user-space driver). Without the bus facts (a paste) the driver's "not loaded" still counts."""
    libs = {
        "libnvidia-ml": [
            {"path": "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "version": "550.54.14"}
        ],
        "libcuda": [],
    }
    driver = collected(
        "nvidia.driver",
        "procfs",
        {
            "driver_version": None,
            "cuda_driver_max": None,
            "module_version": None,
            "library_version": "550.54.14",
            "kernel_module": None,
            "driver_loaded": False,
            "gpu_count": None,
            "platform": "linux",
            "nvml_error": {"code": 9, "name": "DRIVER_NOT_LOADED", "message": "Driver Not Loaded"},
        },
    )
    gpus = absent("nvidia.gpus", "nvml", "no GPU facts without a driver")
    no_gpu_on_bus = snapshot(pci([], total=6), kernel(libraries=libs), driver, gpus, os_group())
    assert_passes(no_gpu_on_bus, "nvidia.no-driver-bound")
    bus_unseen = snapshot(kernel(libraries=libs), driver, gpus, os_group())
    assert by_id(bus_unseen, "nvidia.no-driver-bound")
    with_gpu = snapshot(pci([gpu_device(None)]), kernel(libraries=libs), driver, gpus, os_group())
    assert by_id(with_gpu, "nvidia.no-driver-bound")
