"""Knob gaps, round 19, second pass (knobgapD): training cases whose confirmed cause reached
envdoctor's top three while its fixes named nothing the thread's real fix turned on. Each KNOB row
reads a case's body from tests/triage_corpus/train (as the corpus scorer does, its own thread left
out of the case base) and asserts that an accepted finding ranks in the top three and that its
fixes name the knob: 'xpu' requested on a machine without an Intel GPU (set the device to cuda),
an LD_LIBRARY_PATH entry that does not exist (the fix names the entry captured from the text),
NVML's "driver not loaded" on a Kubernetes node without a GPU (restore runc as its runtime),
so-vits-svc inference out of memory on a long input (force slices with -cl / --clip), the
NVIDIA module's DKMS build failing on a custom kernel (a new cause: try the vanilla kernel).
LOOKALIKE rows are real messages of the same causes from existing test tables, whose facts differ:
they must not get the new fix."""

from __future__ import annotations

import pytest
from triage_lines import fixes_text, row_text, training_case_test, triage_text

# (training case file, an accepted finding id, a knob its fixes must name, thread)
KNOB = [
    # the reporter switched app.py's device line from "xpu" (Intel Arc) to "cuda": resolved
    (
        "en-2404-xpu-device-on-cuda-host.txt",
        "intel.ipex-cpu-only-build",
        "cuda",
        "https://github.com/luosiallen/latent-consistency-model/issues/71",
    ),
    # the maintainer (wanghaoshuang): "/usr/lcoal/cuda-10.1/lib64: lcoal -> local"
    (
        "zh-2514-paddle-ld-library-path-typo.txt",
        "cuda.cudnn-missing",
        "lcoal",
        "https://github.com/PaddlePaddle/Paddle/issues/24805",
    ),
    # HAMi maintainer (Nimbus318): the GPU-less master's runtime was set to nvidia-container-runtime;
    # restore the default runc there; the reporter thanked them
    (
        "zh-1406-hami-master-nvidia-runtime-nvml-driver-not-loaded.txt",
        "nvidia.no-driver-bound",
        "runc",
        "https://github.com/Project-HAMi/HAMi/issues/715",
    ),
    # maintainer: slice the audio (and the 32k model); a later commenter confirmed slicing fixed it
    (
        "zh-0111-so-vits-svc-infer-oom-12g-use-32k-slice.txt",
        "memory.out-of-memory",
        "slice",
        "https://github.com/innnky/so-vits-svc/issues/43",
    ),
    # the reporter closed it: the build works on the vanilla 6.7 kernel, the custom linux-ck one broke it
    (
        "en-1809-nvidia-open-dkms-fails-on-custom-kernel.txt",
        "nvidia.dkms-custom-kernel",
        "vanilla",
        "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/591",
    ),
]

# (message of the same cause with other facts, its finding id, the new fix's words it must not get,
# thread or table it was read from)
LOOKALIKE = [
    # an Intel GPU named in the text: the device stays 'xpu' (tests/test_signature_r19_xpumps4.py's
    # A770 and ipex-llm's FAQ message)
    (
        "My Intel Arc A770 on Windows 11:\nRuntimeError: PyTorch is not linked with support for xpu devices",
        "intel.ipex-cpu-only-build",
        'set the device to "cuda"',
        "https://github.com/intel-analytics/ipex-llm/blob/main/docs/mddocs/Overview/FAQ/faq.md",
    ),
    # no LD_LIBRARY_PATH in the text (tests/test_signature_r15_onnx.py)
    (
        "When running \n`import onnxruntime `, I get the following error: \n`OSError: libcudnn.so.7: cannot open shared object file: No such file or directory`",
        "onnxruntime.cuda-deps-mismatch",
        "The LD_LIBRARY_PATH shown names",
        "https://github.com/microsoft/onnxruntime/issues/3632",
    ),
    # onnxruntime's CUDA provider missing cuDNN 9 (tests/test_signature_r13_libs.py): another cause
    (
        row_text(
            "test_signature_r13_libs",
            "https://github.com/Holasyb918/HeyGem-Linux-Python-Hack/issues/5",
        ),
        "onnxruntime.cuda-deps-mismatch",
        "The LD_LIBRARY_PATH shown names",
        "https://github.com/Holasyb918/HeyGem-Linux-Python-Hack/issues/5",
    ),
    # the host's NVIDIA driver was the problem, no GPU-less node (tests/test_signature_r14_container2.py)
    (
        row_text(
            "test_signature_r14_container2", "https://github.com/HonuRobotics/dockwater/pull/10"
        ),
        "nvidia.no-driver-bound",
        "runc",
        "https://github.com/HonuRobotics/dockwater/pull/10",
    ),
    # so-vits-svc-fork's `svc infer` has no -cl option (tests/test_signature_r14_memfix.py)
    (
        row_text(
            "test_signature_r14_memfix", "https://github.com/voicepaw/so-vits-svc-fork/issues/225"
        ),
        "memory.workload-does-not-fit",
        "so-vits-svc inference slices the input audio only at silences",
        "https://github.com/voicepaw/so-vits-svc-fork/issues/225",
    ),
    # an out-of-memory of another program (tests/test_signature_r18_hwoom3.py)
    (
        row_text("test_signature_r18_hwoom3", "https://github.com/mlverse/torch/issues/1222"),
        "memory.out-of-memory",
        "so-vits-svc inference slices the input audio only at silences",
        "https://github.com/mlverse/torch/issues/1222",
    ),
    # a linux-tkg LLVM kernel: the compiler, not the patch set (tests/test_signature_r18_dkms3.py)
    (
        row_text(
            "test_signature_r18_dkms3", "https://github.com/Frogging-Family/nvidia-all/issues/36"
        ),
        "nvidia.dkms-compiler-mismatch",
        "the failure is the custom kernel's",
        "https://github.com/Frogging-Family/nvidia-all/issues/36",
    ),
    # a stale DKMS tree on a stock kernel (tests/test_signature_r18_dkms3.py)
    (
        row_text(
            "test_signature_r18_dkms3", "https://github.com/negativo17/nvidia-driver/issues/64"
        ),
        "nvidia.module-not-built-for-kernel",
        "the failure is the custom kernel's",
        "https://github.com/negativo17/nvidia-driver/issues/64",
    ),
]


test_case_reaches_cause_with_knob = training_case_test(KNOB, keywords=True)


@pytest.mark.parametrize(("text", "finding_id", "words", "source"), LOOKALIKE)
def test_lookalike_does_not_get_the_new_fix(
    text: str, finding_id: str, words: str, source: str
) -> None:
    findings = triage_text(text + "\n").findings
    assert findings and findings[0].id == finding_id, (source, [f.id for f in findings[:3]])
    assert all(words not in fixes_text(f) for f in findings), source
