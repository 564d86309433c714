"""Round 9 field survey of fixes: real reports whose confirmed fix turned on a knob (a version,
package, flag or environment variable) reach their cause in the first three findings, and that
cause's fixes name the knob; reports of other causes do not lead with the cause a changed cue could
be tempted by.

The rows are in `field_fixes_<topic>.py` (builds, apps, system, context, zh, desktop_apps,
cluster_cloud, driver_os), each with its module docstring saying where its texts come from:
`REPORTS_ROWS` (text, accepted ids, source URL, knob),
`OTHER_ROWS` (text, tempting id, source URL) and `MAY_BE_EMPTY` (True, or the URLs of bare titles
that may reach no cause at all).
"""

from __future__ import annotations

from types import ModuleType

import field_fixes_apps
import field_fixes_builds
import field_fixes_cluster_cloud
import field_fixes_context
import field_fixes_desktop_apps
import field_fixes_driver_os
import field_fixes_r10_winpaddle
import field_fixes_system
import field_fixes_zh
import pytest
from _pytest.mark.structures import ParameterSet
from triage_lines import assert_not_first, assert_reaches

TOPICS: dict[str, ModuleType] = {
    "builds": field_fixes_builds,
    "apps": field_fixes_apps,
    "system": field_fixes_system,
    "context": field_fixes_context,
    "zh": field_fixes_zh,
    "desktop_apps": field_fixes_desktop_apps,
    "cluster_cloud": field_fixes_cluster_cloud,
    "driver_os": field_fixes_driver_os,
    "r10_winpaddle": field_fixes_r10_winpaddle,
}


def _reports() -> list[ParameterSet]:
    params = []
    for topic, module in TOPICS.items():
        for n, row in enumerate(module.REPORTS_ROWS):
            if isinstance(row, ParameterSet):  # a row with its own id and marks (an xfail)
                params.append(pytest.param(*row.values, id=f"{topic}-{row.id}", marks=row.marks))
            else:
                params.append(pytest.param(*row, id=f"{topic}-{n}"))
    return params


def _others() -> list[ParameterSet]:
    params = []
    for topic, module in TOPICS.items():
        for n, (text, tempting, url) in enumerate(module.OTHER_ROWS):
            empty = module.MAY_BE_EMPTY is True or url in module.MAY_BE_EMPTY
            params.append(pytest.param(text, tempting, url, empty, id=f"{topic}-other-{n}"))
    return params


@pytest.mark.parametrize(("text", "accepted", "url", "knob"), _reports())
def test_field_report_reaches_its_cause_and_names_the_knob(
    text: str, accepted: tuple[str, ...], url: str, knob: str | None
) -> None:
    assert_reaches(text, accepted, url, knob)


@pytest.mark.parametrize(("text", "tempting", "url", "may_be_empty"), _others())
def test_report_of_another_cause_does_not_lead_with_the_tempting_one(
    text: str, tempting: str, url: str, may_be_empty: bool
) -> None:
    assert_not_first(text, tempting, url, may_be_empty=may_be_empty)
