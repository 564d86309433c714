"""Fixes that name what the confirmed fix turned on, round 16 (checks/signatures/r16_fixknob.toml):
pip's "Could not find a version that satisfies the requirement X==V (from versions: ..., N)" states
the releases this Python and platform can install; the confirmed fix pinned one of them (the
newest, N), so the no-matching-wheel finding names it. Messages are verbatim from public threads
whose fix was confirmed; look-alike messages (verbatim too) are not given that fix first."""

from __future__ import annotations

from tests.triage_lines import knob_test, lookalike_test

# (message, the finding id first, a knob its fixes name, the thread)
KNOB = [
    (
        # Python 2: pylint 2.x has no release for it; the fix pinned 1.9.4, the newest listed
        "Collecting pylint==2.3.1 (from -r requirements.txt (line 16))\n"
        "  ERROR: Could not find a version that satisfies the requirement pylint==2.3.1 (from -r "
        "requirements.txt (line 16)) (from versions: 0.15.2, 0.16.0, 0.18.0, 0.18.1, 0.19.0, "
        "0.20.0, 0.21.0, 0.21.1, 0.21.2, 0.21.3, 0.22.0, 0.23.0, 0.24.0, 0.25.0, 0.25.1, 0.25.2, "
        "0.26.0, 0.27.0, 0.28.0, 1.0.0, 1.1.0, 1.2.0, 1.2.1, 1.3.0, 1.3.1, 1.4.0, 1.4.1, 1.4.2, "
        "1.4.3, 1.4.4, 1.4.5, 1.5.0, 1.5.1, 1.5.2, 1.5.3, 1.5.4, 1.5.5, 1.5.6, 1.6.0, 1.6.1, "
        "1.6.2, 1.6.3, 1.6.4, 1.6.5, 1.7.0, 1.7.1, 1.7.2, 1.7.3, 1.7.4, 1.7.5, 1.7.6, 1.8.0, "
        "1.8.1, 1.8.2, 1.8.3, 1.8.4, 1.9.0, 1.9.1, 1.9.2, 1.9.3, 1.9.4)\n"
        "ERROR: No matching distribution found for pylint==2.3.1 (from -r requirements.txt "
        "(line 16))",
        "python.no-matching-wheel",
        "1.9.4",
        "https://github.com/voxel51/eta/issues/236",
    ),
    (
        # macOS: numpy 2.2.0 not installable there; "最高只有2.0.2 我修改了就没有报错了"
        "macos：ERROR: Could not find a version that satisfies the requirement numpy==2.2.0 (from "
        "versions: 1.3.0, 1.4.1, 1.5.0, 1.5.1, 1.6.0, 1.6.1, 1.6.2, 1.7.0, 1.7.1, 1.7.2, 1.8.0, "
        "1.8.1, 1.8.2, 1.9.0, 1.9.1, 1.9.2, 1.9.3, 1.10.0.post2, 1.10.1, 1.10.2, 1.10.4, 1.11.0, "
        "1.11.1, 1.11.2, 1.11.3, 1.12.0, 1.12.1, 1.13.0, 1.13.1, 1.13.3, 1.14.0, 1.14.1, 1.14.2, "
        "1.14.3, 1.14.4, 1.14.5, 1.14.6, 1.15.0, 1.15.1, 1.15.2, 1.15.3, 1.15.4, 1.16.0, 1.16.1, "
        "1.16.2, 1.16.3, 1.16.4, 1.16.5, 1.16.6, 1.17.0, 1.17.1, 1.17.2, 1.17.3, 1.17.4, 1.17.5, "
        "1.18.0, 1.18.1, 1.18.2, 1.18.3, 1.18.4, 1.18.5, 1.19.0, 1.19.1, 1.19.2, 1.19.3, 1.19.4, "
        "1.19.5, 1.20.0, 1.20.1, 1.20.2, 1.20.3, 1.21.0, 1.21.1, 1.21.2, 1.21.3, 1.21.4, 1.21.5, "
        "1.21.6, 1.22.0, 1.22.1, 1.22.2, 1.22.3, 1.22.4, 1.23.0, 1.23.1, 1.23.2, 1.23.3, 1.23.4, "
        "1.23.5, 1.24.0, 1.24.1, 1.24.2, 1.24.3, 1.24.4, 1.25.0, 1.25.1, 1.25.2, 1.26.0, 1.26.1, "
        "1.26.2, 1.26.3, 1.26.4, 2.0.0, 2.0.1, 2.0.2)",
        "python.no-matching-wheel",
        "2.0.2",
        "https://github.com/nishuzumi/gemini-teacher/issues/32",
    ),
]

# (message of another cause, the cause it must not be read as, the thread)
LOOKALIKE = [
    (
        # an old torch pin: PyTorch's own Python-support cause stays first, not the generic one
        "ERROR: Could not find a version that satisfies the requirement torch==1.8.1 (from "
        "versions: 1.11.0, 1.12.0, 1.12.1, 1.13.0, 1.13.1, 2.0.0, 2.0.1, 2.1.0, 2.1.1, 2.1.2, "
        "2.2.0, 2.2.1, 2.2.2) 29.17 ERROR: No matching distribution found for torch==1.8.1",
        "python.no-matching-wheel",
        "https://github.com/dmar-bonn/ipp-rl/issues/4",
    ),
]


test_message_reaches_its_cause_with_the_knob = knob_test(KNOB)


test_lookalike_is_not_read_as_the_new_cause = lookalike_test(LOOKALIKE)
