"""Round 15 (zhfacts): causes reached from versions stated in prose. LOOKALIKE rows: a driver and a
torch build the driver runs (CUDA's own rules, as the maintainers answered) must not read as
`torch.driver-too-old`. Each row verbatim from the thread cited."""

from __future__ import annotations

import pytest

from tests.triage_lines import assert_not_first

LOOKALIKE = [
    # (thread, text, tempting cause)
    (
        # driver 442.92 supports CUDA 10.2: torch 1.5.0+cu101 runs on it
        "https://github.com/pytorch/pytorch/issues/37212",
        "PyTorch version:1.5.0+cu101\nMy cuda version is 10.1 and the nvidia driver version is "
        "442.92. I don't know why torch.cuda.is_available() always return false?",
        "torch.driver-too-old",
    ),
    (
        # a CUDA 11 driver runs a cu113 build (minor-version compatibility, the maintainer's answer)
        "https://github.com/pytorch/pytorch/issues/77528",
        "| NVIDIA-SMI 460.32.03    Driver Version: 460.32.03    CUDA Version: 11.2     |\n"
        "|-------------------------------+----------------------+----------------------+\n"
        "```\n\nHowever, `pip show torch` reveals\n\n```\nName: torch\nVersion: 1.11.0+cu113\n```",
        "torch.driver-too-old",
    ),
]


@pytest.mark.parametrize(("source", "text", "tempting"), LOOKALIKE)
def test_lookalike_is_not_the_driver(source: str, text: str, tempting: str) -> None:
    assert_not_first(text, tempting, source, may_be_empty=True)
