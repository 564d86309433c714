"""Round 40's changes: nvcc refusing a Visual Studio update within the years it names, MuJoCo
without an OpenGL context, Vulkan ray tracing on a GPU without it, ONNX Runtime's removed C++
name getters and its null API pointer (an older onnxruntime.dll first), AMD's AMF runtime
missing for FFmpeg, XLA's ptxas in an nvidia/cuda base image, a conda CUDA's lib64 under torch
2.0, the gcc an old nvcc accepts, TensorFlow 0.x's cuDNN codes, and the Unsloth fix kept to
Unsloth pastes; from the second intake, TensorRT 10's removed C++ binding API, mmcv ops without
CUDA code and a 1.x mmcv where 2.x is asked, spconv's CPU-only package, mpirun missing for a
launcher, a gcc too old for -std=c++14, and "no kernel image" when torch's own build covers the
GPU (a CUDA extension's kernels)."""

from __future__ import annotations

from envdoctor.model.nvidia_records import cudnn_release
from envdoctor.triage_engine import triage_text
from tests.triage_lines import (
    assert_read_instead,
    finding_ids,
    fix_texts,
    source_knob_test,
    training_case_test,
)

MSVC_833 = (
    "I was getting this error when trying to compile simple-knn and diff-guassian-rasterization "
    "when using the lastest Visual Studio 2022.\n"
    "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.3\\include\\crt/host_config.h(164): "
    "fatal error C1189: #error: -- unsupported Microsoft Visual Studio version! Only the versions "
    "between 2017 and 2022 (inclusive) are supported!"
)

MUJOCO_335 = (
    "I'm on Ubuntu 20.04 and dm_control version 1.0.5 I get the following error when running\n"
    'os.environ["MUJOCO_GL"] = "osmesa"\n'
    "mujoco.FatalError: an OpenGL platform library has not been loaded into this process, this "
    "most likely means that a valid OpenGL context has not been created before mjr_makeContext "
    "was called"
)

GSPLAT_2748 = (
    "I couldn't get `gsplat` to build automatically from a PyPI install on any of my servers with "
    "torch 2.0.1.\n"
    "c++ bindings.cuda.o forward.cuda.o backward.cuda.o ext.o -shared "
    "-L/home/brent/miniconda/envs/nerfstudio/lib/python3.8/site-packages/torch/lib -lc10 "
    "-lc10_cuda -ltorch_cpu -ltorch_cuda -ltorch -ltorch_python "
    "-L/home/brent/miniconda/envs/nerfstudio/lib64 -lcudart -o gsplat_cuda.so\n"
    "/usr/bin/ld: cannot find -lcudart: No such file or directory"
)

# (thread, text, finding id, knob): lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/graphdeco-inria/gaussian-splatting/issues/833",
        MSVC_833,
        "windows.msvc-cuda-version-mismatch",
        "earlier Visual Studio 2022 toolset",
    ),
    (
        "https://github.com/google-deepmind/dm_control/issues/335",
        MUJOCO_335,
        "render.mujoco-headless-needs-egl",
        "before importing mujoco",
    ),
    (
        "https://github.com/haosulab/SAPIEN/issues/74",
        'The return message is "vkCore: Missing physical device extension: '
        'VK_KHR_pipeline_library", which is the same as #51',
        "render.raytracing-needs-rtx-gpu",
        "RTX",
    ),
    (
        "https://github.com/jason-li-831202/YOLO-NAS-onnxruntime/issues/1",
        "/Users/alan/Sites/YOLO-NAS-onnxruntime/src/detector.cpp:55:44: error: no member named "
        "'GetInputName' in 'Ort::Session'",
        "onnxruntime.cxx-api-removed",
        "GetInputNameAllocated",
    ),
    (
        "https://github.com/microsoft/onnxruntime/issues/12021",
        "Using visual studio C++ on windows calling onnxruntime, the Global api_ pointer in "
        "onnxruntime_cxx_api.h is always Nullptr. And my program crashed immediately after it "
        "started.",
        "onnxruntime.old-runtime-library-loaded",
        "System32",
    ),
    (
        "https://github.com/GPUOpen-LibrariesAndSDKs/AMF/issues/335",
        "[h264_amf @ 0x7fb3e8001180] DLL libamfrt64.so.1 failed to open\n"
        "avcodec_open2: Unknown error occurred",
        "amd.amf-runtime-not-installed",
        "amf-amdgpu-pro",
    ),
    (
        "https://github.com/YoshitakaMo/localcolabfold/issues/70",
        "W external/org_tensorflow/tensorflow/stream_executor/gpu/asm_compiler.cc:80] Couldn't get "
        "ptxas version string: INTERNAL: Couldn't invoke ptxas --version\n"
        "I'm on Debian 11 (bullseye) and am building from nvidia/cuda:11.2.0-base.",
        "xla.cuda-toolkit-files-not-found",
        "nvidia/cuda:11.2.0-devel",
    ),
    (
        "https://github.com/nerfstudio-project/nerfstudio/pull/2748",
        GSPLAT_2748,
        "cuda.link-library-not-found",
        "torch to 2.1",
    ),
    (
        "https://github.com/jwyang/faster-rcnn.pytorch/issues/568",
        "/usr/local/cuda/include/crt/host_config.h:119:2: error: #error -- unsupported GNU "
        "version! gcc versions later than 6 are not supported!",
        "cuda.host-compiler-unsupported",
        "older gcc, gcc 6 or earlier",
    ),
]

ROWS += [
    (
        "https://github.com/nihui/waifu2x-ncnn-vulkan/issues/8",
        "[0 AMD Radeon(TM) RX Vega 11 Graphics]  queueC=1  queueT=2  memU=2  memDL=0  memHV=1\n"
        "[0 AMD Radeon(TM) RX Vega 11 Graphics]  fp16s=1  fp16a=0  int8s=1  int8a=0\n"
        "vkCreateShaderModule failed -3\n"
        "Conversion is successful in versions up to efd54ee.",
        "vulkan.amd-driver-outdated",
        "Adrenalin",
    ),
    (
        "https://github.com/colmap/glomap/issues/200",
        "CMake Error at /usr/local/share/cmake-3.31/Modules/CMakeDetermineCompilerId.cmake:866 (message):\n"
        "  Compiling the CUDA compiler identification source file\n"
        '  "CMakeCUDACompilerId.cu" failed.\n'
        "  Compiler: /usr/bin/nvcc",
        "cuda.old-toolkit-first-on-path",
        "nvidia-cuda-toolkit",
    ),
    (
        "https://github.com/AbhishekBarali/SpeakoFlow/issues/39",
        "Hi, I could install your software on my Windows 11 PC, but when I try to launch it, there "
        'is a system error window that say that "execution cannot proceed because vulkan-1.dll was '
        'not found"',
        "vulkan.loader-library-missing",
        "graphics driver",
    ),
]

# the second intake's training threads
ROWS += [
    (
        "https://github.com/linClubs/YOLOv8-ROS-TensorRT/issues/12",
        "如题，报错 error: ‘class nvinfer1::ICudaEngine’ has no member named ‘getNbBindings’\n"
        "在对应的头文件里确实没找到这个成员函数\nCUDA 12.2\nTensorRT 10.0",
        "tensorrt.cpp-api-removed",
        "TensorRT 8.x",
    ),
    (
        "https://github.com/open-mmlab/mmdetection/issues/5278",
        "i got this error\n`RuntimeError: nms is not compiled with GPU support`\n when running this "
        "command\n`python3 test.py  retinanet.py /path/epoch_3.pth  --show-dir results.pkl`",
        "mmcv.ops-not-built",
        "mmcv-full",
    ),
    (
        "https://github.com/open-mmlab/mmdetection3d/issues/2061",
        "RuntimeError: /io/build/temp.linux-x86_64-cpython-37/spconv/build/core_cc/src/csrc/sparse/"
        "all/SpconvOps/SpconvOps_get_indice_pairs.cc(65)\nnot implemented for CPU ONLY build.",
        "spconv.cpu-package-installed",
        "spconv-cu",
    ),
    (
        "https://github.com/mit-han-lab/bevfusion/issues/21",
        "**/bin/sh: 1: mpirun: not found**",
        "mpi.mpirun-not-installed",
        "openmpi",
    ),
    (
        "https://github.com/open-mmlab/mmdetection3d/issues/2538",
        "the bug is AssertionError: MMCV==1.7.1 is used but incompatible. Please install "
        "mmcv>=2.0.0rc4, <2.1.0.",
        "mmcv.version-incompatible",
        "uninstall mmcv-full",
    ),
    (
        "https://github.com/amazon-science/video-contrastive-learning/issues/6",
        "when I run pip install mmcv-full==1.2.7 and I found that I got the error gcc: error: "
        "unrecognized command line option ‘-std=c++14’",
        "torch.extension-compiler-too-old",
        "prebuilt wheel",
    ),
    (
        "https://github.com/mit-han-lab/bevfusion/issues/12",
        "I'm working with python3.8+torch1.10.0+cuda111+ cuda driver version460.32.03+TeslaV100\n"
        "It works well when creating data, but it will give  CUDA_ERROR: no kernel image is "
        "available for execution.",
        "torch.extension-arch-not-built",
        "compute_70",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (training case, finding id, knob, its thread): scored as the corpus scores them
CASES = [
    (
        "en-36903-3dgs-vs2022-17-10-unsupported-msvc.txt",
        "windows.msvc-cuda-version-mismatch",
        "Visual Studio 2019",
        "https://github.com/graphdeco-inria/gaussian-splatting/issues/833",
    ),
    (
        "en-37206-dm-control-osmesa-env-set-after-import.txt",
        "render.mujoco-headless-needs-egl",
        "MUJOCO_GL",
        "https://github.com/google-deepmind/dm_control/issues/335",
    ),
    (
        "en-37203-sapien-kuafu-gtx1050-no-pipeline-library.txt",
        "render.raytracing-needs-rtx-gpu",
        "RTX",
        "https://github.com/haosulab/SAPIEN/issues/74",
    ),
    (
        "en-37312-yolonas-ort-115-no-member-getinputname.txt",
        "onnxruntime.cxx-api-removed",
        "GetInputNameAllocated",
        "https://github.com/jason-li-831202/YOLO-NAS-onnxruntime/issues/1",
    ),
    (
        "en-37301-ort-getapi-nullptr-vs2022-system32.txt",
        "onnxruntime.old-runtime-library-loaded",
        "System32",
        "https://github.com/microsoft/onnxruntime/issues/12021",
    ),
    (
        "en-37313-ffmpeg-h264-amf-libamfrt64-ubuntu.txt",
        "amd.amf-runtime-not-installed",
        "amdgpu-install",
        "https://github.com/GPUOpen-LibrariesAndSDKs/AMF/issues/335",
    ),
    (
        "en-37008-localcolabfold-ptxas-cuda-base-image.txt",
        "xla.cuda-toolkit-files-not-found",
        "-devel",
        "https://github.com/YoshitakaMo/localcolabfold/issues/70",
    ),
    (
        "en-36905-nerfstudio-gsplat-lcudart-conda-lib64.txt",
        "cuda.link-library-not-found",
        "torch 2.1",
        "https://github.com/nerfstudio-project/nerfstudio/pull/2748",
    ),
    (
        "en-37106-faster-rcnn-gcc7-unsupported-cuda9.txt",
        "cuda.host-compiler-unsupported",
        "older gcc",
        "https://github.com/jwyang/faster-rcnn.pytorch/issues/568",
    ),
]

CASES += [
    (
        "en-37303-waifu2x-ncnn-vkcreateshadermodule-amd-driver.txt",
        "vulkan.amd-driver-outdated",
        "Adrenalin",
        "https://github.com/nihui/waifu2x-ncnn-vulkan/issues/8",
    ),
    (
        "en-36904-glomap-usr-bin-nvcc-apt-toolkit.txt",
        "cuda.old-toolkit-first-on-path",
        "nvidia-cuda-toolkit",
        "https://github.com/colmap/glomap/issues/200",
    ),
    (
        "en-37306-speakoflow-vulkan-1-dll-not-found.txt",
        "vulkan.loader-library-missing",
        "graphics driver",
        "https://github.com/AbhishekBarali/SpeakoFlow/issues/39",
    ),
]

CASES += [
    (
        "zh-37705-yolov8-ros-trt10-getnbbindings.txt",
        "tensorrt.cpp-api-removed",
        "enqueueV3",
        "https://github.com/linClubs/YOLOv8-ROS-TensorRT/issues/12",
    ),
    (
        "zh-37600-mmcv-docker-build-no-gpu-nms.txt",
        "mmcv.ops-not-built",
        "FORCE_CUDA",
        "https://github.com/open-mmlab/mmcv/issues/1142",
    ),
    (
        "en-38307-mmdet-nms-not-compiled-gpu-mmcv-lite.txt",
        "mmcv.ops-not-built",
        "mmcv-full",
        "https://github.com/open-mmlab/mmdetection/issues/5278",
    ),
    (
        "en-37602-mmdet3d-spconv-cpu-only-build.txt",
        "spconv.cpu-package-installed",
        "spconv-cu",
        "https://github.com/open-mmlab/mmdetection3d/issues/2061",
    ),
    (
        "en-38311-bevfusion-torchpack-mpirun-not-found.txt",
        "mpi.mpirun-not-installed",
        "openmpi",
        "https://github.com/mit-han-lab/bevfusion/issues/21",
    ),
    (
        "en-37607-mmdet3d-mmcv-full-and-mmcv-conflict.txt",
        "mmcv.version-incompatible",
        "uninstall mmcv-full",
        "https://github.com/open-mmlab/mmdetection3d/issues/2538",
    ),
    (
        "en-38302-mmcv-full-gcc485-std-cxx14-prebuilt-wheel.txt",
        "torch.extension-compiler-too-old",
        "download.openmmlab.com",
        "https://github.com/amazon-science/video-contrastive-learning/issues/6",
    ),
    (
        "en-38304-bevfusion-v100-bev-pool-no-kernel-image-sm70.txt",
        "torch.extension-arch-not-built",
        "TORCH_CUDA_ARCH_LIST",
        "https://github.com/mit-han-lab/bevfusion/issues/12",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_a_gcc_refusal_stays_the_host_compiler_reading() -> None:
    text = (
        "#error -- unsupported GNU version! gcc versions later than 11 are not supported! The nvcc "
        "flag '-allow-unsupported-compiler' can be used to override this version check"
    )
    assert_read_instead(
        text, "windows.msvc-cuda-version-mismatch", "cuda.host-compiler-unsupported"
    )


def test_the_visual_studio_fix_follows_the_year_the_paste_names() -> None:
    refusal = (
        "host_config.h(160): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio "
        "version! Only the versions between 2017 and 2022 (inclusive) are supported!"
    )
    newer = fix_texts(
        f"I installed Visual Studio 2026.\n{refusal}", "windows.msvc-cuda-version-mismatch"
    )
    assert "Install Visual Studio 2022" in newer[0] and "not your 2026" in newer[0], newer
    unnamed = fix_texts(refusal, "windows.msvc-cuda-version-mismatch")
    assert "if yours is already a 2022" in unnamed[0], unnamed
    assert not any("Install Visual Studio 2022 (" in fix for fix in unnamed), unnamed
    assert "cuda.host-compiler-unsupported" not in finding_ids(refusal)


def test_a_vulkan_extension_outside_ray_tracing_is_not_this_reading() -> None:
    text = "vkCore: Missing physical device extension: VK_KHR_swapchain"
    assert "render.raytracing-needs-rtx-gpu" not in finding_ids(text)


def test_the_allocated_getters_named_without_an_error_are_not_the_removed_api() -> None:
    text = "I call session.GetInputNameAllocated(0, allocator) and the names print fine."
    assert "onnxruntime.cxx-api-removed" not in finding_ids(text)


def test_the_windows_amf_message_names_the_encoders_of_other_gpus() -> None:
    text = "[h264_amf @ 000001c2d8f6e8c0] DLL amfrt64.dll failed to open"
    fixes = fix_texts(text, "amd.amf-runtime-not-installed")
    assert "h264_nvenc" in fixes[0] and "amdgpu-install" not in " ".join(fixes), fixes


def test_the_devel_image_fix_needs_a_base_or_runtime_image_in_the_paste() -> None:
    text = "Couldn't invoke ptxas --version\nI'm on Debian 11 (bullseye) in a conda env."
    assert not any("-devel" in fix for fix in fix_texts(text, "xla.cuda-toolkit-files-not-found"))


def test_the_torch_2_1_fix_needs_a_conda_lib64_and_an_older_torch() -> None:
    system_lib64 = GSPLAT_2748.replace(
        "/home/brent/miniconda/envs/nerfstudio/lib64", "/usr/local/cuda/lib64"
    )
    assert not any(
        "torch 2.1" in fix for fix in fix_texts(system_lib64, "cuda.link-library-not-found")
    )
    newer_torch = GSPLAT_2748.replace("torch 2.0.1", "torch 2.4.0")
    assert not any(
        "torch 2.1" in fix for fix in fix_texts(newer_torch, "cuda.link-library-not-found")
    )


def test_tensorflow_0x_cudnn_codes_read_as_releases() -> None:
    assert cudnn_release("4007") == "4.0.7"
    assert cudnn_release("5103") == "5.1.3"
    text = (
        "Loaded runtime CuDNN library: 5103 (compatibility version 5100) but source was compiled "
        "with 4007 (compatibility version 4000)."
    )
    fixes = fix_texts(text, "cuda.cudnn-mismatch")
    assert any("cuDNN 4.0.7" in fix for fix in fixes), fixes


def test_the_unsloth_fix_stays_with_unsloth_pastes() -> None:
    text = (
        "UserWarning: The unoptimized RealESRGAN is slow on CPU. We do not use it. If you really "
        "want to use it, please modify the corresponding codes.\nAppears always, I have CUDA installed."
    )
    for finding in triage_text(text).findings:
        assert not any("Unsloth" in fix.summary for fix in finding.fixes), finding.id


def test_a_shader_module_failure_on_an_nvidia_gpu_is_not_the_amd_driver_reading() -> None:
    text = "[0 NVIDIA GeForce RTX 3070]  queueC=2[8]  queueG=0[16]  queueT=1[2]\nvkCreateShaderModule failed -3"
    assert "vulkan.amd-driver-outdated" not in finding_ids(text)


def test_cmake_running_nvidia_s_own_nvcc_is_not_the_distribution_package() -> None:
    text = (
        '  Compiling the CUDA compiler identification source file "CMakeCUDACompilerId.cu" failed.\n'
        "  Compiler: /usr/local/cuda-12.4/bin/nvcc"
    )
    assert not any(
        "apt remove nvidia-cuda-toolkit" in fix.summary
        for finding in triage_text(text).findings
        for fix in finding.fixes
    )


def test_a_driver_version_is_what_makes_kernel_prose_a_driver_reading() -> None:
    text = "torch 2.1.0 doesn't build on Linux kernel 6.19"
    assert not any(
        (f.origin or "").startswith("signature:nvidia.") for f in triage_text(text).findings
    )


def test_a_kernel_image_error_on_a_gpu_the_build_dropped_stays_torch_s() -> None:
    text = "torch 2.8.0+cu128, GTX 1080\nRuntimeError: CUDA error: no kernel image is available for execution on the device"
    ids = finding_ids(text)
    assert ids[0] == "torch.gpu-too-old-for-build", ids
    assert "torch.extension-arch-not-built" not in ids


def test_torch_written_with_a_cuda_local_tag_reads_as_the_wheel_build() -> None:
    from envdoctor.ingest import clean_block, ingest_blocks
    from envdoctor.triage_engine.facts import Facts

    facts = Facts(ingest_blocks([clean_block("python3.8+torch1.10.0+cuda111+ TeslaV100\n")]))
    assert facts.get("torch.version") == "1.10.0+cu111"
    assert facts.get("torch.variant") == "cu111"


def test_the_removed_binding_api_needs_its_message_not_the_member_name_alone() -> None:
    text = (
        "I read the docs for getNbBindings and getBindingDimensions before porting to TensorRT 10."
    )
    assert "tensorrt.cpp-api-removed" not in finding_ids(text)


def test_a_gpu_support_message_outside_mmcv_is_not_the_mmcv_reading() -> None:
    # detectron2's own message (its csrc ops): "Not compiled with GPU support", no op named
    text = 'File "detectron2/layers/nms.py", line 20\nAssertionError: Not compiled with GPU support'
    assert not any(
        f.id == "mmcv.ops-not-built" and (f.origin or "").startswith("signature:")
        for f in triage_text(text).findings
    )
    assert "mmcv.ops-not-built" in finding_ids("RuntimeError: nms is not compiled with GPU support")


def test_a_1x_mmcv_in_a_1x_range_gets_no_uninstall_of_mmcv_full() -> None:
    text = (
        "AssertionError: MMCV==1.2.0 is used but incompatible. Please install mmcv>=1.3.8, <=1.4.0."
    )
    assert not any(
        "uninstall mmcv-full" in fix for fix in fix_texts(text, "mmcv.version-incompatible")
    )


def test_a_suggested_wheel_cause_does_not_offer_detectron2_or_pyg_fixes_to_other_packages() -> None:
    text = (
        "!pip install causal-conv1d && pip install mamba-ssm\n"
        "Building wheels for collected packages: causal-conv1d\n"
        "  error: subprocess-exited-with-error\n"
        "ERROR: Failed building wheel for causal-conv1d"
    )
    for finding in triage_text(text).findings:
        for fix in finding.fixes:
            assert "detectron2" not in fix.summary and "PyG" not in fix.summary, (
                finding.id,
                fix.summary,
            )
