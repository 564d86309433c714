"""Round 18 sweep of "the NVIDIA driver is too old for the CUDA build / runtime"
(checks/signatures/{containers,nvidia_driver}.toml): each message, verbatim from its thread, reaches the cause
the thread confirmed first, and one of that cause's fixes names the knob the confirmed fix turned
(the driver branch, the older wheel or image tag, the build argument)."""

from __future__ import annotations

from triage_lines import source_knob_test, source_lookalike_test

# (thread, message, the finding id first, a string one of its fixes' commands or summaries holds)
KNOB = [
    (
        # maintainer: torch>=2.0 requires CUDA>=11.8 (a driver of 11.7 is too old for it)
        "https://github.com/farewellthree/PPLLaVA/issues/1",
        "I am trying to run the scripts with CUDA 11.7 installed, but I keep getting the error :\nRuntimeError: The NVIDIA driver on your system is too old (found version 11070). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org/ to install a PyTorch version that has been compiled with your version of the CUDA driver.",
        "torch.driver-too-old",
        "cu118",
    ),
    (
        # maintainer (flx42): for CUDA 9.2 you need a 396 driver
        "https://github.com/NVIDIA/nvidia-docker/issues/745",
        "I have installed 390 drivers on 18.04 as follows:\n\nsudo add-apt-repository -y ppa:graphics-drivers/ppa\nsudo apt-get update\nsudo apt-get -y install nvidia-390 nvidia-modprobe\nsudo apt-get install -y nvidia-docker2\n\nnvidia-container-cli: requirement error: unsatisfied condition: cuda >= 9.2",
        "container.cuda-requirement-unsatisfied",
        "396",
    ),
    (
        # reporter: the v0.4.3 image (an earlier tag) runs on driver 530; maintainer: 0.5.0 moved to a CUDA 12.4 base
        "https://github.com/vllm-project/vllm/issues/5635",
        "I have ubuntu-22.04, cuda==12.1, nvidia driver == 530, gpu==V100\n\nwhen running newer version of vllm (after 0.4.3) , it does not work. According to the doc, vllm is built with cuda 12.1, so I think it should not require cuda>=12.4.\n\nError log\n```\ndocker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an earlier cuda container: unknown.\n```",
        "container.cuda-requirement-unsatisfied",
        "tag",
    ),
    (
        # a user: change ARG CUDA_VERSION=12.6.0 in the Dockerfile to the CUDA nvidia-smi shows and rebuild
        # (another confirms the rebuilt image runs on driver 535 / CUDA 12.2)
        "https://github.com/ggml-org/llama.cpp/issues/9665",
        "Bug: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.6, please update your driver to a newer version, or use an earlier cuda container: unknown.",
        "container.cuda-requirement-unsatisfied",
        "CUDA_VERSION",
    ),
    (
        # maintainer: vllm requires CUDA 12.8, so a CUDA 12.4 host is not supported (update the driver)
        "https://github.com/opendatalab/MinerU/issues/3576",
        "通过docker build 的镜像依赖cuda 12.8，启动容器时会报错。服务器上 cuda 版本不好升级，目前版本是12.4 希望可以提供 支持 cuda 12.4 的docker 镜像",
        "container.image-needs-newer-driver",
        "12.8",
    ),
    (
        # maintainer: switching to the lower image release (21.07) works
        "https://github.com/bmaltais/kohya_ss/issues/926",
        "The base image `nvcr.io/nvidia/pytorch:23.04-py3` uses cuda 12 with Nvidia driver >= 530.30. I am using a linux server with cuda 11.4 and Nvidia driver 470.42. I find that `nvcr.io/nvidia/pytorch:21.07-py3` fits my system. So would there be a problem if I switch to lower version? If I can't switch, does that mean the minimum system requirement is cuda 12 with driver >= 530.30?",
        "container.image-needs-newer-driver",
        "release",
    ),
    (
        # reporter: the host GPU driver is not compatible with the one the container's toolkit needs
        "https://github.com/NVIDIA/CUDALibrarySamples/issues/47",
        "I compile the samples in the HPC SDK 21.9 container. Make smoothly, but run with Errors. \n\n```\n ./contraction\nTotal memory: 0.45 GiB\nError: the provided PTX was compiled with an unsupported toolchain.\n```",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # maintainer (peterjc123): this error indicates that the driver is still not up to date
        "https://github.com/pytorch/pytorch/pull/48298",
        "The error `the provided PTX was compiled with an unsupported toolchain.` indicates that the driver is still not up-to-date.",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # maintainer: PTX from a newer toolchain than the driver's loader; update the driver and rebuild
        "https://github.com/NVIDIA/nvbandwidth/issues/61",
        "running gpu driver v580 and cuda 13.2 I get this error:\n\n`nvbandwidth Version: v0.8\nBuilt from Git version: v0.8\n\nCUDA Runtime Version: 13000\nCUDA Driver Version: 13000\nDriver Version: 580.126.09\n\nRunning host_to_device_memcpy_ce.\n[cudaErrorUnsupportedPtxVersion] the provided PTX was compiled with an unsupported toolchain. in expression cudaGetLastError() in CUresult memsetKernel(CUstream, CUdeviceptr, CUdeviceptr, long long unsigned int, unsigned int)() : /home/diag/nvbandwidth/kernels.cu:406`",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # maintainer: TF 1.15 needs CUDA 10.0; see the tested build configurations and the driver table
        "https://github.com/tensorflow/tensorflow/issues/44883",
        "Reusing code across different machines is difficult. The problem is that even if one could install a compatible tensorflow version, it's challenging to run code due to, `RuntimeError: cudaGetDevice() failed. Status: CUDA driver version is insufficient for CUDA runtime version` error.\nThe driver update is not accessible if one is using a remote server and I cant run the code in the server. Wastage of resources.\nIn my case, `nvidia-smi` says the driver version is 410 and has tensorflow version 1.12.0 which is an older version compared to my code developed. Unfortunately, I can't run my code developed in my local drive belonging to tensorflow version 1.14.0 or above.",
        "cuda.toolkit-newer-than-driver",
        "tensorflow",
    ),
    (
        # the thread's title, and a user's comment: conda's tensorflow 1.11 pulled a newer CUDA runtime
        # than driver 390 runs; the older conda tensorflow 1.7 (its older cudatoolkit) solved it
        "https://github.com/tensorflow/tensorflow/issues/21832",
        "Status: CUDA driver version is insufficient for CUDA runtime version\n\nI hit exactly this problem and someone else with the same combination (`tensorflow 1.11` + CUDA runtime 9.0 + cudnn 7.3 + nvidia driver 390 ) hit this problem too, though nvidia driver `390` is new enough for CUDA runtime `9.0`.",
        "cuda.toolkit-newer-than-driver",
        "cudatoolkit",
    ),
    (
        # maintainer: you should update your GPU driver (reporter: got it)
        "https://github.com/SYSTRAN/faster-whisper/issues/363",
        '    model = faster_whisper.WhisperModel(whisperModel, device="cuda", compute_type="float16")\n  File "/home/fyll/Documents/GitHub/voice/env/lib/python3.10/site-packages/faster_whisper/transcribe.py", line 124, in __init__\n    self.model = ctranslate2.models.Whisper(\nRuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version',
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # maintainer: the cuda-python 13 runtime needs a 580+ driver (everything works with 580.95.05)
        "https://github.com/NVIDIA/cutlass/issues/2866",
        "When I run examples/python/CuTeDSL/blackwell/dense_gemm.py on the Blackwell, I find the error CUDAError InsufficientDriver. My CUDA version is 12.9.41 and my CUDA driver is 570.133.20. May I ask if I need to upgrade the driver or CUDA version.",
        "cuda.toolkit-newer-than-driver",
        "driver",
    ),
    (
        # reporter: the nvidia/cuda:11.4.3 image (CUDA of the host's 470 branch) works; 11.7.1 ships a 515 libcuda
        "https://github.com/NVIDIA/nvidia-docker/issues/1704",
        "I then built a container using image `nvidia/cuda:11.7.1-cudnn8-runtime-ubuntu22.04` but I got this errors (dots are mine, cannot remember exact numbers):\n\nlibcuda reported version is: 470..\nkernel reported version is: 515..\nkernel version 470... does not match DSO version 515... -- cannot find working devices in this configuration",
        "container.image-needs-newer-driver",
        "tag",
    ),
    (
        # a user: image v0.4.2 works where v0.4.3 fails with 804 (driver 535, CUDA 12.2): an earlier tag
        "https://github.com/vllm-project/vllm/issues/5283",
        "vllm-openai_1  | (RayWorkerWrapper pid=3487) ERROR 06-05 16:30:08 worker_base.py:148] RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW\n\n### How would you like to use vllm\n\neverything is good in docker v0.3.3, what should I do to use v0.4.3?",
        "cuda.toolkit-newer-than-driver",
        "earlier tag",
    ),
]


test_a_drivold2_message_gets_its_cause_and_the_knob = source_knob_test(KNOB)


# real messages of other causes that the new entries could catch: they must not get that cause
LOOKALIKE = [
    (
        # the driver's libraries and kernel module differ (reinstall the driver, reboot): not a CUDA build too new
        "https://github.com/NVIDIA/nvidia-docker/issues/270",
        "nvidia-docker | 2016/12/17 05:23:46 Error: nvml: Driver/library version mismatch",
        "cuda.toolkit-newer-than-driver",
    ),
    (
        # bare metal: libcuda of an older driver (375) with the 384 kernel module, no container
        "https://github.com/tensorflow/tensorflow/issues/22525",
        "2018-09-26 16:20:01.273659: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:193] kernel reported version is: 384.130.0\n2018-09-26 16:20:01.273681: E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:303] kernel version 384.130.0 does not match DSO version 375.66.0 -- cannot find",
        "container.image-needs-newer-driver",
    ),
    (
        # bare metal after a driver update: NVML's driver/library mismatch, libcuda 470 over module 460
        "https://github.com/tensorflow/tensorflow/issues/4349",
        "$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\n\n2021-10-16 14:56:09.420644: E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: forward compatibility was attempted on non supported HW\n2021-10-16 14:56:09.420758: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:200] libcuda reported version is: 470.57.2\n2021-10-16 14:56:09.420782: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:204] kernel reported version is: 460.91.3\n2021-10-16 14:56:09.420791: E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:313] kernel version 460.91.3 does not match DSO version 470.57.2 -- cannot find working devices in this configuration",
        "container.image-needs-newer-driver",
    ),
]


test_a_drivold2_lookalike_is_not_caught = source_lookalike_test(LOOKALIKE)
