"""Chinese prose reports, second pass (round 13d): the first post of a public thread (verbatim) whose
fix was confirmed (the reporter says it worked, or a maintainer states cause and fix). Each reaches
its confirmed cause first, and one of that cause's fixes names the knob the confirmed fix turned.

This sweep found the area's frequent threads already harvested by earlier rounds (known_urls);
of the unharvested ones probed, only the row below has a confirmed fix. No signature was changed."""

from __future__ import annotations

import pytest
from triage_lines import assert_first_with_knob

# (first post verbatim, the finding id first, text one of its fixes names, thread URL)
KNOB = [
    (
        "不兼容50系列显卡",
        "torch.gpu-too-new-for-build",
        "sm_120",
        # maintainer: supported now, download the latest package (a torch build with sm_120 kernels)
        "https://github.com/modstart-lib/aigcpanel/issues/49",
    ),
]


@pytest.mark.parametrize(("text", "finding_id", "knob", "source"), KNOB)
def test_zh_report_first_with_knob(text: str, finding_id: str, knob: str, source: str) -> None:
    assert source.startswith("https://")
    assert_first_with_knob(text, finding_id, knob)
