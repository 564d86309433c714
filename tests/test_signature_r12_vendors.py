"""Frequent messages of the non-NVIDIA and Windows stacks (AMD ROCm, Intel GPUs / OpenVINO, Apple MPS,
Windows; checks/signatures/{amd_rocm,intel,windows}.toml and the entries it extends): each message, copied from a
public thread where the fix was confirmed (the reporter says it worked, or a maintainer states the
cause and the fix), reaches its cause first, and that cause's fixes name the knob the fix turned."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_not_first, command_test

# (message, the finding id first, what one of its fixes' commands contains, the thread)
KNOB = [
    (
        "torch.AcceleratorError: HIP error: invalid device function\n"
        "Search for `hipErrorInvalidDeviceFunction' in"
        " https://docs.nvidia.com/cuda/cuda-runtime-api/group__HIPRT__TYPES.html for more information.\n"
        "HIP kernel errors might be asynchronously reported at some other API call, so the stacktrace"
        " below might be incorrect.\n"
        "For debugging consider passing AMD_SERIALIZE_KERNEL=3\n"
        "Compile with `TORCH_USE_HIP_DSA` to enable device-side assertions.",
        "rocm.no-binary-for-gpu",
        "export HSA_OVERRIDE_GFX_VERSION=11.0.0",
        "https://github.com/pytorch/pytorch/issues/164346",
    ),
    (
        "pytorch rocm 6.0 with 7600xt = HSA_STATUS_ERROR_INVALID_ISA",
        "rocm.no-binary-for-gpu",
        "export HSA_OVERRIDE_GFX_VERSION=11.0.0",
        "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/15434",
    ),
    (
        "ROCk module is loaded\n"
        "xeon is member of video group\n"
        "hsa api call failure at: /data/jenkins-workspace/compute-rocm-rel-3.3/rocminfo/rocminfo.cc:1102\n"
        "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary"
        " resources. This error may also occur when the core runtime library needs to spawn threads or"
        " create internal OS-specific events.",
        "rocm.kfd-permission",
        "sudo usermod -aG render,video $USER",
        "https://github.com/ROCm/legacy-rocm-build/issues/1080",
    ),
    (
        "hsa api call failure at: /data/jenkins-workspace/compute-rocm-rel-3.3/rocminfo/rocminfo.cc:1102\n"
        "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary"
        " resources. This error may also occur when the core runtime library needs to spawn threads or"
        " create internal OS-specific events.",
        "rocm.kfd-permission",
        "sudo usermod -aG render,video $USER",
        "https://github.com/ROCm/legacy-rocm-build/issues/1080",
    ),
    (
        "/opt/amdgpu/share/libdrm/amdgpu.ids: No such file or directory",
        "rocm.amdgpu-ids-missing",
        "sudo apt install libdrm-amdgpu-common",
        "https://github.com/ROCm/pytorch/issues/984",
    ),
    (
        "TypeError: Failed to create plugin"
        " /opt/intel/openvino_2020.2.120/deployment_tools/inference_engine/lib/intel64/libclDNNPlugin.so"
        " for device GPU\n"
        "Please, check your environment\n"
        "[CLDNN ERROR]. clGetPlatformIDs error -1001",
        "intel.xpu-without-runtime",
        "intel-opencl-icd",
        "https://github.com/intel/inference-engine-node/issues/36",
    ),
    (
        "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64",
        "fit.dtype-unsupported",
        "tensor.to(torch.float32).to('mps')",
        "https://github.com/bghira/SimpleTuner/issues/1523",
    ),
    (
        "CUDA error: the launch timed out and was terminated",
        "windows.device-removed-tdr",
        "HKLM:\\System\\CurrentControlSet\\Control\\GraphicsDrivers",
        "https://github.com/Purfview/whisper-standalone-win/issues/411",
    ),
    (
        'OSError: [WinError 1455] 页面文件太小，无法完成操作。 Error loading "D:\\Bert-VITS2-Integration-Package'
        '\\venv\\lib\\site-packages\\torch\\lib\\cublas64_11.dll" or one of its dependencies.',
        "windows.pagefile-too-small",
        "DataLoader(dataset, num_workers=0)",
        "https://github.com/YYuX-1145/Bert-VITS2-Integration-package/issues/5",
    ),
    (
        "OSError: [WinError 127] The specified procedure could not be found. Error loading"
        ' "C:\\Users\\Admin\\AppData\\Local\\Programs\\Python\\Python39\\lib\\site-packages\\torch\\lib'
        '\\c10_cuda.dll" or one of its dependencies.',
        "windows.dll-dependency-missing",
        "pip uninstall -y torch",
        "https://github.com/zeyad-mansour/lunar/issues/58",
    ),
]


test_a_common_message_gets_its_cause_and_the_knob_it_needs = command_test(
    KNOB, ids=[f"{k[1]}-{i}" for i, k in enumerate(KNOB)]
)


@pytest.mark.parametrize(
    ("text", "not_id", "url"),
    [
        # a snap's confinement hides the system's libdrm data file from a game: not a ROCm wheel
        (
            "/usr/share/libdrm/amdgpu.ids: No such file or directory",
            "rocm.amdgpu-ids-missing",
            "https://github.com/canonical/steam-snap/issues/176",
        ),
        (
            "/usr/share/libdrm/amdgpu.ids: No such file or directory\n"
            "X Error:  BadAlloc\n"
            "  Request Major code 149 ()\n"
            "  Request Minor code 2",
            "rocm.amdgpu-ids-missing",
            "https://github.com/mmtrt/cncra2yr-snap/issues/32",
        ),
    ],
)
def test_a_look_alike_message_is_not_read_as_the_cause(text, not_id, url) -> None:
    assert_not_first(text + "\n", not_id, url, may_be_empty=True)
