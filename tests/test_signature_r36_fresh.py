"""Round 36's changes: the causes the fresh development samples (tests/triage_corpus/train/) met
that envdoctor did not read (an NVIDIA Container Toolkit update breaking the device cgroup, rootless
Podman without the video group, an initramfs carrying the old NVIDIA module, a 24 GB Tesla on an
old board, FlashAttention fed float32, torchvision.datapoints, a project's own extension built
without CUDA, Paddle's multi-node launch, an application's rocBLAS without a listed gfx target,
Lightning in an interactive Slurm shell), and fixes that named nothing the thread turned on (an
older Triton for an old driver, a newer GPU for Triton, simpledrm, --master / --host)."""

from __future__ import annotations

from tests.triage_lines import (
    assert_read_instead,
    finding_ids,
    finding_origins,
    fix_texts,
    source_knob_test,
    training_case_test,
)

# (thread, text, finding id, knob): canonical lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1487",
        "I am encountering a critical failure when attempting to run GPU containers using **Docker "
        "Rootless** after upgrading `nvidia-container-toolkit` from version **1.17.8-1** to "
        "**1.18.0-1**.\nnvidia-container-cli: mount error: failed to add device rules: unable to "
        "find any existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) "
        "failed: operation not permitted",
        "container.toolkit-release-regression",
        "1.17.8",
    ),
    (
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/210",
        "* Running podman rootless returns the error `Failed to initialize NVML: Insufficient "
        "Permissions`. \n* Running with root works as expected. ",
        "container.rootless-podman-drops-groups",
        "keep-groups",
    ),
    (
        "https://github.com/openSUSE/sdbootutil/issues/22",
        "When installing a new nvidia driver (possibly others as well), the user is dropped to "
        "console upon reboot. Dmesg will show `NVRM: Api mismatch`. This is caused by the driver "
        "being of the old version, and the client being the newly updated version.",
        "nvidia.initramfs-stale-driver-module",
        "dracut",
    ),
    (
        "https://github.com/triton-lang/triton/issues/2971",
        "RuntimeError: Triton Error [CUDA]: device kernel image is invalid.\n\nNVIDIA-SMI "
        "470.182.03   Driver Version: 470.182.03   CUDA Version: 11.4",
        "cuda.toolkit-newer-than-driver",
        "older Triton",
    ),
    (
        "https://github.com/vllm-project/vllm/issues/13202",
        "RuntimeError: Found Tesla P40 which is too old to be supported by the triton GPU compiler, "
        "which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but "
        "your device is of CUDA capability 6.1",
        "torch.triton-gpu-too-old",
        "compute capability 7.0 or newer",
    ),
    (
        "https://github.com/QwenLM/Qwen3/issues/406",
        "RuntimeError: FlashAttention only support fp16 and bf16 data type",
        "flashattn.fp32-input-unsupported",
        'torch_dtype="auto"',
    ),
    (
        "https://github.com/lyuwenyu/RT-DETR/issues/218",
        "我使用的是自己的数据集，执行train.py时总是报错ImportError: cannot import name 'datapoints' "
        "from 'torchvision'",
        "torch.release-too-new-for-app",
        "torchvision==0.15.2",
    ),
    (
        "https://github.com/hukaixuan19970627/yolov5_obb/issues/400",
        "inds = nms_rotated_ext.nms_rotated(dets_th, scores, iou_thr)\nRuntimeError: Not compiled "
        "with GPU support",
        "torch.extension-abi-mismatch",
        "nms_rotated_ext",
    ),
    (
        "https://github.com/PaddlePaddle/PaddleOCR/issues/6455",
        "server not ready, wait 3 sec to retry...\nnot ready endpoints:['10.36.10.40:6070', "
        "'10.36.10.40:6071', '10.36.10.40:6072', '110.36.10.40:6073', '10.36.10.40:6072', "
        "'10.36.10.41:6073']",
        "launch.multinode-peer-not-started",
        "every machine",
    ),
    (
        "https://github.com/YellowRoseCx/koboldcpp-rocm/issues/134",
        "I've noticed outdated and especially missing files such as "
        "`TensileLibrary_lazy_gfx1101.dat` once extracted in` ...local\\temp\\_MEI*`\n"
        "rocBLAS error: Cannot read ...\\TensileLibrary.dat: No such file or directory for GPU "
        "arch : gfx1101",
        "rocm.hip-sdk-tensile-missing-for-gfx",
        "HIP_PATH",
    ),
    (
        "https://github.com/hiyouga/LlamaFactory/issues/8045",
        "多机多卡预训练，从节点无法连接到主节点\nzgiot:1183664:1184669 [0] NCCL INFO "
        "socketPollConnect: connect returned No route to host, retrying (34/34) after sleep for "
        "3400 msec",
        "nccl.socket-interface-wrong",
        "NCCL_SOCKET_IFNAME",
    ),
    (
        "https://github.com/dusty-nv/jetson-containers/issues/115",
        "・Jetson nano 4GB\n・Jetpack 4.6\n・docker 20.10.7\nfailed to create shim: OCI runtime "
        "create failed: container_linux.go:380: starting container process caused: error adding "
        "seccomp filter rule for syscall clone3: permission denied: unknown",
        "container.toolkit-too-old-for-runtime",
        "nvidia-docker2",
    ),
    (
        "https://github.com/balena-os/balena-jetson-orin/issues/519",
        "/usr/bin/ld: warning: libnvdla_compiler.so, needed by "
        "/usr/lib/aarch64-linux-gnu/libnvinfer.so, not found (try using -rpath or -rpath-link)",
        "jetson.container-l4t-packages-missing",
        "nvidia-l4t-dla-compiler",
    ),
    (
        "https://github.com/dusty-nv/jetbot_ros/issues/54",
        "docker: Error response from daemon: manifest for dustynv/jetbot_ros:foxy-r32.7.4 not "
        "found: manifest unknown: manifest unknown.",
        "jetson.container-l4t-mismatch",
        "tag.sh",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (training case, finding id, knob, thread): development cases of round 36's harvests that reach
# their confirmed cause with the case's own fix keywords
CASES = [
    (
        "en-29405-lightning-slurm-interactive-ddp-one-process.txt",
        "cluster.interactive-shell-slurm-detected",
        "--job-name=interactive",
        "https://github.com/Lightning-AI/pytorch-lightning/issues/16730",
    ),
    (
        "en-29408-talos-simpledrm-vfio-bar-reserve.txt",
        "vm.passthrough-bar-reserved",
        "simpledrm",
        "https://github.com/siderolabs/talos/issues/14356",
    ),
    (
        "en-29605-rebaruefi-z77-tesla-m40-no-post-32gb-bar.txt",
        "hardware.bar-space-too-small-for-gpu",
        "Above 4G Decoding",
        "https://github.com/xCuri0/ReBarUEFI/issues/383",
    ),
    (
        "en-30100-toolkit-1177-breaks-pyxis-enroot.txt",
        "container.toolkit-release-regression",
        "1.17.6",
        "https://github.com/NVIDIA/nvidia-container-toolkit/issues/1093",
    ),
    (
        "zh-29103-paddle-cuda102-rtx3060ti-hang.txt",
        "paddle.gpu-too-new-for-build",
        "post112",
        "https://github.com/PaddlePaddle/Paddle/issues/39154",
    ),
    (
        "zh-29306-paddle-multinode-docker-nccl-socket-hang-host-master.txt",
        "nccl.socket-interface-wrong",
        "--host",
        "https://github.com/PaddlePaddle/Paddle/issues/68480",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_a_rootless_device_cgroup_error_without_an_update_is_not_called_a_regression() -> None:
    """The toolkit-regression reading needs an update (or a release) in the paste; rootless Docker
    alone keeps the no-cgroups reading."""
    line = (
        "nvidia-container-cli: mount error: failed to add device rules: unable to find any "
        "existing device filters attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) "
        "failed: operation not permitted: unknown."
    )
    rootless = "dockerd-rootless.sh is running\n" + line
    ids = finding_ids(rootless)
    assert ids[0] == "container.rootless-needs-no-cgroups"
    assert "container.toolkit-release-regression" not in ids


def test_a_plain_driver_library_mismatch_is_not_blamed_on_the_initramfs() -> None:
    """Without a reboot or an initramfs in the paste, the mismatch is the running old module."""
    ids = finding_ids("Failed to initialize NVML: Driver/library version mismatch")
    assert ids[0] == "nvidia.driver-library-mismatch"
    assert "nvidia.initramfs-stale-driver-module" not in ids


def test_insufficient_permissions_without_rootless_podman_keeps_the_group_reading() -> None:
    text = "Failed to initialize NVML: Insufficient Permissions"
    assert_read_instead(
        text, "container.rootless-podman-drops-groups", "nvidia.device-node-permission"
    )


def test_a_gfx_target_the_hip_sdk_does_not_list_gets_no_copy_advice() -> None:
    """Copying the HIP SDK's rocBLAS files helps only for targets the HIP SDK carries."""
    text = (
        "rocBLAS error: Cannot read C:\\Users\\me\\AppData\\Local\\Temp\\_MEI1234\\rocblas\\library"
        "\\TensileLibrary.dat: No such file or directory for GPU arch : gfx1032"
    )
    assert_read_instead(text, "rocm.hip-sdk-tensile-missing-for-gfx", "rocm.gfx-unsupported")


def test_a_tesla_without_a_boot_problem_is_not_read_as_a_bar_problem() -> None:
    """The prose entry needs the boot failure (or Above 4G) beside the big-BAR card; a similar
    confirmed case may still be shown as weak evidence."""
    text = "I have a Tesla P40 24GB and training is slow on it, the BIOS is up to date"
    assert "signature:hardware.big-bar-tesla-no-post.prose" not in finding_origins(text)
    no_post = text.replace("training is slow on it", "the board does not POST with it")
    assert "signature:hardware.big-bar-tesla-no-post.prose" in finding_origins(no_post)


def test_the_older_triton_advice_needs_an_old_driver() -> None:
    """On a current driver the invalid-image reading keeps its other fixes only."""
    text = (
        "RuntimeError: Triton Error [CUDA]: device kernel image is invalid.\n"
        "NVIDIA-SMI 550.54.14   Driver Version: 550.54.14   CUDA Version: 12.4"
    )
    assert not any(
        "older Triton" in fix for fix in fix_texts(text, "cuda.toolkit-newer-than-driver")
    )
    old_driver = text.replace("550.54.14", "470.182.03").replace("12.4", "11.4")
    assert any(
        "older Triton" in fix for fix in fix_texts(old_driver, "cuda.toolkit-newer-than-driver")
    )


def test_the_clone3_seccomp_reading_needs_a_jetson() -> None:
    """The JetPack 4 runtime reading needs a Jetson in the paste (an NVIDIA image name is not one)."""
    line = "error adding seccomp filter rule for syscall clone3: permission denied: unknown"
    assert "container.toolkit-too-old-for-runtime" not in finding_ids(line)
    x86 = "docker run --gpus all nvidia/cuda:11.8.0-base-ubuntu22.04\n" + line
    assert "container.toolkit-too-old-for-runtime" not in finding_ids(x86)
    assert "container.toolkit-too-old-for-runtime" in finding_ids("Jetpack 4.6\n" + line)
