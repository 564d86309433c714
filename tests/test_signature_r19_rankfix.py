"""Ranking, round 19 (rankfix): training cases whose confirmed cause ranked second or third under
another finding (a symptom the cause should fold, a too-broad cue of another cause, a similar-case
guess over a signature). Each KNOB row triages a training case's body as the corpus scorer does
(the case's own thread left out of the case base of similar cases): the confirmed cause (its
`expected` id or an `also` id) ranks first and its fixes name one of the case's fix keywords.
Rows not fixed this round are strict xfails saying why. LOOKALIKE rows are real messages, from
earlier rounds' tables, of the cause that led those cases: there it IS right and must stay first."""

from __future__ import annotations

import pytest
from triage_lines import assert_training_case

from envdoctor.triage_engine import triage_text


def _xfail(row: tuple[str, str, str], reason: str) -> object:
    return pytest.param(*row, marks=pytest.mark.xfail(strict=True, reason=reason))


# (training case file, the finding id first, thread): the knob is the case's own `keywords`
KNOB = [
    # littletomatodonkey (PaddleOCR): the CPU paddle is installed; uninstall it, install paddlepaddle-gpu
    # ("没有正常使用到 GPU": not using the GPU properly, a phrasing the prose cue now reads)
    (
        "zh-1314-paddleocr-quickstart-slow-cpu-paddle.txt",
        "paddle.cpu-package-installed",
        "https://github.com/PaddlePaddle/PaddleOCR/issues/1519",
    ),
    # reporter hamelsveld: "downgrading solves it" (back to JetPack 4.3, CUDA 10.0); a native
    # binary's loader, not a torch wheel: the missing CUDA runtime names the JetPack that ships it
    (
        "en-1328-opendatacam-jetson-nano-jp44-libcudart-so-10-0.txt",
        "cuda.runtime-lib-major-missing",
        "https://github.com/opendatacam/opendatacam/issues/214",
    ),
    # AMD (schung-amd): "gfx1036 is indeed an iGPU architecture ... Disabling your integrated
    # graphics should resolve this issue"; reporter: "Disabled, solved."
    (
        "en-2539-rocm-win-6800xt-igpu-gfx1036.txt",
        "rocm.igpu-enumerated-first",
        "https://github.com/ROCm/legacy-rocm-build/issues/4390",
    ),
    # an ONNX Runtime maintainer pointed to the official onnxruntime-gpu package for aarch64 (no
    # linux-aarch64 wheel of 1.21 on PyPI): pip's words follow the quoted pip command
    (
        "en-1805-dgx-spark-onnxruntime-gpu-no-aarch64-wheel.txt",
        "python.no-matching-wheel",
        "https://github.com/microsoft/onnxruntime/issues/26351",
    ),
    # reporter pessimo: "是因为使用的 cuda12，和当前的 torch 不兼容。 升级torch 到nightly 版本即可"
    # (its knob, the 2023 nightly / cu121, is not checked: the chooser names today's CUDA build)
    (
        "zh-1408-chatchat-2x4090-cpu-60-gpu-idle-torch-cuda12-nightly.txt",
        "torch.cpu-build-on-gpu-host",
        "https://github.com/chatchat-space/Langchain-Chatchat/issues/1189",
    ),
    # reporter: "My Nvidia driver is not supported for the pytorch-gpu version ... in environment.yml"
    _xfail(
        (
            "en-0046-nas-without-training-env-yml-driver-too-old.txt",
            "torch.driver-too-old",
            "https://github.com/BayesWatch/nas-without-training/issues/2",
        ),
        "prose only ('pytorch is not being installed with GPU'): nothing in the paste tells a "
        "too-old driver from a CPU wheel",
    ),
    # reporter Xeowolf: "One of your risers may be bad. I had to test each riser one by one"
    _xfail(
        (
            "en-0076-ethminer-unspecified-launch-failure-bad-riser.txt",
            "hardware.pcie-riser-link",
            "https://github.com/ethereum-mining/ethminer/issues/620",
        ),
        "the paste names neither riser nor overclock: the overclock guess is as good",
    ),
    # maintainer qinxuye: "Xinference 镜像要求 cuda 12.4 了，12.2 可能会有问题。"
    _xfail(
        (
            "zh-0041-xinference-docker-image-cuda12.4-driver-535.txt",
            "container.image-needs-newer-driver",
            "https://github.com/xorbitsai/inference/issues/2707",
        ),
        "no error in the paste: that xprobe/xinference:latest needs CUDA 12.4 is the app's "
        "release knowledge, not in matrices/",
    ),
    # reporter samuelkees: patched the Notebook pod template with runtimeClassName: nvidia
    (
        "en-2303-kubeflow-notebook-no-runtimeclass.txt",
        "k8s.runtimeclass-not-set",
        "https://github.com/kubeflow/notebooks/issues/68",
    ),
]


KNOB_NOT_CHECKED = {"zh-1408-chatchat-2x4090-cpu-60-gpu-idle-torch-cuda12-nightly.txt"}


@pytest.mark.parametrize(("name", "finding_id", "source"), KNOB)
def test_case_ranks_confirmed_cause_first(
    name: str, finding_id: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    keywords = name not in KNOB_NOT_CHECKED
    assert_training_case(name, finding_id, None, source, monkeypatch, first=True, keywords=keywords)


# (message verbatim from an earlier round's table, the cause that IS right there and stays first,
# thread): the causes that led the cases above, where their reading is the confirmed one
LOOKALIKE = [
    # the container started without GPUs (closed with the cause in its title); table r15_leftovers2
    (
        "CUDA not detected when running without --gpus all",
        "container.no-gpus-injected",
        "https://github.com/abetlen/llama-cpp-python/issues/1882",
    ),
    # commenters: nvidia-container-toolkit had not installed; installing it fixed it (r17_dockwsl)
    (
        'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
        "container.no-nvidia-runtime",
        "https://github.com/NVIDIA/nvidia-docker/issues/1243",
    ),
    # reporter: adding --gpus all fixed it (r16_llama)
    (
        "$ docker run -it --rm ghcr.io/leejet/stable-diffusion.cpp:master-cuda\n```\n```\n"
        "/sd-cli: error while loading shared libraries: libcuda.so.1: cannot open shared object "
        "file: No such file or directory",
        "container.no-nvidia-runtime",
        "https://github.com/leejet/stable-diffusion.cpp/issues/1352",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "source"), LOOKALIKE)
def test_other_cause_stays_first_where_it_is_right(text: str, finding_id: str, source: str) -> None:
    findings = triage_text(text + "\n").findings
    assert findings and findings[0].id == finding_id, (source, [f.id for f in findings[:3]])
