"""Round 13c sweep of NVIDIA driver installation and loading messages on Linux
(checks/signatures/nvidia_driver.toml and the entries it touched in nvidia_driver.toml and
nvidia_driver.toml): each message, verbatim from its thread, reaches the cause the thread
confirmed first, and one of that cause's fixes names the knob the confirmed fix turned."""

from __future__ import annotations

import pytest
from triage_lines import source_knob_test

from envdoctor.triage_engine import triage_text

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        "https://github.com/NixOS/nixos-hardware/issues/1828",
        "Apr 13 16:41:14 nixos kernel: NVRM: The NVIDIA NVIDIA GeForce GTX 1050 GPU installed in this system>\n                              NVRM:  supported through the NVIDIA 580.xx Legacy drivers. Please\n                              NVRM:  visit http://www.nvidia.com/object/unix.html for more\n                              NVRM:  information.  The 595.58.03 NVIDIA driver will ignore\n                              NVRM:  this GPU.  Continuing probe...\nApr 13 16:41:14 nixos kernel: NVRM: No NVIDIA GPU found.",
        "nvidia.gpu-needs-legacy-driver",
        "580",
    ),
    (
        "https://github.com/negativo17/nvidia-driver/issues/192",
        "2026/02/11 18:46:29 akmodsbuild: error: Failed build dependencies:\n2026/02/11 18:46:29 akmodsbuild: \tgcc-c++ is needed by nvidia-kmod-3:590.48.01-1.fc43.x86_64\n2026/02/11 18:46:34 akmods: Building rpms failed; see /var/cache/akmods/nvidia/590.48.01-1-for-6.18.8-200.fc43.x86_64.failed.log for details",
        "nvidia.build-tools-missing",
        "gcc-c++",
    ),
    (
        "https://github.com/Arc-Compute/LibVF.IO/issues/20",
        "ERROR: An NVIDIA kernel module 'nvidia-drm' appears to already be loaded in your kernel.  This may be because it is in use (for example, by an X server, a CUDA program, or the NVIDIA Persistence Daemon), but this may also happen if your >",
        "nvidia.module-in-use",
        "uninstall",
    ),
    (
        "https://github.com/linux-surface/linux-surface/issues/52",
        "/var/lib/dkms/nvidia-current/418.74/build/common/inc/nv-linux.h:733:21: error: void value not ignored as it ought to be\n         int __ret = on_each_cpu(func, info, 1);        \\",
        "nvidia.driver-too-old-for-kernel",
        "LTS kernel",
    ),
    (
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1003",
        "I got a message during updates that the closed drivers no long suPort the 1070 card and to try the open driver instead.\n\nI installed the nvidia-open-dkms, and i get akernel panic saying my cards not supported.",
        "nvidia.open-module-unsupported-gpu",
        "580",
    ),
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/365",
        "$ nvidia-smi\nmodprobe: FATAL: Module nvidia not found.\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n$ sudo modprobe nvidia\nmodprobe: FATAL: Module nvidia not found.\n$ sudo nvidia-modprobe -u -c=0\nmodprobe: FATAL: Module nvidia-uvm not found.\n$ dkms status\nThe program 'dkms' is currently not installed. To run 'dkms' please ask your administrator to install the package 'dkms'",
        "nvidia.module-not-built-for-kernel",
        "dkms",
    ),
    (
        "https://github.com/Witko/nvidia-xrun/issues/144",
        "modprobe: ERROR: could not find module by name 'nvidia'\n\nThen it tries to load nvidia drm module and throws:\n\nmodprobe: FATAL: nvidia_drm not found in directory /lib/modules/5.5.9-zen1-2-zen",
        "nvidia.module-not-built-for-kernel",
        "nvidia-dkms",
    ),
]


test_a_driver_install_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes the new patterns could catch: they must not get the new cause
LOOKALIKE = [
    (
        "https://github.com/roworu/nvidia-fedora-secureboot/issues/2",
        "2025/02/26 15:27:18 akmodsbuild: make: *** [Makefile:115: modules] Error 2\n2025/02/26 15:27:18 akmodsbuild: error: Bad exit status from /var/tmp/rpm-tmp.hKIYD8 (%build)\n2025/02/26 15:27:18 akmodsbuild: \n2025/02/26 15:27:18 akmodsbuild: RPM build errors:\n2025/02/26 15:27:18 akmodsbuild:     Bad exit status from /var/tmp/rpm-tmp.hKIYD8 (%build)",
        "nvidia.build-tools-missing",
    ),
    (
        "https://github.com/korvahannu/arch-nvidia-drivers-installation-guide/issues/37",
        "==> dkms install --no-depmod nvidia/470.256.02 -k 6.14.4-arch1-2\n\nError! Bad return status for module build on kernel: 6.14.4-arch1-2 (x86_64)\nConsult /var/lib/dkms/nvidia/470.256.02/build/make.log for more information.\n==> WARNING: `dkms install --no-depmod nvidia/470.256.02 -k 6.14.4-arch1-2' exited 10",
        "nvidia.module-not-built-for-kernel",
    ),
]


@pytest.mark.parametrize(("url", "text", "not_id"), LOOKALIKE, ids=[k[0] for k in LOOKALIKE])
def test_a_look_alike_is_not_read_as_the_new_cause(url, text, not_id) -> None:
    assert triage_text(text + "\n").findings[0].id != not_id, url
