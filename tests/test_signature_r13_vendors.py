"""Frequent messages of the non-NVIDIA stacks (Intel XPU / oneAPI, AMD ROCm, DirectML, Apple MPS),
swept in round 13 (checks/signatures/{amd_rocm,torch,memory,intel}.toml): each verbatim message, from the public
thread cited beside it, reaches the cause the thread confirmed first, and that cause's fixes name
the knob the confirmed fix turned."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text

# (message, the finding id first, a command one of its fixes gives); the thread per row
KNOB = [
    # https://github.com/intel/intel-xpu-backend-for-triton/issues/2393 (maintainer: oneAPI not sourced)
    (
        '  File "/home/ksuvorov/miniforge3/envs/intel-xpu-upstream/lib/python3.10/site-packages/torch/__init__.py",'
        " line 300, in _load_global_deps\n"
        "    ctypes.CDLL(global_deps_lib_path, mode=ctypes.RTLD_GLOBAL)\n"
        '  File "/home/ksuvorov/miniforge3/envs/intel-xpu-upstream/lib/python3.10/ctypes/__init__.py", line 374,'
        " in __init__\n"
        "    self._handle = _dlopen(self._name, mode)\n"
        "OSError: libmkl_intel_lp64.so.2: cannot open shared object file: No such file or directory",
        "intel.oneapi-not-sourced",
        "source /opt/intel/oneapi/setvars.sh",
    ),
    # https://github.com/ROCm/MIOpen/issues/1606 (maintainer: a warning, not an error; the kdb package)
    (
        "MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_40.kdb Performance may"
        " degrade. Please follow instructions to install:"
        " https://github.com/ROCmSoftwarePlatform/MIOpen#installing-miopen-kernels-package",
        "rocm.miopen-kdb-missing",
        "apt-cache search miopenkernels-gfx1030",
    ),
    # https://github.com/ROCm/MIOpen/issues/1996 (reporter: only the first generation is slow, then fast)
    (
        "MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_18.kdb Performance may"
        " degrade. Please follow instructions to install:"
        " https://github.com/ROCmSoftwarePlatform/MIOpen#installing-miopen-kernels-package",
        "rocm.miopen-kdb-missing",
        "apt-cache search miopenkernels-gfx1030",
    ),
    # https://github.com/microsoft/DirectML/issues/602 (reporter: torch.no_grad() instead works)
    (
        "device = torch_directml.device()\n"
        "model = torch.nn.Linear(3, 128).eval().to(device)\n"
        "with torch.inference_mode():\n"
        "RuntimeError: Cannot set version_counter for inference tensor",
        "torch.inference-mode-version-counter",
        "with torch.no_grad():",
    ),
    # https://github.com/microsoft/DirectML/issues/622 (a commenter: no_grad instead of inference_mode works)
    (
        "I am trying to run YoloV8 on my AMD RX550 using DirectML and every time i run the training it"
        " fails with this error\n"
        "RuntimeError: Cannot set version_counter for inference tensor",
        "torch.inference-mode-version-counter",
        "with torch.no_grad():",
    ),
    # https://github.com/Comfy-Org/ComfyUI/issues/3869 (maintainer: out of VRAM; reporter solved with --cpu)
    (
        "Could not allocate tensor with 58982400 bytes. There is not enough GPU video memory available!",
        "memory.out-of-memory",
        "python main.py --cpu",
    ),
    # https://github.com/bghira/SimpleTuner/issues/1523 (maintainer: change the float64 to float32)
    (
        "Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64",
        "fit.dtype-unsupported",
        "tensor = tensor.to(torch.float32).to('mps')",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "command"), KNOB, ids=[k[1] for k in KNOB])
def test_a_vendor_message_gets_its_cause_and_the_knob_it_states(text, finding_id, command) -> None:
    finding = triage_text(text + "\n").findings[0]
    assert finding.id == finding_id
    assert command in [c for fix in finding.fixes for c in fix.commands]


@pytest.mark.parametrize(
    ("text", "not_id"),
    [
        # a missing per-user config folder (boost::filesystem), not a missing kernel database:
        # https://github.com/ROCm/legacy-rocm-build/issues/1677
        (
            "MIOpen(HIP): Warning [SQLiteBase] Unable to read system database file:"
            "/opt/rocm/miopen/share/miopen/db/gfx906_60.kdb Performance may degrade\n"
            "terminate called after throwing an instance of 'boost::filesystem::filesystem_error'\n"
            '  what():  boost::filesystem::permissions: No such file or directory: "/home/ssml/singh/.config/'
            'miopen//gfx906_60.HIP.2_11_0_993628deb.ufdb.txt"',
            "rocm.miopen-kdb-missing",
        ),
        # an Intel GPU lost (Level Zero), not an NVIDIA kernel module / library mismatch:
        # https://github.com/pytorch/pytorch/issues/190972
        (
            "    return torch._C._xpu_synchronize(device)\n"
            "RuntimeError: level_zero backend failed with error: 20 (UR_RESULT_ERROR_DEVICE_LOST)",
            "nvidia.driver-library-mismatch",
        ),
    ],
)
def test_a_look_alike_message_is_not_read_as_the_cause(text, not_id) -> None:
    findings = triage_text(text + "\n").findings
    assert not findings or findings[0].id != not_id
