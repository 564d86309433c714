"""Round 39's changes: the legacy nvidia-docker 1.x wrapper's four failures and nvidia-docker2's
docker-ce pin, an image that ships its own nvidia-smi, OpenCV too old for an ONNX model, a
program's own libraries and TensorRT's not found by the loader or the linker, a pip-installed
launcher the shell cannot find, C++ builds against another protobuf, CUDA 11.7's CUB headers on
Windows, Vulkan headers missing at build time, numba's CUDA target on R580 drivers, CTranslate2
4.7.0's ROCm folder on Windows, pywhispercpp built with whisper.cpp's old CUDA variable, and a
report's Linux release too old for manylinux_2_28 wheels."""

from __future__ import annotations

from pathlib import Path

from envdoctor.triage_engine import triage_text
from envdoctor.triage_engine.distro_release import named_release
from tests.triage_lines import finding_origins, fix_texts, source_knob_test, training_case_test

DEEPSPEED_54 = (
    "NCCL_DEBUG=info NCCL_IB_DISABLE=0 NCCL_NET_GDR_LEVEL=2 deepspeed --master_port 16666 "
    "--hostfile hostfile_single finetune_visualglm.py --experiment-name finetune-visualglm-6b\n"
    "finetune/finetune_visualglm.sh: line 56: deepspeed: command not found\n"
    "已经尝试过升级deepspeed，还是报错\n目前deepspeed版本 0.9.2"
)

NUMBA_10249 = (
    "Today I updated my Laptop's RTX3070 driver to the latest version (GameReady 581.29). Then the "
    "numba.cuda.to_device() in my code suddenly became not working.\n\nError Messages:\n"
    "OSError: exception: access violation reading 0x0000000000000001"
)

MLC_870 = (
    "I didn't manage to install MLC-AI & MLC-Chat on Ubuntu 18.04 LTS via pre-build packages\n"
    "ERROR: Could not find a version that satisfies the requirement mlc-ai-nightly-cu116 "
    "(from versions: none)\n"
    "ERROR: No matching distribution found for mlc-ai-nightly-cu116"
)

# (thread, text, finding id, knob): lines verbatim from the threads named
ROWS = [
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/273",
        "docker: Error response from daemon: create nvidia_driver_367.57: create "
        "nvidia_driver_367.57: Error looking up volume plugin nvidia-docker: plugin not found. See "
        "'docker run --help'.",
        "container.legacy-runtime-wrapper-broken",
        "nvidia-docker-plugin",
    ),
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/493",
        "I cannot start existing container anymore after driver upgrade to 384.90. I get the "
        "message:\nError response from daemon: get nvidia_driver_381.22: no such volume: "
        "nvidia_driver_381.22",
        "container.legacy-runtime-wrapper-broken",
        "docker commit",
    ),
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/294",
        "nvidia-docker | 2017/01/19 00:21:58 Error: unsupported Docker version",
        "container.legacy-runtime-wrapper-broken",
        "nvidia-docker 1.0.1",
    ),
    (
        "https://github.com/zai-org/VisualGLM-6B/issues/54",
        DEEPSPEED_54,
        "python.console-script-not-on-path",
        "on PATH",
    ),
    (
        "https://github.com/shouxieai/tensorRT_Pro/issues/145",
        "CMakeFiles/pro.dir/src/tensorRT/onnx/onnx-ml.pb.cpp.o: In function "
        "`InitDefaultsscc_info_AttributeProto_onnx_2dml_2eproto()':\n"
        "/home/damon/tensorRT_Pro-main/src/tensorRT/onnx/onnx-ml.pb.cpp:132: undefined reference "
        "to `google::protobuf::internal::VerifyVersion(int, int, char const*)'",
        "build.protobuf-version-mismatch",
        "link order",
    ),
    (
        "https://github.com/facebookresearch/pytorch3d/issues/1631",
        "C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.7/include\\cub/device/dispatch/"
        "dispatch_segmented_sort.cuh(338): error: invalid combination of type specifiers",
        "cuda.bundled-cub-header-bug",
        "CUB_HOME",
    ),
    (
        "https://github.com/Tencent/ncnn/issues/2155",
        "/DATA/share/xiongzhu/thirdpart/ncnn/build/install/include/ncnn/allocator.h:30:10: fatal "
        "error: vulkan/vulkan.h: 没有那个文件或目录",
        "vulkan.dev-files-missing-at-build",
        "libvulkan-dev",
    ),
    (
        "https://github.com/numba/numba/issues/10249",
        NUMBA_10249,
        "numba.builtin-cuda-target-breaks-on-r580",
        "numba-cuda",
    ),
    (
        "https://github.com/OpenNMT/CTranslate2/issues/2006",
        '    add_dll_directory(f"{package_dir}/../_rocm_sdk_core/bin")\n'
        "E   FileNotFoundError: [WinError 3] The system cannot find the path specified: "
        "'D:\\\\a\\\\ct2hf\\\\ct2hf\\\\.venv\\\\Lib\\\\site-packages\\\\ctranslate2/../"
        "_rocm_sdk_core/bin'\n    from ctranslate2.converters import TransformersConverter",
        "ctranslate2.release-rocm-dll-path-regression",
        "ctranslate2>=4.7.1",
    ),
    (
        "https://github.com/absadiki/pywhispercpp/issues/125",
        "I'm running on NVIDA GPU.\nI installed this package via:\n"
        "`WHISPER_CUDA=1 pip install git+https://github.com/abdeladim-s/pywhispercpp`\n"
        "and it doesn't use the GPU.",
        "app.llamacpp.build-flag-renamed",
        "GGML_CUDA=1",
    ),
    (
        "https://github.com/mlc-ai/mlc-llm/issues/870",
        MLC_870,
        "python.no-matching-wheel",
        "manylinux_2_28",
    ),
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/460",
        "docker: Error response from daemon: create nvidia_driver_375.26: Error looking up volume "
        "plugin nvidia-docker: legacy plugin: plugin not found.",
        "container.legacy-runtime-wrapper-broken",
        "nvidia-docker-plugin",
    ),
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/38",
        "nvidia-docker | 2016/01/21 20:42:37 Error: link /usr/bin/nvidia-cuda-mps-control "
        "/home/docker/volumes/nvidia_driver_352.68/_data/bin/nvidia-cuda-mps-control: invalid "
        "cross-device link",
        "container.legacy-runtime-wrapper-broken",
        "same partition",
    ),
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/795",
        "The following packages have unmet dependencies:\n nvidia-docker2 : Depends: docker-ce (= "
        "18.03.1~ce-0~ubuntu) but 18.06.0~ce~3-0~ubuntu is to be installed or",
        "container.nvidia-docker2-docker-version-pin",
        "18.03.1",
    ),
    (
        "https://github.com/NVIDIA/nvidia-docker/issues/825",
        "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/"
        "bd4f3570d4eb99d9df1117bd3751a00c8c0eb63429e65eba2a196c6c543cc52f/merged/usr/bin/nvidia-smi: "
        "file exists",
        "container.image-bundles-driver-libs",
        "nvidia-smi",
    ),
    (
        "https://github.com/hpc203/bytetrack-opencv-onnxruntime/issues/8",
        "您好！ 使用您的代码和提供的onnx文件会提示读取错误: 主要是slice问题，该怎么解决呢？\n"
        "Node [Slice]:(467) parse error: OpenCV(4.5.1)",
        "opencv.dnn-version-incompatible-onnx-model",
        "opencv-python",
    ),
    (
        "https://github.com/hpc203/10kinds-light-face-detector-align-recognition/issues/2",
        "    self.model = cv2.dnn.readNetFromONNX(model_path)`\n`cv2.error: OpenCV(4.1.2) "
        "C:\\projects\\opencv-python\\opencv\\modules\\dnn\\src\\layers\\eltwise_layer.cpp:116: "
        "error: (-215:Assertion failed) inputs[0] == inputs[i] in function "
        "'cv::dnn::EltwiseLayerImpl::getMemoryShapes'`",
        "opencv.dnn-version-incompatible-onnx-model",
        "pip install --upgrade opencv-python",
    ),
    (
        "https://github.com/xlite-dev/lite.ai.toolkit/issues/428",
        "编译通过，但是运行时一直提示error while loading shared libraries: libopencv_imgproc.so.409: "
        "cannot open shared object file: No such file or directory",
        "system.bundled-libs-not-on-loader-path",
        "LD_LIBRARY_PATH",
    ),
    (
        "https://github.com/laugh12321/TensorRT-YOLO/issues/75",
        "cmake --build . -j8 --config Release编译一直报/usr/bin/ld: 找不到 -lnvinfer\n"
        "/usr/bin/ld: 找不到 -lnvinfer_plugin\n/usr/bin/ld: 找不到 -lnvonnxparser",
        "cuda.link-library-not-found",
        "LIBRARY_PATH",
    ),
    (
        "https://github.com/jianchang512/stt/issues/51",
        "安装后程序问题：parallel_for failed: cudaErrorNoKernelImageForDevice: no kernel image is "
        "available for execution on the device\n尝试好几个版本都出现这个问题，显卡型号是geforce 940m。",
        "cuda.gpu-too-old-for-binary",
        "ctranslate2==3.24.0",
    ),
]

test_canonical_lines_reach_their_cause = source_knob_test(ROWS)

# (training case, finding id, knob, its thread): scored as the corpus scores them
CASES = [
    (
        "en-36006-nvidia-docker1-no-such-volume-after-driver-upgrade.txt",
        "container.legacy-runtime-wrapper-broken",
        "docker commit",
        "https://github.com/NVIDIA/nvidia-docker/issues/493",
    ),
    (
        "en-36009-nvidia-docker-unsupported-docker-1-13-1.txt",
        "container.legacy-runtime-wrapper-broken",
        "upgrade nvidia-docker",
        "https://github.com/NVIDIA/nvidia-docker/issues/345",
    ),
    (
        "zh-35500-visualglm-deepspeed-command-not-found.txt",
        "python.console-script-not-on-path",
        "PATH",
        "https://github.com/zai-org/VisualGLM-6B/issues/54",
    ),
    (
        "en-35300-pytorch3d-cuda117-cub-segmented-sort.txt",
        "cuda.bundled-cub-header-bug",
        "CUB_HOME",
        "https://github.com/facebookresearch/pytorch3d/issues/1631",
    ),
    (
        "en-35105-ctranslate2-ci-rocm-add-dll-directory.txt",
        "ctranslate2.release-rocm-dll-path-regression",
        "4.7.1",
        "https://github.com/OpenNMT/CTranslate2/issues/2006",
    ),
    (
        "en-34904-mlc-llm-ubuntu1804-no-wheel-glibc.txt",
        "python.no-matching-wheel",
        "glibc",
        "https://github.com/mlc-ai/mlc-llm/issues/870",
    ),
    (
        "en-36106-nvidia-docker-volume-setup-cross-device.txt",
        "container.legacy-runtime-wrapper-broken",
        "same partition",
        "https://github.com/NVIDIA/nvidia-docker/issues/38",
    ),
    (
        "en-36105-nvidia-docker2-unmet-docker-ce-dependency.txt",
        "container.nvidia-docker2-docker-version-pin",
        "18.03.1",
        "https://github.com/NVIDIA/nvidia-docker/issues/795",
    ),
    (
        "zh-36208-hpc203-face-opencv-412-eltwise.txt",
        "opencv.dnn-version-incompatible-onnx-model",
        "opencv-python",
        "https://github.com/hpc203/10kinds-light-face-detector-align-recognition/issues/2",
    ),
    (
        "zh-36204-liteai-run-opencv-so-missing.txt",
        "system.bundled-libs-not-on-loader-path",
        "LD_LIBRARY_PATH",
        "https://github.com/xlite-dev/lite.ai.toolkit/issues/428",
    ),
    (
        "zh-36210-tensorrt-yolo-ld-cannot-find-lnvinfer.txt",
        "cuda.link-library-not-found",
        "LIBRARY_PATH",
        "https://github.com/laugh12321/TensorRT-YOLO/issues/75",
    ),
    (
        "zh-22636-stt-940m-ctranslate2-no-kernel-image.txt",
        "cuda.gpu-too-old-for-binary",
        "ctranslate2==3.24.0",
        "https://github.com/jianchang512/stt/issues/51",
    ),
]

test_development_cases_reach_their_cause = training_case_test(CASES, keywords=True)


def test_a_system_command_not_found_is_not_a_pip_launcher() -> None:
    """nvidia-smi and nvcc missing are the driver's and the toolkit's stories, not pip's scripts
    folder; the launcher reading names the command of the paste."""
    for text in ("bash: nvidia-smi: command not found", "bash: nvcc: command not found"):
        assert "python.console-script-not-on-path" not in [f.id for f in triage_text(text).findings]
    found = triage_text("zsh: command not found: torchrun").findings
    assert found[0].id == "python.console-script-not-on-path"
    assert "torchrun" in found[0].title


def test_an_access_violation_without_numba_is_not_the_r580_reading() -> None:
    text = "OSError: exception: access violation reading 0x0000000000000001\nimport ctypes"
    assert "numba.builtin-cuda-target-breaks-on-r580" not in [
        f.id for f in triage_text(text).findings
    ]
    assert triage_text(NUMBA_10249).findings[0].id == "numba.builtin-cuda-target-breaks-on-r580"


def test_a_missing_rocm_folder_outside_ctranslate2_is_not_its_regression() -> None:
    text = (
        "FileNotFoundError: [WinError 3] The system cannot find the path specified: "
        "'C:\\\\venv\\\\Lib\\\\site-packages\\\\torch\\\\lib'"
    )
    assert "ctranslate2.release-rocm-dll-path-regression" not in [
        f.id for f in triage_text(text).findings
    ]


def test_protobuf_words_without_a_protobuf_error_are_not_this_reading() -> None:
    """A protobuf package pin in a pip log is Python's protobuf, not a C++ link."""
    text = (
        "Successfully installed protobuf-3.20.3\nTypeError: Descriptors cannot be created directly."
    )
    assert "build.protobuf-version-mismatch" not in [f.id for f in triage_text(text).findings]


def test_a_vulkan_loader_error_at_run_time_is_not_a_build_header() -> None:
    """A missing Vulkan driver at run time (vkCreateInstance) is the driver's story."""
    text = "[vkCreateInstance] failed -9\nvulkan device not found"
    assert "vulkan.dev-files-missing-at-build" not in [f.id for f in triage_text(text).findings]


def test_whisper_cuda_in_a_cmake_option_of_the_new_name_is_not_this_reading() -> None:
    text = (
        "GGML_CUDA=1 pip install git+https://github.com/absadiki/pywhispercpp\nit works on the GPU"
    )
    assert "app.llamacpp.build-flag-renamed" not in [f.id for f in triage_text(text).findings]


# (training case, the release its body names): real pastes, read line by line as triage reads them
RELEASES = [
    ("en-36100-nvidia-docker-plugin-not-running.txt", ("ubuntu", "14.04")),  # "OS: ubuntu 14.04"
    ("en-36106-nvidia-docker-volume-setup-cross-device.txt", ("rhel", "7")),  # "a CentOS 7 box"
    (
        "zh-36209-fastdeploy-conda-cudnn-ld-path.txt",
        ("ubuntu", "18.04"),
    ),  # "Linux x64(Ubuntu 18.04)"
    ("en-34904-mlc-llm-ubuntu1804-no-wheel-glibc.txt", ("ubuntu", "18.04")),
    # only an image tag: nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04
    ("en-35101-faster-whisper-cuda118-image-libcublas12.txt", None),
]


def test_the_release_reader_on_real_pastes() -> None:
    corpus = Path(__file__).parent / "triage_corpus" / "train"
    for name, want in RELEASES:
        body = (corpus / name).read_text(encoding="utf-8").split("\n#! ---\n", 1)[1]
        found = named_release(body.splitlines())
        assert (found[:2] if found else None) == want, (name, found)


def test_the_release_reader_takes_one_named_release_not_image_tags() -> None:
    assert named_release(["Operating system: Ubuntu 18.04.6 LTS"]) == (
        "ubuntu",
        "18.04",
        "Ubuntu 18.04",
    )
    assert named_release(["CentOS Linux release 7.9.2009 (Core)"])[:2] == ("rhel", "7")
    assert named_release(["FROM nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04"]) is None
    assert named_release(["docker run -it ubuntu:18.04"]) is None
    assert named_release(["host Ubuntu 20.04, container Ubuntu 18.04"]) is None
    assert named_release(["Debian GNU/Linux 10 (buster)"])[:2] == ("debian", "10")


def test_the_glibc_fix_is_offered_only_below_manylinux_2_28() -> None:
    """Ubuntu 18.04 (glibc 2.27) is older than manylinux_2_28's first Ubuntu (18.10); Ubuntu
    20.04 and a report naming no release get no such fix."""
    newer = MLC_870.replace("Ubuntu 18.04", "Ubuntu 20.04")
    bare = MLC_870.replace(" on Ubuntu 18.04 LTS", "")
    assert any("manylinux_2_28" in t for t in fix_texts(MLC_870, "python.no-matching-wheel"))
    for text in (newer, bare):
        assert not any("manylinux_2_28" in t for t in fix_texts(text, "python.no-matching-wheel"))


def test_a_cuda_library_missing_at_start_is_not_the_generic_loader_reading() -> None:
    """libcudart / libcuda have readings of their own (the CUDA runtime of another major, the
    container's driver libraries), and libvulkan is the Vulkan loader's (a driver without
    Vulkan: en-12215's Fermi card); the generic reading is for a program's own libraries."""
    text = (
        "./sd-cli: error while loading shared libraries: libcudart.so.12: cannot open shared "
        "object file: No such file or directory"
    )
    assert "system.bundled-libs-not-on-loader-path" not in [
        f.id for f in triage_text(text).findings
    ]
    vulkan = (
        "./vulkaninfo: error while loading shared libraries: libvulkan.so.1: cannot open shared "
        "object file: No such file or directory"
    )
    assert "signature:system.bundled-libs-not-on-loader-path" not in finding_origins(vulkan)
    own = (
        "./demo: error while loading shared libraries: libncnn.so.1: cannot open shared object file"
    )
    found = triage_text(own).findings
    assert found[0].id == "system.bundled-libs-not-on-loader-path"
    assert "libncnn.so.1" in found[0].title


def test_an_opencv_error_outside_the_dnn_module_is_not_the_onnx_reading() -> None:
    """An assertion in imgproc is no ONNX import: the DNN reading's lines do not match it (the
    similar-case suggestions may still show the thread of one, as a similar case)."""
    text = (
        "cv2.error: OpenCV(4.5.5) D:\\a\\opencv-python\\opencv\\modules\\imgproc\\src\\resize.cpp:4052: "
        "error: (-215:Assertion failed) !ssize.empty() in function 'cv::resize'"
    )
    assert "signature:opencv.dnn-version-incompatible-onnx-model" not in finding_origins(text)
    assert "signature:opencv.dnn-version-incompatible-onnx-model" in finding_origins(ROWS[15][1])


def test_the_cuda_linker_reading_keeps_cuda_libraries_and_tensorrt_gets_its_own() -> None:
    cuda = triage_text("/usr/bin/ld: cannot find -lcudart: No such file or directory").findings[0]
    trt = triage_text("/usr/bin/ld: cannot find -lnvinfer").findings[0]
    assert cuda.id == trt.id == "cuda.link-library-not-found"
    assert "TensorRT" in trt.title and "TensorRT" not in cuda.title


def test_a_hard_link_across_filesystems_outside_nvidia_docker_is_not_its_volume() -> None:
    text = "cp: cannot create hard link 'b/x' to 'a/x': Invalid cross-device link"
    assert "container.legacy-runtime-wrapper-broken" not in [
        f.id for f in triage_text(text).findings
    ]


THRUST_51 = (
    "安装:conda install pytorch==2.1.2 torchvision==0.16.2 torchaudio==2.1.2 pytorch-cuda=11.8 "
    "-c pytorch -c nvidia\n安装后程序问题：parallel_for failed: cudaErrorNoKernelImageForDevice: no "
    "kernel image is available for execution on the device\n尝试好几个版本都出现这个问题，显卡型号是"
    "geforce 940m。"
)


def test_thrusts_message_on_an_old_gpu_is_not_read_as_torchs_build() -> None:
    """stt#51: thrust's parallel_for line from a compiled library on a GeForce 940M; PyTorch's
    own 'CUDA error: no kernel image' on the same GPU stays the torch reading, and thrust's line
    on a new GPU is not the old-GPU reading."""
    ids = [f.id for f in triage_text(THRUST_51).findings]
    assert ids[0] == "cuda.gpu-too-old-for-binary", ids
    assert "torch.gpu-too-old-for-build" not in ids
    torch_own = (
        "GPU: GeForce 940M\ntorch 2.1.2+cu121\nRuntimeError: CUDA error: no kernel image is "
        "available for execution on the device"
    )
    assert "signature:cuda.no-kernel-image.thrust-library-old-gpu" not in finding_origins(torch_own)
    new_gpu = THRUST_51.replace("geforce 940m", "RTX 4090")
    assert "signature:cuda.no-kernel-image.thrust-library-old-gpu" not in finding_origins(new_gpu)


def test_the_cuda_jl_driver_fix_needs_the_cuda_jl_message() -> None:
    """The CUDA.jl entry's driver fix fills in the toolkit floor its message names; a paste
    without that message (suggested the same cause from a similar case) does not get it."""
    jl = (
        "Error: CUDA driver 8.0.0 is not compatible with any supported CUDA toolkit "
        "(11.4.4, 11.5.2, 11.6.2)"
    )
    assert any("CUDA 11.4 or newer" in t for t in fix_texts(jl, "cuda.gpu-too-old-for-binary"))
    other = THRUST_51
    assert not any("CUDA.jl" in t for t in fix_texts(other, "cuda.gpu-too-old-for-binary"))
