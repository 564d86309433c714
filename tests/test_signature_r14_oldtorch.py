"""Round 14, oldtorch: pastes from a torch 1.x install get a fix naming a 1.x wheel that fits.

matrices/torch_releases.toml now has 1.9-1.12 (pytorch.org's previous-versions page, torchvision's
README, pytorch/builder's manywheel scripts): the chooser can name an old release with kernels for
the GPU and install it the way that page does (`torch==1.9.1+cu111 ... -f .../torch_stable.html`
for 1.9 / 1.10). KNOB rows are verbatim from one thread each (URL per row); the unit tests pin the
chooser's rule on the matrices themselves.
"""

from __future__ import annotations

import pytest

from envdoctor.diagnosis.pipeline import active_matrices
from envdoctor.installers.pip_commands import Installer, torch_install
from envdoctor.queries.torch_fixes import choose, released_minors
from envdoctor.triage_engine import triage_text
from tests.triage_lines import assert_first_naming, fixes_text

# (message verbatim, finding id first, knob one of its fixes names, thread)
KNOB = [
    (
        # the maintainers moved the project from torch 1.7 to 1.8 "to run pytorch with cuda11 on
        # rtx 3080 or 3090 GPUs" (BindsNET/bindsnet#477); the paste's Python 3.6 has wheels up to
        # torch 1.10, whose cu111 build has sm_86 kernels
        "RTX 3080 is not compatible with pytorch 1.7.1 which is fixed for bindsnet.\n\n"
        "With the following messages.\n\n"
        "/home/ubuntu/miniconda3/envs/binds/lib/python3.6/site-packages/torch/cuda/__init__.py:104:"
        " UserWarning: \n"
        "GeForce RTX 3080 with CUDA capability sm_86 is not compatible with the current PyTorch"
        " installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75.\n"
        "If you want to use the GeForce RTX 3080 GPU with PyTorch, please check the instructions"
        " at https://pytorch.org/get-started/locally/",
        "torch.gpu-too-new-for-build",
        "+cu111 -f https://download.pytorch.org/whl/",
        "https://github.com/BindsNET/bindsnet/issues/468",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob", "source"), KNOB, ids=lambda v: str(v)[:40])
def test_knob(text: str, finding_id: str, knob: str, source: str) -> None:
    assert_first_naming(text, finding_id, knob, source)


# a 2.x paste: the chooser still names today's wheels first, never a 1.x one
MODERN = [
    (
        "VIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current"
        " PyTorch installation.\n"
        "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80"
        " sm_86 sm_90.\n"
        "If you want to use the NVIDIA GeForce RTX 5090 GPU with PyTorch, please check the"
        " instructions at https://pytorch.org/get-started/locally/",
        "https://github.com/FlyMyAI/flymyai-lora-trainer/issues/47",
    ),
]


@pytest.mark.parametrize(("text", "source"), MODERN, ids=lambda v: str(v)[:40])
def test_modern_paste_gets_no_old_release(text: str, source: str) -> None:
    findings = triage_text(text + "\n").findings
    assert findings and findings[0].id == "torch.gpu-too-new-for-build", source
    fixes = fixes_text(findings[0])
    assert "torch_stable.html" not in fixes and "torch==1." not in fixes, (source, fixes)


def test_old_releases_count_as_released() -> None:
    ms = active_matrices()
    minors = released_minors(ms)
    assert {"1.9", "1.10", "1.11", "1.12"} <= set(minors)
    assert minors[0] != "1.12"  # newest first: still a 2.x release
    assert released_minors(ms, "3.6.9")[0] == "1.10"  # the last minor with CPython 3.6 wheels


def test_a_1x_install_gets_the_nearest_1x_release_with_kernels() -> None:
    ms = active_matrices()
    found = choose(ms, ["8.6"], "linux", installed="1.7.1+cu101")
    old = [c for c in found if c.release.startswith("1.")]
    assert len(old) == 1 and old[0].release == "1.9" and old[0].variant == "cu111", found
    assert old[0].exact == "1.9.1"
    assert old[0].find_links == "https://download.pytorch.org/whl/torch_stable.html"
    assert any(c.release.startswith("2.") for c in found)  # today's release is still offered


def test_a_2x_install_gets_no_1x_choice() -> None:
    ms = active_matrices()
    found = choose(ms, ["8.6"], "linux", installed="2.0.1+cu117")
    assert found and not any(c.release.startswith("1.") for c in found), found


def test_a_find_links_release_installs_as_the_previous_versions_page_does() -> None:
    from checks.torch_context import target_of

    ms = active_matrices()
    choice = next(c for c in choose(ms, ["8.6"], "linux", installed="1.10.0") if c.find_links)
    assert (choice.release, choice.variant, choice.exact) == ("1.10", "cu111", "1.10.1")
    command, _ = torch_install(
        Installer("pip", "python"), target_of(choice), ("torchvision", "torchaudio")
    )
    # pytorch.org previous-versions page, v1.10.1, CUDA 11.1
    assert command.endswith(
        "install torch==1.10.1+cu111 torchvision==0.11.2+cu111 torchaudio==0.10.1"
        " -f https://download.pytorch.org/whl/cu111/torch_stable.html"
    ), command


def test_a_1_12_install_keeps_its_release_and_changes_the_variant() -> None:
    ms = active_matrices()
    found = choose(ms, ["8.6"], "linux", installed="1.12.1+cu102")
    assert found[0].release == "1.12" and found[0].exact == "1.12.1", found
    assert found[0].variant in ("cu113", "cu116") and found[0].find_links is None
    assert found[0].index_url == f"https://download.pytorch.org/whl/{found[0].variant}"
