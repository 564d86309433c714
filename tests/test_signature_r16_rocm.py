"""AMD ROCm, round 16 sweep (checks/signatures/amd_rocm.toml and the override fixes of {amd_rocm,torch}.toml,
{amd_rocm,intel,windows}.toml and checks/signatures/*.toml): each message, verbatim from a thread whose fix was confirmed,
reaches its cause first and that cause's fixes name the knob the confirmed fix turned on; the
HSA_OVERRIDE_GFX_VERSION value a fix proposes follows the GPU's gfx target when the paste names it."""

from __future__ import annotations

import pytest

from envdoctor.triage_engine import triage_text
from tests.triage_lines import fixes_text, knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for "
        "GPU arch : gfx90c",
        "rocm.gfx-unsupported",
        "HSA_OVERRIDE_GFX_VERSION=9.0.0",
        "https://github.com/ROCm/rocBLAS/issues/1398",
    ),
    (
        ">>> import torch\n>>> torch.cuda.is_available()\n"
        '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"\n'
        "Aborted (core dumped)\n"
        "After override gfx90c to gfx900",
        "rocm.no-binary-for-gpu",
        "HSA_OVERRIDE_GFX_VERSION=9.0.0",
        "https://github.com/ROCm/legacy-rocm-build/issues/1743",
    ),
    (
        "rocBLAS error: Cannot read C:\\Program Files\\AMD\\ROCm\\6.1\\bin\\/rocblas/library/"
        "TensileLibrary.dat: No such file or directory for GPU arch : gfx1103",
        "rocm.gfx-unsupported",
        "HIP SDK",
        "https://github.com/brknsoul/ROCmLibs/issues/4",
    ),
    (
        "ocBLAS error: Cannot read C:\\Program Files\\AMD\\ROCm\\6.2\\bin\\/rocblas/library/"
        "TensileLibrary.dat: No such file or directory for GPU arch : gfx1201\n"
        "rocBLAS error: Could not initialize Tensile host:\n"
        "regex_error(error_backref): The expression contained an invalid back reference.",
        "rocm.gfx-unsupported",
        "rocblas",
        "https://github.com/githubcto/FramePack-ZLUDA/issues/4",
    ),
    (
        "WSL environment detected.\n"
        "hsa api call failure at: /longer_pathname_so_that_rpms_can_support_packaging_the_debug_info"
        "_for_all_os_profiles/src/rocminfo/rocminfo.cc:1306\n"
        "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary "
        "resources. This error may also occur when the core runtime library needs to spawn threads or "
        "create internal OS-specific events.",
        "rocm.wsl-release-unsupported",
        "WSL",
        "https://github.com/ROCm/legacy-rocm-build/issues/5106",
    ),
    (
        "amdgpu:~/amd$ sudo /opt/rocm-4.5.2/bin/rocminfo\n"
        "ROCk module is loaded\n"
        "Unable to open /dev/kfd read-write: Cannot allocate memory\n"
        "jbberry is member of render group",
        "rocm.driver-not-loaded",
        "dkms status",
        "https://github.com/ROCm/legacy-rocm-build/issues/1663",
    ),
    (
        "kfd kfd: amdgpu: OLAND not supported in kfd",
        "rocm.driver-not-loaded",
        "GFX6",
        "https://github.com/ROCm/legacy-rocm-build/issues/3897",
    ),
    (
        "Memory access fault by GPU node-1 (Agent handle: 0x5570f8146df0) on address 0x7ff96a9ac000. "
        "Reason: Page not present or supervisor privilege\n"
        "[   67.058794] amdgpu 0000:c4:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:153 vmid:8 "
        "pasid:32786)",
        "rocm.gfx-unsupported",
        "linux-firmware",
        "https://github.com/ROCm/legacy-rocm-build/issues/5616",
    ),
    (
        "The new ROCm builds have a quirk which probably needs documentation somewhere: if a user is "
        "running an AMD GPU on an AMD CPU with an iGPU, the user must specify which GPU to use. If the "
        "user doesn't, then it's likely to cause a crash, especially if the iGPU is the \"display "
        'output only" type found on most Ryzen 9000 series processors.\n\n'
        "On most systems in this state, the discrete GPU will be ROCm Device 0, and the iGPU ROCm "
        "Device 1.",
        "rocm.igpu-enumerated-first",
        "ROCR_VISIBLE_DEVICES",
        "https://github.com/oobabooga/textgen/issues/7319",
    ),
]

# real messages of other causes that the patterns above could catch: (message, the cause that must
# not rank first, the thread)
XFAIL_CASE_BASE = (
    "round 22: the case base, rebuilt with round 22's training cases, suggests this cause "
    "from real threads sharing the message's words; open"
)

LOOKALIKE = [
    pytest.param(
        # /dev/kfd exists and is open to the group: LXC container, not a missing driver
        "ROCk module is loaded\nUnable to open /dev/kfd read-write: Invalid argument\n"
        "x1unix is member of render group",
        "rocm.driver-not-loaded",
        "https://github.com/ROCm/legacy-rocm-build/issues/6166",
        marks=pytest.mark.xfail(strict=True, reason=XFAIL_CASE_BASE),
    ),
    (
        # a kfd line of a GPU that KFD did add
        "[    1.482926] kfd kfd: amdgpu: Allocated 3969056 bytes on gart\n"
        "[    1.483779] kfd kfd: amdgpu: added device 1002:15d8",
        "rocm.driver-not-loaded",
        "https://github.com/ROCm/rocminfo/issues/40",
    ),
    (
        # a WSL rocminfo failure: the release, not the integrated GPU
        "WSL environment detected.\nROCR: unsupported GPU\n"
        "hsa api call failure at: /long_pathname_so_that_rpms_can_package_the_debug_info/src/"
        "rocminfo/rocminfo.cc:1306",
        "rocm.igpu-enumerated-first",
        "https://github.com/ROCm/legacy-rocm-build/issues/4435",
    ),
]


test_message_reaches_cause_and_knob = knob_test(KNOB)


test_lookalike_is_not_caught = lookalike_test(LOOKALIKE, may_be_empty=True)


# The override value follows the gfx target the paste names (typed probes of the rule, not field
# messages): a GCN card (gfx803) gets no RDNA override, an RDNA3 card no 10.3.0.
@pytest.mark.parametrize(
    ("text", "present", "absent"),
    [
        (
            "hipErrorNoBinaryForGpu: Unable to find code object for all current devices! gfx1031",
            "10.3.0",
            "11.0.0",
        ),
        (
            "hipErrorNoBinaryForGpu: Unable to find code object for all current devices! gfx1102",
            "11.0.0",
            "10.3.0",
        ),
        (
            "hipErrorNoBinaryForGpu: Unable to find code object for all current devices! gfx803",
            "rocminfo",
            "10.3.0",
        ),
        (
            "HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid. gfx1102",
            "11.0.0",
            "10.3.0",
        ),
        (
            "HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid. gfx1032",
            "10.3.0",
            "11.0.0",
        ),
    ],
)
def test_override_value_follows_gfx(text: str, present: str, absent: str) -> None:
    findings = triage_text(text + "\n").findings
    assert findings
    fixes = fixes_text(findings[0])
    assert present in fixes and absent not in fixes, fixes
