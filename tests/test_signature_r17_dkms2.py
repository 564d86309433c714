"""Round 17 sweep of NVIDIA kernel-module messages (checks/signatures/nvidia_driver.toml): each
message, verbatim from its thread, reaches the cause the thread confirmed first, and one of that
cause's fixes names the knob the confirmed fix turned (a newer driver release for a kernel that
changed an interface, the MOK key for Secure Boot, the module parameter the message names)."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    # a maintainer: "Hi @ptr1337 ... will be fixed in a future release" (a newer driver release)
    (
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/469",
        "/var/lib/dkms/nvidia/530.30.02/build/nvidia/nv-mmap.c:681:23: error: assignment of read-only member ‘vm_flags’\n  681 |         vma->vm_flags &= ~VM_MAYWRITE;\nmake[2]: *** [scripts/Makefile.build:252: /var/lib/dkms/nvidia/530.30.02/build/nvidia/nv-mmap.o] Error 1",
        "nvidia.driver-too-old-for-kernel",
        "newer driver",
    ),
    # closed once a driver release that builds on 6.13 was out
    (
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/746",
        "/build/linux613-nvidia/src/NVIDIA-Linux-x86_64-565.57.01-no-compat32/kernel-open/nvidia/libspdm_ecc.c:312:27: error: implicit declaration of function ‘crypto_akcipher_verify’; did you mean ‘crypto_akcipher_reqtfm’? [-Wimplicit-function-declaration]\n  312 |     err = crypto_wait_req(crypto_akcipher_verify(req), &wait);",
        "nvidia.driver-too-old-for-kernel",
        "newer driver",
    ),
    # a maintainer: "This should now be fixed in all live driver branches"
    (
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/708",
        "drm_mode_config_funcs.output_poll_changed got removed in 6.12-rc1 and will prevent compiling of the nvidia driver",
        "nvidia.driver-too-old-for-kernel",
        "newer driver",
    ),
    # a maintainer: "An updated 580.xx driver with v6.19 compatibility was released"
    (
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/1021",
        "590.48.01 doesn't build on Linux kernel 6.19",
        "nvidia.driver-too-old-for-kernel",
        "newer driver",
    ),
    # the same 6.19 interface change (zone_device_page_init), fixed by the 580.xx release of #1021
    (
        "https://github.com/xddxdd/nix-cachyos-kernel/issues/33",
        "when using `cachyos-latest-lto` with nvidia drivers/gpu and `hardware.nvidia.open = true`, it seems to fail to build the driver module\n┃        > nvidia-uvm/uvm_hmm.c:2143:36: error: too few arguments to function call, expected 3, have 1\n┃        >  2143 |         zone_device_page_init(dpage);",
        "nvidia.driver-too-old-for-kernel",
        "nvidiaPackages",
    ),
    (
        "https://github.com/NixOS/nixpkgs/issues/492422",
        "error: Cannot build '/nix/store/5skga05vis5mfv1p8mqm98hikbw1rfg3-nvidia-open-6.19.2-580.126.09.drv'.\n       Reason: builder failed with exit code 2.\n       Output paths:\n         /nix/store/jr589g6l8x8ccr2f9kn4la1w4pipvs7j-nvidia-open-6.19.2-580.126.09",
        "nvidia.driver-too-old-for-kernel",
        "580.126.09",
    ),
    (
        "https://github.com/NixOS/nixpkgs/pull/495984",
        "nvidia-uvm/uvm_pmm_gpu.c:3305:6: error: 'const struct dev_pagemap_ops' has no member named 'page_free'\n 3305 |     .page_free = device_p2p_page_free,",
        "nvidia.driver-too-old-for-kernel",
        "newer driver",
    ),
    (
        "https://github.com/Frogging-Family/nvidia-all/issues/288",
        'nvidia/os-interface.c: In function ‘os_numa_add_gpu_memory’:\nnvidia/os-interface.c:2388:15: error: too few arguments to function ‘add_memory_driver_managed’; expected 5, have 4\n 2388 |         ret = add_memory_driver_managed(node, segment_base, segment_size, "System RAM (NVIDIA)");',
        "nvidia.driver-too-old-for-kernel",
        "newer driver",
    ),
    # the reporter rolled back to the previous kernel
    (
        "https://github.com/pop-os/pop/issues/3811",
        "Building initial module for 6.17.9-76061709-generic\nERROR (dkms apport): kernel package linux-headers-6.17.9-76061709-generic is not supported\nError! Bad return status for module build on kernel: 6.17.9-76061709-generic (x86_64)\nConsult /var/lib/dkms/nvidia/580.119.02/build/make.log for more information.\ndpkg: error processing package nvidia-dkms-580-open (--configure):\n installed nvidia-dkms-580-open package post-installation script subprocess returned error exit status 10",
        "nvidia.driver-too-old-for-kernel",
        "older kernel",
    ),
    # the reporter's steps (kmodgenca, mokutil --import, akmods --force) fixed it
    (
        "https://github.com/gridhead/nvidia-auto-installer-for-fedora-linux/issues/107",
        "if you install the nvidia drivers and you have secure boot enabled, you will not be able to load nvidia kernel modules on boot, you have to sign them with a self generated certs that prove that those modules can be trusted.\n\nThis is the phrase that I would get on boot:\nnvidia kernel module missing falling back to nouveau",
        "nvidia.secure-boot-blocks-module",
        "mokutil --import",
    ),
    # the reporter: "Oh, looks like dmesg answered my question" (the module parameter it names)
    (
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/230",
        "[    3.513141] NVRM: Open nvidia.ko is only ready for use on Data Center GPUs.\n[    3.513144] NVRM: To force use of Open nvidia.ko on other GPUs, see the\n[    3.513145] NVRM: 'OpenRmEnableUnsupportedGpus' kernel module parameter described\n[    3.513145] NVRM: in the README.\n[    3.824916] NVRM: GPU 0000:04:00.0: RmInitAdapter failed! (0x63:0x0:1905)",
        "nvidia.open-module-unsupported-gpu",
        "NVreg_OpenRmEnableUnsupportedGpus=1",
    ),
    (
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/322",
        "[ 1157.046099] NVRM: The NVIDIA GPU 0000:af:00.0 (PCI ID: 10de:1db5)\n               NVRM: installed in this system is not supported by open\n               NVRM: nvidia.ko because it does not include the required GPU\n               NVRM: System Processor (GSP).",
        "nvidia.open-module-unsupported-gpu",
        "proprietary",
    ),
    (
        "https://github.com/Bumblebee-Project/Bumblebee/issues/925",
        "ERROR: Unable to find the kernel source tree for the currently running kernel.  Please make sure you have installed the\n       kernel source files for your kernel and that they are properly configured; on Red Hat Linux systems, for example, be\n       sure you have the 'kernel-source' or 'kernel-devel' RPM installed.  If you know the correct kernel source files are\n       installed, you may specify the kernel source path with the '--kernel-source-path' command line option.",
        "nvidia.dkms-headers-missing",
        "kernel-devel",
    ),
]


test_a_kernel_module_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real compile errors of other out-of-tree modules (not NVIDIA's) against a newer kernel: the
# NVIDIA driver is not the cause
LOOKALIKE = [
    (
        "https://github.com/strongtz/i915-sriov-dkms/issues/140",
        "`/var/lib/dkms/i915-sriov-dkms/6.8.4-2/build/drivers/gpu/drm/i915/intel_device_info.c:220:9: error: implicit declaration of function ‘INTEL_MTL_M_IDS’; did you mean ‘INTEL_MTL_IDS’? [-Werror=implicit-function-declaration]\n  220 |         INTEL_MTL_M_IDS(0),",
        "nvidia.driver-too-old-for-kernel",
    ),
    (
        "https://github.com/acontis/atemsys/issues/3",
        "/home/lisandro/damian/ics/repos/kinarm/atemsys/atemsys.c:4541:5: error: implicit declaration of function 'pci_disable_pcie_error_reporting' [-Werror=implicit-function-declaration]\n 4541 |     pci_disable_pcie_error_reporting(pPciDev);",
        "nvidia.driver-too-old-for-kernel",
    ),
]


test_a_look_alike_is_not_read_as_the_nvidia_cause = source_lookalike_test(
    LOOKALIKE, may_be_empty=True
)
