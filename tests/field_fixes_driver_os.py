"""Round 9 field survey (topic `driver_os`): do the fixes of a reached cause name the knob the real
fix turned on, for installing and upgrading the NVIDIA driver on Linux distributions (Ubuntu,
Debian, Fedora/RPM Fusion/negativo17 akmods, Arch, Fedora Atomic images, Solus, TrueNAS, Linux
Mint), Secure Boot, kernel upgrades that break the module, driver/library mismatch after an
upgrade, open vs proprietary kernel modules per GPU generation, legacy branches, and CUDA after
suspend?

Every text below is the reporter's own words, copied verbatim (whole lines: the error output and
the facts they gave, never the answer) from the public GitHub thread named beside it, where the fix
was confirmed in the thread: the reporter says it worked, or a maintainer states cause and fix. The
knob is what that fix turned on (a package, module flavour, driver branch, command or kernel). None
of these threads are in the triage corpus. The expected cause must be among the first three
findings of `triage_text(text)` and its fixes must name the knob. The second table holds reports
whose cause is something ELSE: the cause a changed cue could be tempted by must not rank first.
"""

from __future__ import annotations

import pytest

MISMATCH = ("nvidia.driver-library-mismatch",)
OPEN_UNSUPPORTED = ("nvidia.open-module-unsupported-gpu",)
NEEDS_OPEN = ("nvidia.gpu-requires-open-module",)
LEGACY = ("nvidia.gpu-needs-legacy-driver",)
KERNEL_TOO_NEW = ("nvidia.driver-too-old-for-kernel", "nvidia.module-not-built-for-kernel")
NOT_BUILT = ("nvidia.module-not-built-for-kernel", "nvidia.dkms-headers-missing")
SECURE_BOOT = ("nvidia.secure-boot-blocks-module",)
UVM = ("nvidia.uvm-stale-after-suspend", "nvidia.uvm-not-loaded")

# (text, accepted ids, source URL, knob the fixes must name)
CASES = [
    (
        "aurora-dx-nvidia-open F43: Pascal GPU (MX350 / 10de:1c94) incompatible with nvidia-open "
        "driver\nAfter the automatic update from F42 to F43, the NVIDIA driver fails to load on \n"
        "Pascal-architecture GPUs (MX350 / GTX 10xx series). `nvidia-smi` fails and the \n"
        "desktop renders only via software.\nKernel log shows:\n```\nNVRM: nvidia.ko because it "
        "does not include the required GPU\nnvidia 0000:01:00.0: probe with driver nvidia failed "
        "with error -1\nNVRM: The NVIDIA probe routine failed for 1 device(s).\nNVRM: None of the "
        "NVIDIA devices were initialized.\n```\nGPU: NVIDIA GeForce MX350 — PCI ID: `10de:1c94` "
        "(Pascal architecture)",
        OPEN_UNSUPPORTED,
        "https://github.com/ublue-os/aurora/issues/1924",
        "proprietary",
    ),
    (
        "Bazzite DX (Fedora 44) fails to initialize NVIDIA GTX 1080 (Pascal) after rebase\n"
        "After rebasing from Bazzite GNOME NVIDIA to Bazzite DX GNOME NVIDIA, the NVIDIA driver no "
        "longer initializes on a GeForce GTX 1080 (Pascal). The same machine works correctly on the "
        "standard Bazzite image, and a rollback (DX-> classic) immediately restores normal "
        "behaviour.\n"
        "  - ❌ `nvidia-smi` reports: \"NVIDIA-SMI has failed because it couldn't communicate with "
        'the NVIDIA driver."\n  - ❌ `lsmod | grep nvidia`: no output\n  - ❌ kernel logs includes:\n'
        "```\nNVRM: The NVIDIA GPU 0000:09:00.0 (PCI ID: 10de:1b80)\nNVRM: This NVIDIA driver is not "
        "compatible with this NVIDIA GPU\nNVRM: because it does not include the required GPU.\n"
        "nvidia 0000:09:00.0: probe with driver nvidia failed with error -1\n```",
        OPEN_UNSUPPORTED,
        "https://github.com/ublue-os/bazzite/issues/5252",
        "proprietary",
    ),
    (
        "R580 builds (25.10.6 / 25.10.7) load OPEN kernel modules — Pascal/Maxwell unsupported "
        "(nvidia-smi: No devices found)\n- TrueNAS SCALE **25.10.7**, kernel "
        "`6.12.105-production+truenas`\n- GPU: **NVIDIA Tesla P4** (GP104, Pascal, PCI ID "
        "`10de:1bb3`) — no GSP processor\n$ nvidia-smi\nNo devices found\n\n$ dmesg | grep NVRM\n"
        "[   87.358035] NVRM: The NVIDIA GPU 0000:03:00.0 (PCI ID: 10de:1bb3)\n"
        "               NVRM: installed in this system is not supported by open\n"
        "               NVRM: nvidia.ko because it does not include the required GPU\n"
        "               NVRM: System Processor (GSP).\n"
        "[  988.289884] NVRM: GPU 0000:03:00.0: RmInitAdapter failed! (0x24:0x72:1603)",
        OPEN_UNSUPPORTED,
        "https://github.com/zzzhouuu/truenas-nvidia-drivers/issues/20",
        "proprietary",
    ),
    (
        "Nvidia Blackwell/50xx Series Support\n1. Have a 50xx series Nvidia GPU\n"
        "2. Install Solus, reboot, update, reboot\n3. Install 570.144 drivers via DoFlicky\n"
        "4. Reboot, hangs (removing quiet and splash args via grub shows it halting after "
        "graphical.target targeted - switching to another TTY and running dmesg shows an explicit "
        "error message about the open kernel modules being required - nvidia-smi returns no devices "
        "were found).",
        NEEDS_OPEN,
        "https://github.com/getsolus/packages/issues/5575",
        "open",
    ),
    (
        "Question: should Driver Manager avoid NVIDIA 535 / transitional 470 on GTX 760 and offer "
        "470-server instead?\n1. Use Linux Mint 21.3 Cinnamon on X11.\n2. Use a system with an "
        "NVIDIA GeForce GTX 760:\n   * GPU: `NVIDIA Corporation GK104 [GeForce GTX 760]`\n"
        "   * PCI ID: `10de:1187`\n3. Open Driver Manager after a normal kernel/update cycle.\n"
        "On this system, the normal `nvidia-driver-470` package behaved like a transitional trap and "
        "attempted to depend on/install NVIDIA 535 packages. NVIDIA 535 is incompatible with the GTX "
        "760 and explicitly ignored the GPU at boot.",
        LEGACY,
        "https://github.com/linuxmint/mintdrivers/issues/111",
        "470",
    ),
    pytest.param(
        "Unable to build kernel module for the 6.7.3 kernel.\nHi, \ndue to a bug in the "
        "common/inc/nv-linux.h file, it is not possible to compile the nvidia kernel module.",
        KERNEL_TOO_NEW,
        "https://github.com/negativo17/nvidia-driver/issues/149",
        "akmod",
        id="5",  # a strict xfail from round 20 to 25 (case-base suggestions); passes since round 25
    ),
    (
        "Akmods wont build on 6.13.0-cachyos3.lto.fc41.x86_64\nWell same issue as last time lmao, "
        "nvidia drivers dont work on the newest kernel \n"
        "[565.77-1-for-6.13.0-cachyos3.lto.fc41.x86_64.failed.log]",
        KERNEL_TOO_NEW,
        "https://github.com/CachyOS/copr-linux-cachyos/issues/24",
        "LTS",
    ),
    (
        "Cannot find CUDA devices when the machine stays idle for a while\n"
        "I am using PyTorch through Anaconda Environment and something weird happens. While working "
        "or if I leave the machine for some time and come back, PyTorch stops recognizing the GPU. "
        "And the only way it starts recognizing the GPU is after rebooting the machine.\n"
        "THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1591914886554/work/aten/src/THC/"
        "THCGeneral.cpp line=47 error=999 : unknown error\n"
        "RuntimeError: cuda runtime error (999) : unknown error at /opt/conda/conda-bld/"
        "pytorch_1591914886554/work/aten/src/THC/THCGeneral.cpp:47",
        UVM,
        "https://github.com/pytorch/pytorch/issues/43281",
        "nvidia_uvm",
    ),
    (
        "nvidia api/kernel module mismatch\nGot this after running `extras.yml`.\n"
        "TASK [cuda : Enable NVIDIA Persistence Daemon] ****\n"
        "Jun 30 11:07:05 gpu-0 kernel: NVRM: API mismatch: the client has the version 535.54.03, "
        "but#012NVRM: this kernel module has the version 530.30.02.  Please#012NVRM: make sure that "
        "this kernel module and all NVIDIA driver#012NVRM: components have the same version.",
        MISMATCH,
        "https://github.com/stackhpc/ansible-slurm-appliance/issues/287",
        "reboot",
    ),
    (
        '解决 "Failed to Initialize NVML: Driver/library Version Mismatch"\n'
        "服务器更新 nvidia driver 后遇到以下问题: Failed to initialize NVML: Driver/library version "
        "mismatch",
        MISMATCH,
        "https://github.com/xxmyjk/xxmyjk.github.io/issues/12",
        "rmmod",
    ),
    (
        "dkms nvidia390 fails to build with new kernels\n"
        "make[1]: *** [Makefile:234: __sub-make] Error 2\n"
        "make[1]: Leaving directory '/usr/src/kernel-headers-6.6.89_1'\n"
        "make: *** [Makefile:81: modules] Error 2",
        ("nvidia.driver-too-old-for-kernel",),
        "https://github.com/void-linux/void-packages/issues/55238",
        "older kernel",
    ),
    (
        "NVIDIA hardware install script installs unsupported driver on Pascal and older GPUs\n"
        "GPU: NVIDIA GeForce GTX 1050 (affects GTX 10xx, 9xx, and older), Omarchy version: 3.2.3\n"
        "As of NVIDIA driver version 590, `nvidia-dkms` no longer supports Pascal or older GPUs "
        "([Arch Linux announcement](https://archlinux.org/news/nvidia-590-driver-drops-pascal-"
        "support-main-packages-switch-to-open-kernel-modules/)).\n"
        "Omarchy's NVIDIA install script currently selects `nvidia-dkms` for Pascal GPUs, which "
        "results in an unsupported driver and a broken graphical environment after upgrade.",
        LEGACY,
        "https://github.com/omacom/omarchy/issues/3954",
        "580xx",
    ),
    (
        "Broken Nvidia 510 Driver Update from 2022-02-23 Breaks/Fails Nvidia GTX 760 and Ignores "
        "GPU\n**The issue appears to be with the Nvidia 510.54 driver package made available on "
        "2022-02-23.** When installing the suggested updates, the new package fails to "
        "detect/install properly the legacy 470 drivers within that meta package. The update/install "
        "changes the kernel modules so on boot the user receives a message stating that 510.54 "
        "driver ignores the GTX760 card completely (or other Kepler-based NVidia cards in the 600 "
        "and 700 lines). That is, the driver appears to detect the card but ignores it.\n"
        "lspci | grep VGA\n01:00.0 VGA compatible controller: NVIDIA Corporation GK104 [GeForce GTX "
        "760] (rev a1)",
        LEGACY,
        "https://github.com/pop-os/pop/issues/2228",
        "470",
    ),
]

# (text, tempting id, source URL): reports of another cause
OTHER_CAUSES: list[tuple[str, str, str]] = [
    (
        # an open-module image on a Pascal card (the cause is the module flavour, not the branch)
        "NVIDIA GTX 1070 (Pascal) not supported - driver fails to load\n"
        "After rebasing from `bazzite-nvidia:stable` to `bazzite-dx-nvidia:stable`, NVIDIA drivers "
        "fail to load. The system cannot communicate with the GPU, and `nvidia-smi` fails with "
        "driver communication error.\n"
        "- **GPU**: NVIDIA GeForce GTX 1070 (Pascal architecture)\n  - PCI ID: `10de:1b81`",
        "nvidia.gpu-needs-legacy-driver",
        "https://github.com/ublue-os/bazzite-dx/issues/150",
    ),
    (
        # Blackwell on an image with the proprietary flavour: it needs the open module, the reverse
        "`-nvidia` OS images ship the proprietary NVIDIA kernel module flavor — Blackwell GPUs "
        "(GB10 / DGX Spark, RTX 50-series) cannot initialize\n"
        "The `x86_64-nvidia` / `aarch64-nvidia` image flavors ship the **proprietary** flavor of the "
        "NVIDIA kernel modules. As a result, any Blackwell GPU — DGX Spark / GB10 on "
        "`aarch64-nvidia`, RTX 50-series on `x86_64-nvidia` — fails to bind the driver, and services "
        "fall back to CPU even on the correct image flavor.",
        "nvidia.open-module-unsupported-gpu",
        "https://github.com/Start9Labs/start-technologies/issues/3465",
    ),
    (
        # the DKMS module built for both kernels; Secure Boot's keyring rejects it on the new one
        "[Kernel 6.18][Secure Boot] CONFIG_INTEGRITY_MACHINE_KEYRING disabled causes enrolled "
        "MOK-signed NVIDIA DKMS modules to be rejected\n"
        "After booting deepin with kernel:\n6.18.48-amd64-desktop-rolling\n"
        "the NVIDIA kernel driver cannot be loaded while Secure Boot is enabled.\n"
        "nvidia-smi returns:\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA "
        "driver.\nThe NVIDIA DKMS module has been successfully built and installed for both "
        "kernels:\nnvidia-current/580.119.02, 6.18.48-amd64-desktop-rolling, x86_64: installed\n"
        "nvidia-current/580.119.02, 6.6.155-amd64-desktop-hwe, x86_64: installed",
        "nvidia.driver-too-old-for-kernel",
        "https://github.com/deepin-community/kernel/issues/2144",
    ),
    (
        # a kernel package that ships incomplete headers (the maintainer's patch adds them)
        "Linux6.14: DKMS module fails to build for 570.133.07\n"
        "When installing the latest 6.14 kernel:\n"
        "> Building DKMS module: nvidia-570.133.07... FAILED!\n"
        "1. Install the Linux6.14 package\n2. DKMS will fail to build the module.\n"
        "3. Installation of kernel will complete and the NVIDIA module will not load on next boot.",
        "nvidia.gpu-needs-legacy-driver",
        "https://github.com/void-linux/void-packages/issues/54925",
    ),
    (
        # slow CUDA start-up: persistence mode, not a stale module after sleep
        "sometimes GPU initialization is very slow\n"
        "probably it's due to my driver problem. i found sometimes it's extremely slow to get the "
        'message such as  \n"finish initialization with 2 devices"\n'
        "for example, it takes >10 second to launch on GTX 970 with NVIDIA-SMI 343.19 and cuda 6.5.",
        "nvidia.uvm-stale-after-suspend",
        "https://github.com/dmlc/cxxnet/issues/108",
    ),
    (
        # a Secure Boot failure inside the GPU Operator's driver container
        "Secure boot - Unable to load the kernel module 'nvidia.ko', ubuntu24.04 "
        "DRIVER_ARCH=x86_64, DRIVER_VERSION=535.161.07, CUDA_VERSION=12.3.2\n"
        "Kernel source path: '/lib/modules/6.8.0-35-generic/build'\n"
        "ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most frequently when "
        "this kernel module was built against the wrong or improperly configured kernel sources, "
        "with a version of gcc that differs from the one used to build the target kernel, or if "
        "another driver, such as nouveau, is present and prevents the NVIDIA kernel module from "
        "obtaining ownership of the NVIDIA device(s), or no NVIDIA device installed in this system "
        "is supported by this NVIDIA Linux graphics driver release.",
        "nvidia.driver-too-old-for-kernel",
        "https://github.com/NVIDIA/gpu-driver-container/issues/44",
    ),
    (
        # a DKMS module left at the old release after an upgrade: a mismatch, not a legacy GPU
        "I install nvidia 595.84 but modprobe shows 595.80\n"
        "Hello, yesterday I upgrade my nvidia driver from 595.80 to 595.84 and I check a missmatch "
        "beetwen versions from my dmesg:\n"
        "[    9.424670] NVRM: API mismatch: the client 'kwin_wayland' (pid 1005)\n"
        "               NVRM: has the version 595.84, but this kernel module has\n"
        "               NVRM: the version 595.80.  Please make sure that this\n"
        "               NVRM: kernel module and all NVIDIA driver components\n"
        "               NVRM: have the same version.",
        "nvidia.driver-too-old-for-kernel",
        "https://github.com/Frogging-Family/nvidia-all/issues/394",
    ),
    (
        # a runfile's libraries and a separately built module of another release: a mismatch
        "Failed to initialize NVML: Driver/library version mismatch\n"
        "bash ./NVIDIA-Linux-x86_64-570.124.04.run --no-kernel-modules\n"
        "cd /data/open-gpu-kernel-modules-570.124.06-p2p/\n./install.sh\nreboot\n"
        "nvidia-smi \nFailed to initialize NVML: Driver/library version mismatch\n"
        "NVML library version: 570.124",
        "nvidia.open-module-unsupported-gpu",
        "https://github.com/tinygrad/open-gpu-kernel-modules/issues/47",
    ),
    (
        # start-up time that grows with the GPU count: driver persistence, not a suspend
        "Time of the first execution is proportional to the number of GPUs",
        "nvidia.uvm-stale-after-suspend",
        "https://github.com/arrayfire/arrayfire/issues/2467",
    ),
    (
        # a driver release older than kernel 7 (the fix added the kernel-7 patch): no legacy GPU
        "580.119.02 failing on Kernel 7+\n### Kernel version\n7.0.9\n"
        "### NVIDIA driver version / branch\n580.119.02\n### Driver type\nproprietary (nvidia)\n"
        "==> dkms install --no-depmod nvidia/580.119.02 -k 7.0.9-1-cachyos\n"
        "Error! Bad return status for module build on kernel: 7.0.9-1-cachyos (x86_64)\n"
        "Consult /var/lib/dkms/nvidia/580.119.02/build/make.log for more information.",
        "nvidia.gpu-needs-legacy-driver",
        "https://github.com/Frogging-Family/nvidia-all/issues/379",
    ),
]

# the shared names tests/test_field_fixes.py reads
REPORTS_ROWS = CASES
OTHER_ROWS = OTHER_CAUSES
MAY_BE_EMPTY = True
