"""Round 17 sweep of Kubernetes GPU scheduling and the host driver too old for a CUDA build
(checks/signatures/{kubernetes,containers,cuda}.toml): each message, verbatim from its thread, reaches the cause the
thread confirmed first, and one of that cause's fixes names the knob the confirmed fix turned;
look-alike messages of other causes do not rank the new entries first."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_naming, assert_not_first

# (thread, message, the finding id first, a string one of its fixes' summaries or commands holds)
KNOB = [
    (
        # the maintainer: the k3s containerd config is in the v1 format; the toolkit writes v2 unless
        # CONTAINERD_USE_LEGACY_CONFIG is true (the driver, 515, supports the image's CUDA 11.7)
        "https://github.com/NVIDIA/gpu-operator/issues/415",
        "`kubectl --kubeconfig -n gpu logs cuda-vectoradd`\n"
        "```\n"
        "Failed to allocate device vector A (error code CUDA driver version is insufficient for C"
        "UDA runtime version)!\n"
        "[Vector addition of 50000 elements]\n"
        "```\n"
        "\n"
        "**Environment infomation**\n"
        "```\n"
        "OS Version: Red Hat Enterprise Linux release 8.4\n"
        "kernel: 4.18.0-305.el8.x86_64\n"
        "\n"
        "K3S Version: v1.24.3+k3s1\n"
        "\n"
        "GPU Operator Version: v22.9.0\n"
        "CUDA Version: 11.7.1-base-ubi8\n"
        "\n"
        "Driver Pre-installed: No\n"
        "Driver Version：515.65.01-rhel8.4\n",
        "k8s.operator-containerd-paths",
        "CONTAINERD_USE_LEGACY_CONFIG",
    ),
    (
        # the page (a GPU Operator issue on k0s, in Chinese): operator v24.9's toolkit reads containerd's
        # config through its CLI, which k0s' static containerd does not answer; pinning toolkit v1.16.2
        # with CONTAINERD_CONFIG / CONTAINERD_SOCKET at k0s' paths worked
        "https://blog.gitcode.com/a367d657fb94fcaf857d1ac2663fa2bd.html",
        "当在k0s环境中部署GPU Operator v24.9.x时,会出现以下错误:\n"
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox run"
        'time: no runtime for "nvidia" is configured',
        "k8s.operator-containerd-paths",
        "toolkit.version=v1.16.2",
    ),
    (
        # the validator's own message names the switch (DISABLE_DEV_CHAR_SYMLINK_CREATION in the
        # ClusterPolicy's validator.driver.env); nvidia_modeset cannot load on this node
        "https://github.com/NVIDIA/gpu-operator/issues/671",
        "Error: error validating driver installation: error creating symlink creator: failed to l"
        "oad NVIDIA kernel modules: failed to load module nvidia-modeset: exit status 1; output=m"
        "odprobe: ERROR: could not insert 'nvidia_modeset': No such device\n"
        "\n"
        "\n"
        "Failed to create symlinks under /dev/char that point to all possible NVIDIA character de"
        "vices.\n"
        "The existence of these symlinks is required to address the following bug:\n"
        "\n"
        "\n"
        "This bug impacts container runtimes configured with systemd cgroup management enabled.\n"
        "To disable the symlink creation, set the following envvar in ClusterPolicy:\n"
        "\n"
        "    validator:\n"
        "      driver:\n"
        "        env:\n"
        "        - name: DISABLE_DEV_CHAR_SYMLINK_CREATION\n"
        '          value: "true"',
        "k8s.validator-dev-char-symlinks-failed",
        "DISABLE_DEV_CHAR_SYMLINK_CREATION",
    ),
    (
        # a commenter: with failRequestsGreaterThanOne (always on for MPS) a request above one replica of
        # a shared GPU fails with this error (the device plugin's README documents the flag)
        "https://github.com/NVIDIA/k8s-device-plugin/issues/929",
        "If I set nvidia.com/gpu > 1, I encounter the error: ‘request for “nvidia.com/gpu”: inval"
        "id request: maximum request size for shared resources is 1; found 10, which is unexpecte"
        "d’.",
        "k8s.shared-gpu-request-over-one",
        "failRequestsGreaterThanOne",
    ),
    (
        # the maintainer (klueska): MicroK8s runs its own containerd; `microk8s enable gpu` makes nvidia
        # its default runtime (Docker's daemon.json, which the reporter had set, does not reach it)
        "https://github.com/NVIDIA/k8s-device-plugin/issues/182",
        "I'm also seeing this error with my `microk8s` cluster.\n"
        "2020/10/14 18:04:53 Loading NVML\n"
        "2020/10/14 18:04:53 Failed to initialize NVML: could not load NVML library.\n"
        "2020/10/14 18:04:53 If this is a GPU node, did you set the docker default runtime to `nv"
        "idia`?\n",
        "container.nvidia-runtime-not-configured",
        "microk8s enable gpu",
    ),
    (
        # the page: 12040 is CUDA 12.4, 12060 CUDA 12.6; update the driver to 560 or newer (or use the
        # release built for CUDA 12.4)
        "https://blog.gitcode.com/7ca608e6791988729856a22e5045f9f6.html",
        "Update GPU drivers. The maximum supported version is 12040 but blitzar requires 12060",
        "cuda.toolkit-newer-than-driver",
        "560",
    ),
    (
        # the maintainer: the driver was downgraded; CUDA 11.3 needs driver 465.89 or newer
        "https://github.com/NVIDIA/gvdb-voxels/issues/120",
        "GVDB CUDA ERROR:\n"
        "  Launch status: the provided PTX was compiled with an unsupported toolchain.\n"
        "  Kernel status: no error\n"
        "  Caller: VolumeGVDB::LoadFunction\n"
        "  Call:   cuModuleLoad\n"
        "  Args:   cuda_gvdb_module.ptx\n"
        "nvcc -V\n"
        "nvcc: NVIDIA (R) Cuda compiler driver\n"
        "Copyright (c) 2005-2021 NVIDIA Corporation\n"
        "Built on Mon_May__3_19:41:42_Pacific_Daylight_Time_2021\n"
        "Cuda compilation tools, release 11.3, V11.3.109\n"
        "Build cuda_11.3.r11.3/compiler.29920130_0",
        "cuda.toolkit-newer-than-driver",
        "465",
    ),
    (
        # the reporter: update the driver (530 worked, 525 did not)
        "https://github.com/chelsea0x3b/llama-dfdx/issues/6",
        "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Driver(DriverErr"
        'or(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "the provided PTX was compiled with an unsupporte'
        "d toolchain.\"))', /home/opfromthestart/.cargo/git/checkouts/dfdx-318e6e5ad83eea79/19da9f"
        "e/src/tensor_ops/select_and_gather/mod.rs:155:30",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # the maintainer: the toolchain that built the PTX is newer than the driver; use a matching driver
        "https://github.com/mit-han-lab/inter-operator-scheduler/issues/4",
        "Cuda failure: 222 the provided PTX was compiled with an unsupported toolchain.\n"
        "/home/ubuntu/ios/src/ios/ios_runtime.cu:1332\n"
        "Aborting...",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # the reporter: GKE's COS guide left no device plugin; installing the nvidia device plugin
        # DaemonSet made the node advertise nvidia.com/gpu
        "https://github.com/GoogleCloudPlatform/container-engine-accelerators/issues/196",
        "But now when we are trying to schedule the Pod using the following resource section the "
        "pod becomes un-schedulable with this error `X insufficient nvidia.com/gpu`\n"
        "\n"
        "```\n"
        "requests:\n"
        "    limits:\n"
        '       nvidia.com/gpu: "1"\n'
        "```\n"
        "\n"
        "**Specs:**\n"
        "Node version - v1.18.17-gke.700 (+ v1.17.17-gke.6000) tried on both\n"
        "Instance type - n1-standard-4\n"
        "image - cos\n"
        "GPU - NVIDIA Tesla T4",
        "k8s.insufficient-gpus",
        "device plugin",
    ),
    (
        # the image's own check names the driver release it needs (535.86); the answer: that driver, or
        # forward compatibility on a data-center GPU
        "https://github.com/NVIDIA/TensorRT-LLM/issues/83",
        'I encountered this error, "ERROR: This container was built for NVIDIA Driver Release 535'
        '.86 or later, but version 520.56.06 was detected and compatibility mode is UNAVAILABLE."',
        "container.image-needs-newer-driver",
        "535",
    ),
    (
        # the merged fix: the pods GKE's GPU nodes reject carry no toleration for the nvidia.com/gpu taint
        "https://github.com/vllm-project/aibrix/pull/909",
        "FailedScheduling   2m21s (x42 over 60m)  default-scheduler  1 node(s) had untolerated ta"
        "int {nvidia.com/gpu: present}",
        "k8s.gpu-taint-not-tolerated",
        "toleration",
    ),
    (
        # the reporter: the driver was not the latest; updating it fixed it
        "https://github.com/mlcommons/training_results_v0.7/issues/5",
        "tensorflow.python.framework.errors_impl.InternalError: cudaGetDevice() failed. Status: C"
        "UDA driver version is insufficient for CUDA runtime version",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # the maintainer: driver 368.71 is too old for this build; upgrade the driver
        "https://github.com/tensorflow/tensorflow/issues/8526",
        "Failed to initialize CUDA device #110: CUDA driver version is insufficient for CUDA runt"
        "ime version\n"
        "Failed to initialize CUDA device #111: CUDA driver version is insufficient for CUDA runt"
        "ime version",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
]


@pytest.mark.parametrize(("url", "text", "finding_id", "knob"), KNOB, ids=[row[0] for row in KNOB])
def test_message_reaches_confirmed_cause_with_its_knob(url, text, finding_id, knob):
    assert_first_naming(text, finding_id, knob, url)


# (thread, a real message of another cause, the new entry's cause it must not rank first)
LOOKALIKE = [
    (
        # Triton's own ptxas (CUDA 12.5) older than the PTX ISA Triton emitted for CUDA 12.6: a toolkit
        # mismatch the maintainers fixed in Triton, not a driver older than the PTX
        "https://github.com/triton-lang/triton/issues/4576",
        "E                   RuntimeError: Internal Triton PTX codegen error:\n"
        "E                   ptxas /tmp/tmpqgu1f9dk.ptx, line 5; fatal   : Unsupported .version 8"
        ".6; current version is '8.5'\n"
        "E                   ptxas fatal   : Ptx assembly aborted due to errors",
        "cuda.toolkit-newer-than-driver",
    ),
    (
        # not k3s / RKE2 / k0s: the maintainer traced it to the image's forward-compatibility libraries on
        # a Tesla K80, not to the containerd the toolkit configured
        "https://github.com/NVIDIA/gpu-operator/issues/389",
        "[Vector addition of 50000 elements]\n"
        "Failed to allocate device vector A (error code CUDA driver version is insufficient for C"
        "UDA runtime version)!",
        "k8s.operator-containerd-paths",
    ),
    (
        # a MIG profile the autoscaler could not add (max node group size): no shared-GPU request above one
        "https://github.com/NVIDIA/gpu-operator/issues/693",
        "Normal   NotTriggerScaleUp  51m  cluster-autoscaler  pod didn't trigger scale-up: 1 max "
        "node group size reached, \n"
        "2 node(s) didn't match Pod's node affinity/selector, 1 Insufficient nvidia.com/mig-1g.10"
        "gb ",
        "k8s.shared-gpu-request-over-one",
    ),
]


@pytest.mark.parametrize(("url", "text", "tempting"), LOOKALIKE, ids=[row[0] for row in LOOKALIKE])
def test_lookalike_does_not_rank_new_cause_first(url, text, tempting):
    assert_not_first(text, tempting, url)
