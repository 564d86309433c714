"""Round 24's changes: phrasings of the commonest symptoms that read as no problem at all, and the
causes the fresh development sample (tests/triage_corpus/train/) met. A report reaches its
confirmed cause first with a fix naming the knob the confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import source_knob_test, source_lookalike_test, training_case_test

# (thread, text, finding id, knob)
ROWS = [
    # "every run shows cpu" on an RTX 3060, in Chinese: the CPU-only wheel first
    (
        "https://github.com/yatengLG/ISAT_with_segment_anything/issues/12",
        "我用的是RTX3060(12G),每次运行项目都显示是cpu。是否是pytroch版本太低的缘故？",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl",
    ),
    # an AMD GPU and a CUDA wheel's missing libnvrtc: the package's ROCm build, not CUDA libraries
    (
        "https://github.com/tile-ai/tilelang/issues/90",
        "Running on amd gpu with pip installed package gives the following error:\n"
        '  File "/opt/conda/envs/_/lib/python3.10/ctypes/__init__.py", line 374, in __init__\n'
        "    self._handle = _dlopen(self._name, mode)\n"
        "OSError: libnvrtc.so.12: cannot open shared object file: No such file or directory",
        "rocm.cuda-torch-on-amd",
        "build from source",
    ),
    # an RTX 3090 that "can't work with some pytorch version": a CUDA 11 build
    (
        "https://github.com/TencentARC/UMT/issues/15",
        "I use the RTX 3090 to run the code, and I got the error same as title.\nI google, it "
        "seems 3090 compatibility problem, it cant work with some pytorch version.",
        "torch.gpu-too-new-for-build",
        "cu11",
    ),
    # a bare "Illegal instruction": the CPU's flags, then a build without AVX
    (
        "https://www.tensorflow.org/install/pip#hardware_requirements",
        "报错信息为：\nIllegal instruction (core dumped)",
        "platform.cpu-instruction-unsupported",
        "avx",
    ),
    # the same in a Proxmox VM: the VM's CPU type leads
    (
        "https://pve.proxmox.com/wiki/Qemu/KVM_Virtual_Machines#qm_cpu",
        "Running it inside a Proxmox VM I get:\nIllegal instruction (core dumped)",
        "platform.cpu-instruction-unsupported",
        "--cpu host",
    ),
    # PyG's wheels under conda-forge's torch, the package written with a hyphen
    (
        "https://github.com/pyg-team/pytorch_geometric/issues/9496",
        "I have pytorch                   2.3.1           cpu_generic_py310ha4c588e_0    "
        "conda-forge installed\npip install torch-scatter -f "
        "https://data.pyg.org/whl/torch-2.3.0+cpu.html\nand get the OS error when import it\n"
        "OSError: /opt/conda/lib/python3.10/site-packages/torch_scatter/_version_cpu.so: "
        "undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSs",
        "torch.extension-abi-mismatch",
        "pytorch.org",
    ),
]

ROWS += [
    # the same symptom in other words, each once read as no problem
    (
        "https://pytorch.org/get-started/locally/",
        text,
        "torch.cpu-build-on-gpu-host",
        "torch.__version__",
    )
    for text in [
        "RTX 3060, device shows cpu",
        "我的显卡是3060，但是一直显示cpu",
        "training is very slow, it seems to use the CPU, RTX 4090",
        "my 4090 is not being detected by pytorch",
        "pytorch无法识别显卡",
        "GPU usage stays at 0% while the CPU is at 100% when I train on my RTX 3060",
    ]
]

ROWS += [
    # an update described with a gerund: the driver broke under the running module
    (
        "https://docs.nvidia.com/deploy/driver-persistence/index.html",
        "after updating ubuntu nvidia-smi stopped working",
        "nvidia.driver-library-mismatch",
        "reboot",
    ),
    # the GPU count after the hang: multi-GPU P2P
    (
        "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html",
        "training hangs at the start when I use 4 GPUs, single GPU works fine",
        "nccl.p2p-broken-acs-iommu",
        "NCCL_P2P_DISABLE",
    ),
]

ROWS += [
    # "DLL load failed" says Windows by itself: the VC++ runtime entry
    (
        "https://github.com/pytorch/pytorch/issues/39734",
        "import torch fails with DLL load failed",
        "windows.dll-dependency-missing",
        "vc_redist",
    ),
    (
        "https://github.com/pytorch/pytorch/issues/39734",
        "import torch报错 DLL load failed",
        "windows.dll-dependency-missing",
        "vc_redist",
    ),
    # the two CUDA versions compared in Chinese: nvidia-smi's is the driver's
    (
        "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/index.html#environment-setup",
        "nvidia-smi显示的cuda版本是12.2，nvcc -V显示11.8，是不是冲突了",
        "cuda.toolkits-disagree",
        "nvcc",
    ),
]

test_fresh_reports_reach_their_cause = source_knob_test(ROWS)

# (thread, text, finding id that must stay out of the top three)
LOOKALIKES = [
    # CPU usage is not "shows cpu"
    (
        "https://pytorch.org/get-started/locally/",
        "nvidia-smi shows cpu usage at 100% while the model loads",
        "torch.cpu-build-on-gpu-host",
    ),
    # detected by pytorch: no fault
    (
        "https://pytorch.org/get-started/locally/",
        "the 4090 is detected by pytorch fine and training is fast",
        "torch.cpu-build-on-gpu-host",
    ),
    # a CUDA library missing on an NVIDIA machine is not the AMD cause
    (
        "https://github.com/tile-ai/tilelang/issues/90",
        "OSError: libnvrtc.so.12: cannot open shared object file: No such file or directory\n"
        "GPU: NVIDIA GeForce RTX 4090, nvidia-smi 550.54",
        "rocm.cuda-torch-on-amd",
    ),
    # an RTX 3090 with a torch that has its kernels: not the Ampere cause
    (
        "https://github.com/TencentARC/UMT/issues/15",
        "My RTX 3090 works fine with torch 2.1 but the loss is NaN",
        "torch.gpu-too-new-for-build",
    ),
    # Paddle's illegal instruction has its own entry
    (
        "https://github.com/PaddlePaddle/Paddle/issues/2531",
        "import paddle\nIllegal instruction (core dumped)",
        "platform.cpu-instruction-unsupported",
    ),
    # a hang after some epochs is not the start-up P2P hang
    (
        "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html",
        "training hangs after 3 epochs when using 4 GPUs",
        "nccl.p2p-broken-acs-iommu",
    ),
    # import torch failing on Linux is not the Windows runtime
    (
        "https://github.com/pytorch/pytorch/issues/39734",
        "import torch fails with undefined symbol on ubuntu",
        "windows.dll-dependency-missing",
    ),
    # a driver update on Windows followed by an app crash is not the Linux module mismatch
    (
        "https://docs.nvidia.com/deploy/driver-persistence/index.html",
        "Crash after updating the nvidia drivers on Windows 11",
        "nvidia.driver-library-mismatch",
    ),
]

test_lookalikes_stay_clear = source_lookalike_test(LOOKALIKES, may_be_empty=True)

# the development sample's cases as the corpus scores them (their own thread out of the case base):
# (training case, finding id, knob, thread)
CASES = [
    (
        "en-6202-pyg-torch-scatter-conda-forge-torch.txt",
        "torch.extension-abi-mismatch",
        "conda-forge",
        "https://github.com/pyg-team/pytorch_geometric/issues/9496",
    ),
    (
        "en-6207-umt-rtx3090-upgrade-pytorch.txt",
        "torch.gpu-too-new-for-build",
        "cu11",
        "https://github.com/TencentARC/UMT/issues/15",
    ),
    (
        "en-6400-tilelang-no-rocm-wheel-libnvrtc.txt",
        "rocm.cuda-torch-on-amd",
        "rocm",
        "https://github.com/tile-ai/tilelang/issues/90",
    ),
    (
        "en-6407-jetson-stats-l4t-3244-jetpack-441.txt",
        "jetson.jtop-l4t-unsupported",
        "jetson_stats.service",
        "https://github.com/rbonghi/jetson_stats/issues/90",
    ),
    (
        "zh-2524-isat-3060-cu102-torch.txt",
        "torch.cpu-build-on-gpu-host",
        "download.pytorch.org/whl",
        "https://github.com/yatengLG/ISAT_with_segment_anything/issues/12",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_the_vm_cpu_type_fix_is_offered_only_for_a_vm() -> None:
    """The generic illegal-instruction finding offers the VM's CPU type (Proxmox's `--cpu host`)
    only when the paste names a virtual machine; the CPU-flags check is offered either way."""

    def fixes(text: str) -> str:
        hit = [
            f for f in triage_text(text).findings if f.id == "platform.cpu-instruction-unsupported"
        ]
        assert hit, text
        return " ".join(c for fix in hit[0].fixes for c in (fix.summary, *fix.commands))

    bare = fixes("Illegal instruction (core dumped)")
    in_vm = fixes("Inside my Proxmox VM:\nIllegal instruction (core dumped)")
    assert "--cpu host" not in bare and "/proc/cpuinfo" in bare
    assert "--cpu host" in in_vm and "/proc/cpuinfo" in in_vm
