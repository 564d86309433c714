"""Round 32's changes: the causes the fresh development samples (tests/triage_corpus/train/) met
that envdoctor did not read, and fixes that could not work. A report reaches its confirmed cause
with a fix naming the knob the confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import finding_origins, source_knob_test, training_case_test

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/JeffSHF/ColabDock/issues/28",
        "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not "
        "installed. Falling back to cpu.",
        "jax.cpu-only-jaxlib",
        "jax[cuda12]",
    ),
    (
        "https://github.com/NVIDIA/gpu-monitoring-tools/issues/184",
        'time="2021-05-08T13:03:29Z" level=info msg="Starting dcgm-exporter"\n'
        'time="2021-05-08T13:03:29Z" level=fatal msg="Error getting device cpu affinity: open '
        '/sys/bus/pci/devices/0000:8b:00.0/local_cpulist: no such file or directory"',
        "k8s.gpu-daemonset-on-cpu-node",
        "nvidia.com/gpu.present",
    ),
    (
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/280",
        "RuntimeError: cuFFT doesn't support signals of half type with compute capability less "
        "than SM_53, but the device containing input half tensor only has SM_52",
        "fit.dtype-unsupported",
        "float32",
    ),
    (
        "https://github.com/PaddlePaddle/Paddle/issues/18602",
        "| NVIDIA-SMI 410.48                 Driver Version: 410.104                   |",
        "nvidia.driver-library-mismatch",
        "NVIDIA-Linux-x86_64-410.104.run",
    ),
    (
        "https://github.com/tuna/issues/issues/604",
        "The following NEW packages will be INSTALLED:\n"
        "  _pytorch_select    anaconda/pkgs/main/win-64::_pytorch_select-1.1.0-cpu",
        "torch.cpu-build-on-gpu-host",
        "-c pytorch",
    ),
    (
        "https://github.com/vllm-project/vllm-ascend/issues/632",
        "DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\n"
        "dcmi model initialized failed, because the device is used. ret is -8020",
        "ascend.device-held-by-other-container",
        "/dev/davinci",
    ),
    (
        "https://github.com/Akegarasu/lora-scripts/issues/272",
        "ModuleNotFoundError: No module named 'bitsandbytes.cuda_setup.paths'",
        "bitsandbytes.install-broken",
        "requirements",
    ),
    (
        "https://github.com/jingyaogong/minimind/issues/588",
        "Disabling PyTorch because PyTorch >= 2.1 is required but found 2.0.1",
        "python.dependency-conflict",
        "torch to 2.1",
    ),
    (
        "https://github.com/NVIDIA/dcgm-exporter/issues/319",
        'level=fatal msg="Failed to watch metrics: Error watching fields: The third-party '
        'Profiling module returned an unrecoverable error"',
        "dcgm.profiling-fails-under-gsp-driver",
        "NVreg_EnableGpuFirmware=0",
    ),
    (
        "https://github.com/Syllo/nvtop/issues/122",
        "> ldconfig -p\nldconfig: Can't open cache file "
        "/nix/store/73k2knwhv4zzizsjr1g1dqjvzkamx8bd-glibc-2.33-49/etc/ld.so.cache",
        "system.foreign-glibc-ignores-host-ld-cache",
        "outside nix-shell",
    ),
    (
        "https://github.com/NVIDIA/libnvidia-container/issues/2",
        "make\nsudo make install\nnvidia-container-cli --help\nnvidia-container-cli: error while "
        "loading shared libraries: libnvidia-container.so.1: cannot open shared object file: No "
        "such file or directory",
        "system.ldconfig-cache-stale",
        "sudo ldconfig",
    ),
    (
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/978",
        "No supported Nvidia GPU found, use CPU instead",
        "torch.cpu-build-on-gpu-host",
        "+cpu",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (training case, finding id, knob, thread): development cases of samples r32a / r32b that reach
# their confirmed cause with the case's own fix keywords
CASES = [
    (
        "en-22751-pyxis-docker-export-lost-nvidia-env.txt",
        "container.no-gpus-injected",
        "NVIDIA_VISIBLE_DEVICES",
        "https://github.com/NVIDIA/pyxis/issues/96",
    ),
    (
        "en-22752-verl-ray-cpu-task-cuda-visible-empty.txt",
        "cuda.visible-devices-hide-gpus",
        "num_gpus",
        "https://github.com/verl-project/verl/issues/441",
    ),
    (
        "en-22759-dcgm-exporter-daemonset-on-non-gpu-k8s-nodes.txt",
        "k8s.gpu-daemonset-on-cpu-node",
        "nodeSelector",
        "https://github.com/NVIDIA/gpu-monitoring-tools/issues/184",
    ),
    (
        "en-22761-slurm-login-node-nvidia-smi-not-found.txt",
        "cluster.no-gpu-allocated",
        "--gres=gpu",
        "https://github.com/AidenDurrant/abdn-hpc/issues/1",
    ),
    (
        "en-22762-openhpc-slurm-package-without-gpu-nvml.txt",
        "cluster.slurm-built-without-nvml",
        "gpu_nvml",
        "https://github.com/openhpc/ohpc/issues/1910",
    ),
    (
        "en-22812-jax-cpu-jaxlib-colabdock.txt",
        "jax.cpu-only-jaxlib",
        "jax[cuda12]",
        "https://github.com/JeffSHF/ColabDock/issues/28",
    ),
    (
        "en-22817-gpax-jax-cpu-only-jaxlib.txt",
        "jax.cpu-only-jaxlib",
        "CUDA-enabled jaxlib",
        "https://github.com/ziatdinovmax/gpax/issues/63",
    ),
    (
        "zh-22631-gptsovits-cufft-half-sm52.txt",
        "fit.dtype-unsupported",
        "5.3",
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/280",
    ),
    (
        "zh-22639-gptsovits-1660s-fp16-nan-audio.txt",
        "torch.fp16-broken-gtx16-series",
        "is_half",
        "https://github.com/RVC-Boss/GPT-SoVITS/issues/24",
    ),
    (
        "zh-22663-paddle-nvidia-smi-driver-userspace-mismatch.txt",
        "nvidia.driver-library-mismatch",
        "NVIDIA-Linux-x86_64-410.104.run",
        "https://github.com/PaddlePaddle/Paddle/issues/18602",
    ),
    (
        "zh-22669-vllm-ascend-npu-held-by-other-container-8020.txt",
        "ascend.device-held-by-other-container",
        "other container",
        "https://github.com/vllm-project/vllm-ascend/issues/632",
    ),
    (
        "zh-22694-lora-scripts-bitsandbytes-cuda-setup-paths.txt",
        "bitsandbytes.install-broken",
        "requirements",
        "https://github.com/Akegarasu/lora-scripts/issues/272",
    ),
    (
        "zh-22720-tuna-conda-defaults-cpu-pytorch.txt",
        "torch.cpu-build-on-gpu-host",
        "-c pytorch",
        "https://github.com/tuna/issues/issues/604",
    ),
    (
        "zh-22722-hami-ssh-session-no-memory-limit.txt",
        "k8s.vgpu-limit-env-not-inherited",
        "CUDA_DEVICE_MEMORY_LIMIT",
        "https://github.com/Project-HAMi/HAMi/issues/1112",
    ),
    (
        "en-22930-nvtop-nix-shell-build-no-gpu-to-monitor.txt",
        "system.foreign-glibc-ignores-host-ld-cache",
        "outside nix-shell",
        "https://github.com/Syllo/nvtop/issues/122",
    ),
    (
        "en-22932-dcgm-exporter-a10-profiling-module-gsp-driver.txt",
        "dcgm.profiling-fails-under-gsp-driver",
        "proprietary driver",
        "https://github.com/NVIDIA/dcgm-exporter/issues/319",
    ),
    (
        "en-22936-libnvidia-container-cli-ldconfig-after-make-install.txt",
        "system.ldconfig-cache-stale",
        "sudo ldconfig",
        "https://github.com/NVIDIA/libnvidia-container/issues/2",
    ),
    (
        "zh-22870-squirrel-rife-gpu-overclock-hang.txt",
        "hardware.overclock-unstable",
        "overclock",
        "https://github.com/Justin62628/Squirrel-RIFE/issues/155",
    ),
    (
        "zh-22872-paddleocrsharp-runtime-package-missing.txt",
        "windows.app-dll-not-beside-exe",
        "Paddle.Runtime.win_x64",
        "https://github.com/raoyutian/PaddleOCRSharp/issues/1",
    ),
    (
        "zh-22641-rvc-3070laptop-no-nvidia-gpu-cpu-torch.txt",
        "torch.cpu-build-on-gpu-host",
        "cuda build",
        "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI/issues/978",
    ),
    (
        "zh-22690-framepack-bsod-memory-management-pagefile.txt",
        "windows.pagefile-too-small",
        "page file",
        "https://github.com/lllyasviel/FramePack/issues/210",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_a_job_that_requested_gpus_is_not_told_to_request_them() -> None:
    """ "Request GPUs (--gres=gpu:1)" cannot fix a job whose own batch lines already request one:
    the Slurm prose causes stay quiet then, and still speak for a job that shows no request."""
    symptom = "but in the slurm job torch.cuda.is_available() is False\n"
    requested = [
        "#SBATCH --gres=gpu:1\n#SBATCH -p gpu\n",
        "$ srun --gpus=1 -p a100 python train.py\n",
        "salloc -N 1 --gpus-per-node=4 -t 60\n",
    ]
    for lines in requested:
        ids = [f.id for f in triage_text(lines + symptom).findings]
        assert "cluster.no-gpu-allocated" not in ids, (lines, ids)
    assert any(
        f.id == "cluster.no-gpu-allocated"
        for f in triage_text("#SBATCH -p gpu\n#SBATCH -t 60\n" + symptom).findings
    )
    # a request quoted in prose is no command line of the job (the NoDevFiles explanation of en-0224)
    prose = 'the option "SBATCH --gres=gpu:1" lets SLURM allocate the GPU\nCUDA_VISIBLE_DEVICES=NoDevFiles\n'
    assert triage_text(prose).findings[0].id == "cluster.no-gpu-allocated"


def test_wsl_and_windows_nvidia_smi_versions_are_no_mismatch() -> None:
    """Under WSL nvidia-smi's Linux libraries (three-part version) and the Windows driver
    (two-part) differ by design; only a Linux header of one branch with two releases is a
    user-space / kernel mismatch."""
    wsl = "| NVIDIA-SMI 560.35.02              Driver Version: 560.94         CUDA Version: 12.6 |"
    named = "Ubuntu under WSL2\n" + wsl.replace("560.35.02", "560.35.03")
    for text in (wsl, named):
        assert "signature:nvidia.smi-and-kernel-driver-differ" not in finding_origins(text), text
    linux = "| NVIDIA-SMI 535.104.05    Driver Version: 535.129.03    CUDA Version: 12.2 |"
    assert "signature:nvidia.smi-and-kernel-driver-differ" in finding_origins(linux)


def test_a_cuda_library_missing_after_make_install_is_not_the_loader_cache() -> None:
    """ "Run sudo ldconfig" is for a library the install itself put in place; a CUDA runtime or
    framework library missing at run time is the toolkit's or wheel's cause."""
    text = (
        "sudo make install\n./demo: error while loading shared libraries: libcudart.so.11.0: "
        "cannot open shared object file: No such file or directory"
    )
    assert "signature:system.ldconfig-after-make-install" not in finding_origins(text)


def test_the_web_ui_keeps_its_own_half_precision_cause() -> None:
    """A GTX 1660 giving NaN in Stable Diffusion web UI is the web UI's --no-half cause, not the
    generic fp16 entry (which would say the same in other words)."""
    text = "stable diffusion webui on my GTX 1660 Super: images are black, NaN in the output"
    assert "signature:torch.fp16-broken-gtx16-series" not in finding_origins(text)
    assert "signature:torch.fp16-broken-gtx16-series" in finding_origins(
        "TTS inference on a GTX 1660 Super: the decoded audio tensor is all nan"
    )
