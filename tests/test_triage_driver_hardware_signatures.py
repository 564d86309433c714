"""The NVIDIA driver, hardware, Windows, WSL and VM causes reach the paste that shows them.

Each paste is written for this test in the form the driver, the kernel or the tool prints it
(not taken from the triage corpus): the expected finding ranks first and its fixes name what the
fix turns on (the flag, package or setting).
"""

from __future__ import annotations

import pytest
from triage_lines import assert_first_with_knob, fixes_text

from envdoctor.triage_engine import triage_text

CASES = [
    (
        "open module on Pascal",
        """[    4.1] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1c82)
               NVRM: installed in this system is not supported by open
               NVRM: nvidia.ko because it does not include the required GPU
               NVRM: System Processor (GSP).
[    4.2] NVRM: None of the NVIDIA devices were initialized.""",
        "nvidia.open-module-unsupported-gpu",
        "-m=kernel",
    ),
    (
        "Blackwell on the proprietary module",
        """$ nvidia-smi
No devices were found
$ sudo dmesg | grep NVRM
NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:2b85)
NVRM: installed in this system requires use of the NVIDIA open kernel modules.
NVRM: GPU 0000:02:00.0: RmInitAdapter failed! (0x22:0x56:884)""",
        "nvidia.gpu-requires-open-module",
        "-open",
    ),
    (
        "Kepler on a new driver",
        """NVRM: The NVIDIA GeForce GTX 780 GPU installed in this system is
 NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please
 NVRM:  visit http://www.nvidia.com/object/unix.html for more
 NVRM:  information.  The 550.54.14 NVIDIA driver will ignore
 NVRM:  this GPU.  Continuing probe...
NVRM: No NVIDIA GPU found.""",
        "nvidia.gpu-needs-legacy-driver",
        "470",
    ),
    (
        "GSP timeout",
        "NVRM: Xid (PCI:0000:41:00): 119, pid=2211, name=python, Timeout after 6s of waiting "
        "for RPC response from GPU1 GSP! Expected function 76 (GSP_RM_CONTROL) (0x20801348 0x4).",
        "nvidia.gsp-rpc-timeout",
        "NVreg_EnableGpuFirmware=0",
    ),
    (
        "exclusive compute mode",
        "RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable\n"
        "CUDA kernel errors might be asynchronously reported at some other API call",
        "nvidia.compute-mode-exclusive",
        "-c DEFAULT",
    ),
    (
        "DKMS with the wrong gcc",
        """DKMS make.log for nvidia-535.183.01 for kernel 6.5.0-41-generic (x86_64)
warning: the compiler differs from the one used to build the kernel
  The kernel was built by: x86_64-linux-gnu-gcc-12 (Ubuntu 12.3.0-1ubuntu1~22.04) 12.3.0
  You are using:           gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0
gcc: error: unrecognized command-line option '-ftrivial-auto-var-init=zero'""",
        "nvidia.dkms-compiler-mismatch",
        "gcc-12",
    ),
    (
        "GPL-only symbol on a new kernel",
        "ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol "
        "'rcu_read_unlock_strict'\nError! Bad return status for module build on kernel: "
        "6.8.0-40-generic (x86_64)",
        "nvidia.driver-too-old-for-kernel",
        "newer driver",
    ),
    (
        "headers missing",
        "dkms: autoinstall for kernel 6.8.12-4-pve was skipped since the kernel headers for "
        "this kernel do not seem to be installed.",
        "nvidia.dkms-headers-missing",
        "linux-headers",
    ),
    (
        "card dropping off",
        "$ nvidia-smi\nUnable to determine the device handle for GPU 0000:3B:00.0: Unknown Error\n"
        "It happens randomly after a few hours of training on one of my GPUs.",
        "hardware.gpu-reseat",
        "reseat",
    ),
    (
        "ASPM",
        """pcieport 0000:00:01.0: AER: Corrected error received: 0000:01:00.0
nvidia 0000:01:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)
nvidia 0000:01:00.0:    [ 0] RxErr""",
        "hardware.pcie-aspm-power-management",
        "pcie_aspm=off",
    ),
    (
        "defective card, Chinese",
        "训练时报 RuntimeError: CUDA error: unspecified launch failure，之后显卡就用不了了，"
        "必须重启服务器才能恢复。换了一张同型号的显卡就好了。",
        "hardware.gpu-faulty",
        "rma",
    ),
    (
        "GPU-PV guest",
        "Ubuntu VM on Hyper-V with GPU-PV, dxgkrnl loaded and /dev/dxg present, but:\n"
        "Failed to initialize NVML: GPU access blocked by the operating system",
        "vm.gpu-pv-libs-missing",
        "lxss",
    ),
    (
        "romfile",
        "qemu-system-x86_64: -device vfio-pci,host=0000:0a:00.0,romfile=/var/lib/libvirt/vbios/"
        'rtx3070.rom: failed to find romfile "/var/lib/libvirt/vbios/rtx3070.rom"',
        "vm.passthrough-romfile-permission",
        "chmod",
    ),
    (
        "brackets in the install path",
        r"Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!"
        "\n"
        r"D:\[AI]\stable-diffusion-webui\venv\Scripts\python.exe",
        "windows.install-path-special-chars",
        "without [ ]",
    ),
    (
        "OpenGL on the integrated GPU",
        "java.lang.IllegalStateException: GLFW error 65542: WGL: The driver does not appear to "
        "support OpenGL\non my laptop with Intel(R) UHD Graphics 620 and a GeForce MX250",
        "windows.hybrid-gpu-uses-igpu",
        "high performance",
    ),
    (
        "installing over a loaded module",
        "ERROR: An NVIDIA kernel module 'nvidia-drm' appears to already be loaded in your kernel.  "
        "This may be because it is in use (for example, by an X server, a CUDA program, or the "
        "NVIDIA Persistence Daemon)",
        "nvidia.module-in-use",
        "multi-user.target",
    ),
    (
        "Windows entry point",
        "python.exe - Entry Point Not Found\nThe procedure entry point "
        "?cudnnCreate@@YAXXZ could not be located in the dynamic link library "
        "C:\\Python311\\Lib\\site-packages\\torch\\lib\\torch_cuda.dll.",
        "windows.dll-dependency-missing",
        "redistributable",
    ),
    (
        "IOMMU off",
        "TASK ERROR: No IOMMU detected, please activate it.See Documentation for further "
        "information.",
        "vm.iommu-disabled",
        "intel_iommu=on",
    ),
    (
        "framebuffer on the passed-through GPU",
        "vfio-pci 0000:01:00.0: BAR 1: can't reserve [mem 0xc0000000-0xcfffffff 64bit pref]",
        "vm.passthrough-bar-reserved",
        "sysfb_init",
    ),
    (
        "MIG change pending",
        "Warning: MIG mode is in pending enable state for GPU 00000000:07:00.0:In use by another "
        "client\n00000000:07:00.0 is currently being used by one or more other processes",
        "nvidia.mig-mode-pending",
        "--gpu-reset",
    ),
    (
        "TCC mode under WSL",
        "nvidia-smi inside WSL2 (Ubuntu 22.04) on Windows Server 2022, the NVIDIA L40S is in TCC "
        "mode:\nFailed to initialize NVML: GPU access blocked by the operating system",
        "wsl.tcc-driver-model",
        "-dm 0",
    ),
]


@pytest.mark.parametrize(("name", "paste", "expected", "keyword"), CASES, ids=[c[0] for c in CASES])
def test_cause_ranks_first_and_its_fix_names_the_keyword(
    name: str, paste: str, expected: str, keyword: str
) -> None:
    assert_first_with_knob(paste, expected, keyword)


ZH_CASES = [
    ("显卡经常掉卡，nvidia-smi 里看不到第二张卡了，重新插了一下就好", "hardware.gpu-reseat"),
    ("每次运行 train.py 训练时电脑直接重启，没有任何报错", "hardware.power-insufficient"),
    ("dkms 提示找不到内核头文件，nvidia 驱动装不上", "nvidia.dkms-headers-missing"),
    (
        "由于找不到 VCRUNTIME140_1.dll，无法继续执行代码。重新安装程序可能会解决此问题。",
        "windows.dll-dependency-missing",
    ),
    ("显示器驱动程序 nvlddmkm 已停止响应，并且已成功恢复。", "windows.device-removed-tdr"),
]


@pytest.mark.parametrize(("paste", "expected"), ZH_CASES, ids=[c[1] for c in ZH_CASES])
def test_chinese_descriptions_reach_the_cause(paste: str, expected: str) -> None:
    ids = [f.id for f in triage_text(paste).findings]
    assert ids and ids[0] == expected, ids


def test_secure_boot_named_in_chinese_confirms_like_english() -> None:
    line = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
    english = triage_text(f"{line}\nSecure Boot is enabled on this laptop").findings[0]
    chinese = triage_text(f"{line}\n这台笔记本开着安全启动").findings[0]
    assert english.id == chinese.id == "nvidia.secure-boot-blocks-module"
    assert chinese.score == english.score


def test_unattended_upgrade_of_the_driver_is_named_before_the_generic_causes() -> None:
    paste = """$ nvidia-smi
NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.

Start-Date: 2025-03-02  06:12:44
Commandline: /usr/bin/unattended-upgrade
Upgrade: libnvidia-compute-550:amd64 (550.120-0ubuntu0.22.04.1, 550.127.05-0ubuntu0.22.04.1)
End-Date: 2025-03-02  06:13:10"""
    findings = triage_text(paste).findings
    assert findings[0].id == "nvidia.driver-library-mismatch"
    fixes = fixes_text(findings[0])
    assert "apt-mark hold" in fixes and "purge" in fixes


def test_rm_init_adapter_alone_points_at_the_bar_settings() -> None:
    paste = "nvidia-smi\nNo devices were found\nNVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:884)"
    findings = triage_text(paste).findings
    assert findings[0].id == "hardware.bios-rebar-above4g"


def test_aer_lines_with_a_riser_stay_with_the_riser() -> None:
    paste = (
        "GPU on a PCIe riser keeps dropping:\n"
        "pcieport 0000:00:01.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)"
    )
    ids = [f.id for f in triage_text(paste).findings]
    assert ids[0] == "hardware.pcie-riser-link"


def test_gpu_access_blocked_in_plain_wsl_is_not_a_hyper_v_guest() -> None:
    paste = (
        "In WSL2 I installed nvidia-utils-535 with apt install nvidia-utils-535, now:\n"
        "Failed to initialize NVML: GPU access blocked by the operating system"
    )
    ids = [f.id for f in triage_text(paste).findings]
    assert ids[0] == "wsl.linux-driver-inside-wsl"
