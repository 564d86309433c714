"""The installed PyTorch build of the target environment, read from its files without importing it.

Fills `python.torch` (absent when torch is not installed) with the keys that
`envdoctor.ingest.torch_metadata` describes; the GPU architectures of an official wheel come from
the build matrix in the enrichment step (`envdoctor.diagnosis.enrich`).
"""

from __future__ import annotations

from envdoctor.ingest.torch_metadata import summary, torch_facts
from envdoctor.model.snapshot import FactGroup, absent, collected, failed
from envdoctor.probes import ml_packages
from envdoctor.probes.context import ProbeContext

GROUPS = ("python.torch",)
TIMEOUT_S = 15.0


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Describe the torch build of the target environment."""
    meta = ml_packages.read(ctx, "torch_build")
    if meta.error and meta.error.startswith("no Python interpreter under"):
        return [absent("python.torch", meta.source, meta.error)]
    if meta.error and not meta.distributions:
        return [failed("python.torch", meta.source, meta.error)]
    where = ctx.options.python or (
        "this interpreter" if str(ctx.root) == "/" else f"the Python under {ctx.root}"
    )
    if "torch" not in meta.distributions:
        return [absent("python.torch", meta.source, f"torch is not installed in {where}")]
    data = torch_facts(meta.distributions, meta.environment)
    return [collected("python.torch", meta.source, data, summary=summary(data))]
