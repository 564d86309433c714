"""Kernel modules, nouveau and Secure Boot, round 19 (checks/signatures/nvidia_driver.toml): whole
opening posts where nouveau keeps (or a newer in-tree driver, nova_core, takes) the GPU although
it was blacklisted, where a DKMS module's signing key was never enrolled, and a driver branch too
old for the kernel. Each text, verbatim from its thread, reaches the cause the thread confirmed
first (not a symptom finding or a loosely similar case), and one of that cause's fixes names the
knob the confirmed fix turned (update-initramfs, the modprobe.d install line, nova_core, mokutil
--import). Look-alike rows are real messages of other causes that the new phrasings must not
read as theirs."""

from __future__ import annotations

import pytest
from triage_lines import knob_test, lookalike_test

# (message verbatim from the thread, the finding id first, a knob one of its fixes names, thread)
KNOB = [
    # a commenter asked whether update-initramfs -u was run after the blacklist; the reporter:
    # "Things can be so easy... Thanks and closed"
    (
        "When booting the tablet only `nouveau` is not loaded. But when I reattach the tablet to its base the module gets loaded again, although I have blacklisted it in `/etc/modprobe.d/blacklist-nouveau.conf`.\nThat's quite annoying as the dGPU does nothing useful but drains my battery.\n\n4.18.11, Ubuntu 18.04, xorg-session",
        "nvidia.nouveau-loaded",
        "update-initramfs",
        "https://github.com/jakeday/linux-surface/issues/264",
    ),
    # the reporter's own fix, confirmed in the thread: "install nouveau /bin/true" in modprobe.d
    # (besides rd.driver.blacklist=nouveau); "without the install part nouveau will still be loaded"
    (
        'Hi! I just upgraded an f27 to f29 and it seems that nvidia cannot be loaded because nouveau is always present an loaded!! (and no package with nouveau is installed)   \nThe only solution beside :   \n`GRUB_CMDLINE_LINUX="rd.driver.blacklist=nouveau"`   \nwas :   \n```\n[root@paowall ~]# cat /etc/modprobe.d/nvidia.conf\nblacklist nouveau\ninstall nouveau /bin/true\n```\nN.B. without the install part nouveau will still be loaded',
        "nvidia.nouveau-loaded",
        "install nouveau /bin/true",
        "https://github.com/negativo17/nvidia-driver/issues/75",
    ),
    # the merged fix (maintainers): blacklist nova, nova_core and nova_drm alongside nouveau
    (
        "Installing the NVIDIA driver fails on Ubuntu 26.04. The runfile builds every module successfully and then dies at load time:\n\n```\nERROR: Unable to load the kernel module 'nvidia.ko'.\n-> Kernel module load error: No such device\n[  201.910514] NVRM: GPU 0000:01:00.0 is already bound to NovaCore.\n[  201.913648] NVRM: No NVIDIA devices probed.\n```",
        "nvidia.nouveau-loaded",
        "nova_core",
        "https://github.com/beclab/Olares/pull/3963",
    ),
    # a commenter with the same problem: "I just did it manually and it worked:
    # sudo mokutil --import /var/lib/dkms/mok.pub"
    (
        "I've installed the module, the script generated the key and asked for a password, I enrolled the key after rebooting but the module doesn't load. I tried to use modprobe and it returns an error saying the key has been rejected. The module works correctly with SecureBoot disabled. I'm using Fedora 40. Other self-signed kernel modules (eg the Nvidia driver kernel module) work fine on my system.",
        "nvidia.secure-boot-blocks-module",
        "mokutil --import",
        "https://github.com/saidsay-so/acpi_ec/issues/18",
    ),
    # the reporter: "it would seem the dkms signing key was not enrolled for some reason"
    (
        "Secure Boot-enabled machines require a module to be signed with enrolled MOK keys--the dkms installation is signing the modules, but seemingly with improper keys, as modprobe fails due to the used keys not being enrolled.",
        "nvidia.secure-boot-blocks-module",
        "mokutil --import",
        "https://github.com/quo/ithc-linux/issues/22",
    ),
    # the reporter's own write-up: enroll the key (mokutil --import), reboot into MOK enrolment
    (
        "Error when trying to load the module with modprobe:\n\n\tmodprobe: ERROR: could not insert 'r8126': Key was rejected by service",
        "nvidia.secure-boot-blocks-module",
        "mokutil --import",
        "https://github.com/awesometic/realtek-r8126-dkms/issues/3",
    ),
    # the maintainer: 460 does not support kernel 5.14; use 460 with 5.10 LTS or upgrade to 470+
    pytest.param(
        "a quick `modprobe nvidia` showed that the module does not exist. \n\nseems to be a DKMS error.",
        "nvidia.driver-too-old-for-kernel",
        "470",
        "https://github.com/Frogging-Family/nvidia-all/issues/70",
        marks=pytest.mark.xfail(
            strict=True,
            reason="the post names neither the driver branch nor the kernel: only the attached make.log shows the 460-vs-5.14 build failure",
        ),
    ),
]

# (message verbatim from a thread of another cause, the cause it must not be read as, thread)
LOOKALIKE = [
    # a commenter's own case: nouveau was loaded only because DKMS had not built the nvidia module
    # for the kernel; deleting the stale /var/lib/dkms/nvidia folder and dkms autoinstall fixed it
    (
        "Are you sure the nvidia driver module was actually compiled and available? Because on Fedora nowadays, nouveau and nvidia can co-exist. So if nvidia fails to load, nouveau loads instead. That happened to me today. For some reason, with the latest 418.43 driver, dkms didn't succeed to compile the module for the current kernel and of course it didn't load after a reboot. Instead nouveau was loaded. I deleted the previous driver directory in /var/lib/dkms/nvidia/ and run 'dkms autoinstall' to create the nvidia module and another reboot fixed the problem.",
        "nvidia.nouveau-loaded",
        "https://github.com/negativo17/nvidia-driver/issues/75",
    ),
    # Secure Boot after apt upgrade (MOK key overwritten): disabling Secure Boot made nvidia-smi work
    (
        "I understand your error occurred after running `apt upgrade`, `nvidia-smi` stopped working. The new MOK set-up process somehow overwrote the previous working key and thus failed `nvidia-smi`.",
        "nvidia.nouveau-loaded",
        "https://github.com/MicrosoftDocs/azure-docs/issues/111536",
    ),
    # the driver was running: a DKMS build installs nvidia.ko under updates/dkms, not kernel/drivers/video
    (
        "`modinfo: ERROR: Module /usr/lib/modules/5.14.21-239-tkg-pds-llvm/kernel/drivers/video/nvidia.ko not found.`\n\nI run `linux-tkg`, and I'm running the driver right now as I'm typing this so I'm really confused how `nvidia.ko` just doesn't exist where it should?",
        "nvidia.nouveau-loaded",
        "https://github.com/Frogging-Family/nvidia-all/issues/90",
    ),
]


test_message_reaches_cause_with_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_this_cause = lookalike_test(LOOKALIKE)
