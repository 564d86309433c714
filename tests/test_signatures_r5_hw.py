"""Round 5's hardware / driver / NCCL causes reach the paste that shows them, with the knob.

Each paste is written for this test in the form DKMS, make, the kernel or the tool prints it (not
taken from the triage corpus): the expected finding ranks first and its fixes name what the real
fix turns on (the package, flag or environment variable).
"""

from __future__ import annotations

import pytest
from triage_lines import assert_first_with_knob

CASES = [
    (
        "DKMS make.log only",
        """make[2]: *** [scripts/Makefile.build:243: /var/lib/dkms/nvidia/550.120/build/nvidia/nv.o] Error 1
make[1]: *** [Makefile:1945: /var/lib/dkms/nvidia/550.120/build] Error 2
make: *** [Makefile:82: modules] Error 2""",
        "nvidia.module-not-built-for-kernel",
        "linux-headers",
    ),
    (
        "DKMS build of a legacy branch on a new kernel",
        """Building module:
Cleaning build area...
'make' -j8 NV_EXCLUDE_BUILD_MODULES='' KERNEL_UNAME=6.11.2-arch1-1 modules....(bad exit status: 2)
Consult /var/lib/dkms/nvidia/470.256.02/build/make.log for more information.""",
        "nvidia.module-not-built-for-kernel",
        "LTS kernel",
    ),
    (
        "kernel built with gcc-12, make cannot find it",
        """DKMS make.log for nvidia-535.183.01 for kernel 6.8.0-45-generic (x86_64)
make[1]: Entering directory '/usr/src/linux-headers-6.8.0-45-generic'
/bin/sh: 1: x86_64-linux-gnu-gcc-12: not found
make[1]: *** [Makefile:2038: /var/lib/dkms/nvidia/535.183.01/build] Error 2""",
        "nvidia.dkms-compiler-mismatch",
        "gcc-12",
    ),
    (
        "installer's compiler check",
        """Compiler version check failed:

The major and minor number of the compiler used to
compile the kernel:

gcc version 13.2.1

does not match the compiler used here:

cc (GCC) 14.1.1""",
        "nvidia.dkms-compiler-mismatch",
        "same gcc",
    ),
    (
        "incomplete headers",
        """  CC [M]  /var/lib/dkms/nvidia/560.35.03/build/nvidia/nv.o
././include/linux/kconfig.h:5:10: fatal error: generated/autoconf.h: No such file or directory
compilation terminated.""",
        "nvidia.dkms-headers-missing",
        "linux-headers",
    ),
    (
        "PaddlePaddle on the system libnccl",
        "OSError: (External) NCCL error(1), unhandled cuda error.\n"
        "  [Hint: 'ncclUnhandledCudaError'. A call to a CUDA function failed.] "
        "(at /paddle/paddle/fluid/platform/collective_helper.cc:100)",
        "nccl.version-too-old",
        "libnccl2",
    ),
    (
        "PyTorch's bundled NCCL, unhandled cuda error",
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
        "ProcessGroupNCCL.cpp:1970, unhandled cuda error (run with NCCL_DEBUG=INFO for details), "
        "NCCL version 2.21.5\nncclUnhandledCudaError: Call to CUDA function failed.",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE=1",
    ),
    (
        "accelerate on RTX 40xx",
        "NotImplementedError: Using RTX 4000 series doesn't support faster communication "
        'broadband via P2P or IB. Please set `NCCL_P2P_DISABLE="1"` and `NCCL_IB_DISABLE="1" or '
        "use `accelerate launch` which will do this automatically.",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_IB_DISABLE=1",
    ),
    (
        "NCCL 2.18 internal error",
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
        "ProcessGroupNCCL.cpp:1333, internal error - please report this issue to the NCCL "
        "developers, NCCL version 2.18.1\nncclInternalError: Internal check failed.",
        "nccl.socket-interface-wrong",
        "NCCL_SOCKET_IFNAME",
    ),
    (
        "TensorRT 7 headers on a Jetson",
        "/usr/include/aarch64-linux-gnu/NvInfer.h:5340:13: note: declared protected here\n"
        "     virtual ~INetworkDefinition() {}\n"
        "make[2]: *** [CMakeFiles/app.dir/src/trt.cc.o] Error 1",
        "jetson.jetpack-too-old",
        "JetPack 4.6",
    ),
    (
        "numpy's OpenBLAS on a Jetson Nano, Chinese",
        "jetson nano 上 import numpy 就报 非法指令 (核心已转储)",
        "jetson.numpy-openblas-illegal-instruction",
        "numpy==1.19.4",
    ),
    (
        "PyPI torch on a Jetson",
        "Jetson Orin Nano, JetPack 6.0 (L4T R36.3.0), pip install torch\n"
        ">>> torch.cuda.is_available()\nFalse",
        "jetson.pypi-wheel",
        "l4t-pytorch",
    ),
    (
        "slurmd rejects gres.conf",
        "slurmd[2210]: fatal: gres.conf duplicate records for gpu\n$ cat /etc/slurm/gres.conf\n"
        "AutoDetect=nvml\nName=gpu File=/dev/nvidia0",
        "cluster.gres-conf-invalid",
        "AutoDetect=nvml",
    ),
    (
        "cloud instance without a GPU",
        "$ sudo modprobe nvidia\nmodprobe: ERROR: could not insert 'nvidia': No such device\n"
        "$ dmesg | tail -2\n[  41.2] NVRM: No NVIDIA graphics adapter found!\n"
        "[  41.2] NVRM: NVIDIA init module failed!",
        "vm.no-gpu-passthrough",
        "GPU instance",
    ),
    (
        "nvidia-smi ERR! readings",
        "| 41%   ERR!    P2   ERR! / 250W |  10240MiB / 11264MiB |    ERR!      Default |\n"
        "training hangs after a few minutes",
        "hardware.power-insufficient",
        "nvidia-smi -pl",
    ),
    (
        "RmInitAdapter in a Proxmox guest",
        "Proxmox VM, RTX A4000 passed through (hostpci0)\n"
        "NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0xffff:667)",
        "vm.mmio-space-too-small",
        "ovmf",
    ),
    (
        "IOMMU group shared with the host",
        "vfio 0000:0b:00.0: error getting device from group 14: Invalid argument\n"
        "Verify all devices in group 14 are bound to vfio-<bus> or pci-stub and not already in use",
        "vm.gpu-not-bound-to-vfio",
        "vfio-pci",
    ),
    (
        "NVML permissions",
        "$ nvidia-smi\nFailed to initialize NVML: Insufficient Permissions",
        "nvidia.device-node-permission",
        "NVreg_DeviceFileMode",
    ),
    (
        "a real-time kernel",
        "make -f ./scripts/Makefile.build obj=/var/lib/dkms/nvidia/550.90.07/build\n"
        "The kernel you are installing for is a PREEMPT_RT kernel!\n\n"
        "*** Failed PREEMPT_RT sanity check. Bailing out! ***",
        "nvidia.preempt-rt-kernel",
        "IGNORE_PREEMPT_RT_PRESENCE=1",
    ),
    (
        "cuDNN of another JetPack",
        "Jetson Orin NX, JetPack 5.1.2 (L4T R35.4.1)\nRuntimeError: cuDNN version incompatibility: "
        "PyTorch was compiled  against (8, 9, 4) but found runtime version (8, 6, 0).",
        "jetson.pypi-wheel",
        "l4t-pytorch",
    ),
]


@pytest.mark.parametrize(("name", "paste", "expected", "knob"), CASES, ids=[c[0] for c in CASES])
def test_cause_ranks_first_and_its_fix_names_the_knob(
    name: str, paste: str, expected: str, knob: str
) -> None:
    assert_first_with_knob(paste, expected, knob)


def test_a_gcc_missing_outside_a_kernel_build_is_not_the_kernel_compiler() -> None:
    """`gcc-12: not found` while building a Python extension is not the DKMS compiler cause."""
    from envdoctor.triage_engine import triage_text

    paste = "error: command 'gcc-12' failed\n/bin/sh: 1: gcc-12: not found\nbuilding 'mypkg._ext'"
    ids = [f.id for f in triage_text(paste).findings]
    assert "nvidia.dkms-compiler-mismatch" not in ids


PROSE = [
    ("nvidia470 dkms fails to build on kernel 6.12", "nvidia.driver-too-old-for-kernel", "LTS"),
    (
        "安装 nvidia 驱动时 dkms 编译失败，内核是 6.8",
        "nvidia.module-not-built-for-kernel",
        "headers",
    ),
    (
        "内核是用 gcc-12 编译的，系统 gcc 版本不一致，nvidia 驱动 dkms 编译失败",
        "nvidia.dkms-compiler-mismatch",
        "gcc-12",
    ),
    ("Ubuntu 升级内核后 nvidia-smi 用不了", "nvidia.module-not-built-for-kernel", "dkms"),
    (
        "training slows down over time, nvidia-smi shows the GPU at 90C",
        "hardware.gpu-overheating",
        "nvidia-smi -pl",
    ),
    ("训练到一半 NCCL 超时退出了", "nccl.collective-timeout", "timeout="),
    ("训练的时候电脑突然断电重启，没有任何报错", "hardware.power-insufficient", "nvidia-smi -pl"),
    ("nvidia-smi 里风扇和功耗都显示 ERR!", "hardware.power-insufficient", "nvidia-smi -pl"),
    (
        "nvidia-smi 很慢，每次要等十几秒才出结果",
        "nvidia.persistence-mode-off",
        "nvidia-persistenced",
    ),
    (
        "云服务器上装了 nvidia 驱动，modprobe nvidia 报 No such device",
        "vm.no-gpu-passthrough",
        "GPU instance",
    ),
    (
        "nvidia-smi shows only 3 of my 4 GPUs after a reboot, the fourth is missing",
        "hardware.gpu-reseat",
        "lspci",
    ),
    (
        "the whole machine freezes during training and I have to hard reset it, 2x RTX 3090 "
        "on a 850W PSU",
        "hardware.power-insufficient",
        "nvidia-smi -pl",
    ),
    (
        "GPU clocks stay at 300 MHz under load, nvidia-smi -q shows HW Slowdown: Active",
        "hardware.gpu-overheating",
        "PERFORMANCE",
    ),
    (
        "torch works only with sudo, as normal user torch.cuda.is_available() is False",
        "nvidia.device-node-permission",
        "usermod -aG video",
    ),
    ("nvidia-smi shows MIG mode Enabled and torch sees no GPU", "nvidia.mig-no-instances", "-cgi"),
]


@pytest.mark.parametrize(("paste", "expected", "knob"), PROSE, ids=[p[0] for p in PROSE])
def test_prose_reaches_the_cause_with_its_knob(paste: str, expected: str, knob: str) -> None:
    assert_first_with_knob(paste, expected, knob)


def test_the_headers_path_in_make_output_is_not_missing_headers() -> None:
    """make echoes its Makefile ("... auto.conf are missing.") and enters /usr/src/linux-headers-*
    on every DKMS build: neither says the headers are missing."""
    from envdoctor.triage_engine import triage_text

    paste = (
        "make[1]: Entering directory '/usr/src/linux-headers-6.8.0-45-generic'\n"
        'echo >&2 "         include/generated/autoconf.h or include/config/auto.conf are missing.";\\\n'
        "make[1]: *** [Makefile:1945: /var/lib/dkms/nvidia/550.120/build] Error 2"
    )
    ids = [f.id for f in triage_text(paste).findings]
    assert ids[:1] == ["nvidia.module-not-built-for-kernel"]
    assert "nvidia.dkms-headers-missing" not in ids
