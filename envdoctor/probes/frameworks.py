"""The neighbours of torch in the target environment: other ML frameworks and the compiled
extensions built against torch.

Fills `python.frameworks` (absent when none of them is installed) with the entries that
`envdoctor.ingest.framework_metadata` describes.
"""

from __future__ import annotations

from envdoctor.ingest.framework_metadata import frameworks_facts, summary
from envdoctor.model.snapshot import FactGroup, absent, collected, failed
from envdoctor.probes import ml_packages
from envdoctor.probes.context import ProbeContext

GROUPS = ("python.frameworks",)
TIMEOUT_S = 15.0


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the non-torch ML packages of the target environment."""
    meta = ml_packages.read(ctx, "frameworks")
    if meta.error and meta.error.startswith("no Python interpreter under"):
        return [absent("python.frameworks", meta.source, meta.error)]
    if meta.error and not meta.distributions:
        return [failed("python.frameworks", meta.source, meta.error)]
    packages = frameworks_facts(meta.distributions, meta.environment)
    if not packages:
        where = ctx.options.python or (
            "this interpreter" if str(ctx.root) == "/" else f"the Python under {ctx.root}"
        )
        return [
            absent(
                "python.frameworks",
                meta.source,
                f"no ML framework besides torch is installed in {where}",
            )
        ]
    return [
        collected(
            "python.frameworks", meta.source, {"packages": packages}, summary=summary(packages)
        )
    ]
