"""Chinese prose reports, second pass (round 13d): the first post of a public thread (verbatim) whose
fix was confirmed (the reporter says it worked, or a maintainer states cause and fix). Each reaches
its confirmed cause first, and one of that cause's fixes names the knob the confirmed fix turned.

This sweep found the area's frequent threads already harvested by earlier rounds (known_urls);
of the unharvested ones probed, only the row below has a confirmed fix. No signature was changed."""

from __future__ import annotations

from triage_lines import first_with_knob_test

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


test_zh_report_first_with_knob = first_with_knob_test(KNOB)
