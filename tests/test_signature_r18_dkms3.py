"""Round 18 sweep of kernel-module messages (checks/signatures/nvidia_driver.toml): each message,
verbatim from its thread, reaches the cause the thread confirmed first, and one of that cause's fixes
names the knob the confirmed fix turned (LLVM=1 for a clang-built kernel, the headers package of the
kernel the path names, akmods, the stale DKMS version, the cc alternative)."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_naming, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    # the maintainer: the kernel headers are not installed; Fedora needs kernel-devel
    (
        "https://github.com/lwfinger/rtw88/issues/90",
        "make -C /lib/modules/5.17.5-300.fc36.x86_64/build M=/home/liveuser/rtw88 modules\nmake[1]: *** /lib/modules/5.17.5-300.fc36.x86_64/build: No such file or directory.  Stop.\nmake: *** [Makefile:83: all] Error 2",
        "nvidia.dkms-headers-missing",
        "kernel-devel",
    ),
    # the maintainer: on Fedora install kernel-devel of the kernel (not kernel-headers)
    (
        "https://github.com/frederik-h/acer-wmi-battery/issues/1",
        "I'm getting `make[1]: *** /lib/modules/5.17.9-300.fc36.x86_64/build: No such file or directory. Stop. ` when trying to build the module on Fedora 36, despite having `kernel-headers` installed.",
        "nvidia.dkms-headers-missing",
        "kernel-devel",
    ),
    # the maintainer: install the linux-headers-4.15.0-162-generic package (the kernel the path names)
    (
        "https://github.com/oslab-ewha/MLstorage/issues/1",
        "make -C /lib/modules/4.15.0-162-generic/build M=/home/cezanne/work/mlstor/kmod\nmake[1]: *** /lib/modules/4.15.0-162-generic/build: No such file or directory.  Stop.\nMakefile:37: recipe for target 'all' failed\nmake: *** [all] Error 2",
        "nvidia.dkms-headers-missing",
        "linux-headers-4.15.0-162-generic",
    ),
    # the maintainer: install the headers of the kernel (linux-headers)
    (
        "https://github.com/lajp/dev_rickroll/issues/1",
        "cannot build because of error:\n```\nmake[1]: *** /lib/modules/5.16.14-artix1-1/build: No such file or directory. Stop\n```",
        "nvidia.dkms-headers-missing",
        "linux-headers",
    ),
    # a later comment of the same thread: headers newer than the running kernel; updating and rebooting fixed it ("it works perfectly now")
    (
        "https://github.com/lajp/dev_rickroll/issues/1",
        "I have installed `linux-headers` on my arch system, but still get this error:\n```\nmake -C /lib/modules/5.16.15-arch1-1/build M=/home/USERNAME/dl/git/dev_rickroll modules\nmake[1]: Entering directory '/usr/lib/modules/5.16.15-arch1-1/build'\nmake[1]: *** No rule to make target 'modules'.  Stop.\nmake[1]: Leaving directory '/usr/lib/modules/5.16.15-arch1-1/build'\nmake: *** [Makefile:8: all] Error 2\n```",
        "nvidia.dkms-headers-missing",
        "reboot",
    ),
    # the maintainer: sudo pacman -S linux-headers; the reporter: "That did it."
    (
        "https://github.com/lwfinger/rtw89/issues/28",
        "Upon hitting make, I first get a message about /lib/modules/5.10.53-1-MANJARO/build not being present.  After making that directory, I get:\n\nmake -C /lib/modules/5.10.53-1-MANJARO/build M=/home/charlesrwest/cpp/libraries/rtw89 modules\nmake[1]: Entering directory '/usr/lib/modules/5.10.53-1-MANJARO/build'\nmake[1]: *** No rule to make target 'modules'.  Stop.\nmake[1]: Leaving directory '/usr/lib/modules/5.10.53-1-MANJARO/build'\nmake: *** [Makefile:52: all] Error 2",
        "nvidia.dkms-headers-missing",
        "pacman -S",
    ),
    # the reporter: "Updating my kernel resolved the issue." (kernel-devel only for a newer kernel)
    (
        "https://github.com/lwfinger/rtw89/issues/197",
        "When attempting to build the driver on Fedora 37 I get the following error\n```\nmake -C /lib/modules/6.0.7-301.fc37.x86_64/build M=/home/crafter/rtw89/rtw89 modules\nmake[1]: *** /lib/modules/6.0.7-301.fc37.x86_64/build: No such file or directory.  Stop.\nmake: *** [Makefile:86: all] Error 2\n```\nI made sure I installed the packages needed that are specified in the README file.",
        "nvidia.dkms-headers-missing",
        "reboot",
    ),
    # the maintainer: disable Secure Boot or sign the module with a MOK
    (
        "https://github.com/awesometic/realtek-r8125-dkms/issues/69",
        "I download this zip, unzip, run the ./autorun.sh \nit says \n\nKey rejected by service and the module is not loaded.\nI'm stuck ????",
        "nvidia.secure-boot-blocks-module",
        "mokutil",
    ),
    # the maintainer: Secure Boot rejects the unsigned module
    (
        "https://github.com/linux-apfs/linux-apfs-rw/issues/80",
        "First if I run it barely it results in: `Operation not permitted`\n\nAnd if I try running with sudo it results in: `insmod: ERROR: could not insert module apfs.ko: Key was rejected by service`",
        "nvidia.secure-boot-blocks-module",
        "mokutil",
    ),
    # the maintainer: Secure Boot rejects unsigned modules (title and first post)
    (
        "https://github.com/lolo101/px1800kbd/issues/10",
        "modprobe: ERROR: could not insert 'px1800kbd': Key was rejected by service\n\nafter i use sudo `./install.sh dkms ` it does this error on the title and im new to linux so i dont know how to troubleshoot this so can anyone help me?",
        "nvidia.secure-boot-blocks-module",
        "mokutil",
    ),
    # the reporter: the kernel is clang-built; `make LLVM=1` builds fine
    (
        "https://github.com/amkillam/ryzen_smu/issues/63",
        "Kernels built with clang (`CONFIG_CC_IS_CLANG=y`, the CachyOS default) save clang-only flags in their build config. A plain `make` from the README's manual-install path then compiles with the host gcc and fails:\n\n```\nwarning: the compiler differs from the one used to build the kernel\n  You are using:           gcc (GCC) 16.2.1 20260810\ngcc: error: unrecognized command-line option '-mstack-alignment=8'\ngcc: error: unrecognized command-line option '-mretpoline-external-thunk'\ngcc: error: unrecognized command-line option '-fsplit-lto-unit'\ngcc: error: unrecognized command-line option '-fexperimental-late-parse-attributes'\n```",
        "nvidia.dkms-compiler-mismatch",
        "LLVM=1",
    ),
    # the reporter: make LLVM=1 "works perfectly" on the clang-built CachyOS kernel
    (
        "https://github.com/PXDiv/Div-Acer-Manager-Max/issues/187",
        "The Linuwu-Sense driver compilation fails on CachyOS, first, CachyOS kernels are compiled with LLVM/Clang instead of GCC and the current Makefile tries to use GCC by default, which fails with errors like:\n\n   gcc: error: unrecognized command-line option '-mstack-alignment=8'\n   gcc: error: unrecognized command-line option '-mretpoline-external-thunk'\n   /usr/bin/ld: no se reconoce el modo de emulación: llvm",
        "nvidia.dkms-compiler-mismatch",
        "LLVM=1",
    ),
    # the reporter: `akmods --kernels $(uname -r)` built the module, then nvidia-smi worked
    (
        "https://github.com/gridhead/nvidia-auto-installer-for-fedora-linux/issues/56",
        "Ok so i folllowed the steps outlined by @sylvoie in [this thread](https://github.com/t0xic0der/nvidia-auto-installer-for-fedora/issues/44#issuecomment-650782267) and I had driver failing and falling back to noveau.",
        "nvidia.module-not-built-for-kernel",
        "akmods",
    ),
    # a Pop!_OS maintainer: the message shows after the upgrade until the reboot; no issue after rebooting
    (
        "https://github.com/pop-os/beta/issues/137",
        "after a fresh install, upgrading the OS causes NVRM: API mismatch\n\n**Steps to reproduce (if you know):**\n\ninstall NVIDIA ISO\napt upgrade OS (pop OS store)\nbefore rebooting, check dmesg\n\n**Expected behavior:**\n               NVRM: API mismatch: the client has the version 465.24.02, but\n               NVRM: this kernel module has the version 460.67.  Please\n               NVRM: make sure that this kernel module and all NVIDIA driver\n               NVRM: components have the same version.",
        "nvidia.driver-library-mismatch",
        "reboot",
    ),
    # the maintainer: re-run the DKMS hooks; the reporter rebuilt with dkms install --all
    (
        "https://github.com/voidlinux/void-packages/issues/5745",
        "After the last update update from 375.26 to 378.13 my system doesn't run. I see the message in console \"nvidia-modeset: Version mismatch: nvidia.ko(378.13) nvidia-modeset(375.26)",
        "nvidia.driver-library-mismatch",
        "dkms",
    ),
    # the DKMS error went once the stale /var/lib/dkms/nvidia/<version> was removed (the fix of issue #56
    # linked there; the reporter: "I have fixed the DKMS issue")
    (
        "https://github.com/negativo17/nvidia-driver/issues/64",
        'I allowed it to complete and restarted my machine. Now every time I login it starts a nouveau Wayland session.\n\nI have the following in my logs:\n```\n"started fallback to nouveau if nvidia did not load"\n"File: /var/lib/dkms/nvidia/396.54/source/dkms.conf does not exist."\n```\n\n396.54 is old now isn\'t it?',
        "nvidia.module-not-built-for-kernel",
        "/var/lib/dkms/nvidia/396.54",
    ),
    # a linux-tkg LLVM (clang) kernel; closed by the PR that builds the module with LLVM=1/clang (nvidia-all#65)
    (
        "https://github.com/Frogging-Family/nvidia-all/issues/36",
        "DKMS make.log for nvidia-465.24.02 for kernel 5.11.15-148-tkg-upds-llvm (x86_64)\nThu Apr 22 01:14:21 AM CDT 2021\nmake[1]: Entering directory '/usr/lib/modules/5.11.15-148-tkg-upds-llvm/build'\nscripts/Makefile.lib:8: 'always' is deprecated. Please use 'always-y' instead\n  SYMLINK /var/lib/dkms/nvidia/465.24.02/build/nvidia/nv-kernel.o\n  SYMLINK /var/lib/dkms/nvidia/465.24.02/build/nvidia-modeset/nv-modeset-kernel.o\n  CC [M]  /var/lib/dkms/nvidia/465.24.02/build/nvidia-peermem/nvidia-ib-peermem-stub.o\ncc: error: unrecognized command-line option ‘-Qunused-arguments’\ncc: error: unrecognized command-line option ‘-mno-global-merge’\ncc: error: unrecognized command-line option ‘-ftrivial-auto-var-init=zero’\nmake[2]: *** [scripts/Makefile.build:279: /var/lib/dkms/nvidia/465.24.02/build/nvidia-peermem/nvidia-ib-peermem-stub.o] Error 1",
        "nvidia.dkms-compiler-mismatch",
        "LLVM=1",
    ),
    # closed by morrownr/mt76#102: build with clang (LLVM=1) when the kernel was built with clang
    (
        "https://github.com/morrownr/mt76/issues/100",
        "On my laptop, cachyOS kernel is built with clang 22.1.8. Trying to build the modules fails as follows:\n```\n[5/8] Building modules\n  (non-dkms build with 16 cores)\nmake -j15 -C /lib/modules/7.2.3-1-cachyos/build M=$PWD modules\nmake[1]: Entering directory '/usr/lib/modules/7.2.3-1-cachyos/build'\nmake[1]: warning: -j15 forced in submake: resetting jobserver mode.\nmake[2]: Entering directory '/media/Games/git/mt76'\nwarning: the compiler differs from the one used to build the kernel\n  The kernel was built by: clang version 22.1.8\n  You are using:           gcc (GCC) 16.2.1 20260810\n  CC [M]  mmio.o\n  CC [M]  util.o\ngcc: error: unrecognized command-line option ‘-mstack-alignment=8’",
        "nvidia.dkms-compiler-mismatch",
        "LLVM=1",
    ),
    # the reporter: with cc pointing to gcc the modules build (switch the cc alternative back)
    (
        "https://github.com/pop-os/pop/issues/2396",
        '**Issue/Bug Description:**\nIf cc alternative points to clang, modules build fail due to argument "-fconservative-stack" unknown on clang.\nIf cc alternative points to gcc, modules build successfully',
        "nvidia.dkms-compiler-mismatch",
        "update-alternatives",
    ),
]


@pytest.mark.parametrize(
    ("url", "text", "finding_id", "knob"), KNOB, ids=[f"{i}-{k[0]}" for i, k in enumerate(KNOB)]
)
def test_a_kernel_module_message_gets_its_cause_and_the_knob(url, text, finding_id, knob) -> None:
    assert_first_naming(text, finding_id, knob, url)


# real messages of other causes the new patterns could catch: gcc handed clang's -mllvm in an
# Android NDK build (no kernel module), optimus-manager loading nouveau itself
LOOKALIKE = [
    (
        "https://github.com/obfuscator-llvm/obfuscator/issues/50",
        "wang@ubuntu:~/Downloads/hello/jni$ ndk-build -B\n[armeabi] Compile thumb  : hello <= hello.c\n[armeabi] Executable     : hello\n[armeabi] Install        : hello => libs/armeabi/hello\n[x86] Compile        : hello <= hello.c\n[x86] Executable     : hello\n[x86] Install        : hello => libs/x86/hello\n[arm64-v8a] Compile        : hello <= hello.c\naarch64-linux-android-gcc: error: unrecognized command line option '-mllvm'\naarch64-linux-android-gcc: error: unrecognized command line option '-sub'\naarch64-linux-android-gcc: error: unrecognized command line option '-mllvm'\naarch64-linux-android-gcc: error: unrecognized command line option '-fla'",
        "nvidia.dkms-compiler-mismatch",
    ),
    (
        "https://github.com/Askannz/optimus-manager/issues/104",
        "**Describe the bug**\nUnable to disable Nouveau module\n**System info**\n* Kernel: x86_64 Linux 5.2.1-arch1-1-ARCH\n* Desktop manager: DDE\n* Display manager: LightDM",
        "nvidia.module-not-built-for-kernel",
    ),
]


test_a_look_alike_is_not_read_as_the_module_cause = source_lookalike_test(
    LOOKALIKE, may_be_empty=True
)
