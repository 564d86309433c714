"""NVIDIA driver events in the kernel log: Xid errors and the NVRM lines that name a cause.

Fills `nvidia.events` (see `envdoctor.ingest.kernel_log` for the data) from `dmesg`, or from
`journalctl -k -b` when dmesg is not permitted. Failed with the reason when neither can be read
(an unprivileged container usually cannot), absent when neither tool exists.
"""

from __future__ import annotations

from envdoctor.ingest import kernel_log
from envdoctor.model.snapshot import FactGroup, absent, collected, failed
from envdoctor.probes.context import ProbeContext

GROUPS = ("nvidia.events",)
TIMEOUT_S = 10.0
DMESG_TIMEOUT_S = 4.0
JOURNAL_TIMEOUT_S = 5.0


def collect(ctx: ProbeContext) -> list[FactGroup]:
    """Read the kernel log and keep what NVIDIA's driver (and nouveau) said."""
    if str(ctx.root) != "/":
        return [absent("nvidia.events", "dmesg", "the kernel log is only read on the live system")]
    reasons = []
    for source, argv, timeout_s in (
        ("dmesg", ["dmesg"], DMESG_TIMEOUT_S),
        (
            "journalctl",
            ["journalctl", "-k", "-b", "--no-pager", "-q", "-o", "short"],
            JOURNAL_TIMEOUT_S,
        ),
    ):
        if not ctx.which(argv[0]):
            continue
        run = ctx.run(argv, timeout_s)
        if run.ok and run.stdout.strip():
            data = kernel_log.parse(run.stdout)
            return [collected("nvidia.events", source, data, summary=kernel_log.summary(data))]
        reasons.append(run.describe_failure() if not run.ok else f"{argv[0]} printed nothing")
    if not reasons:
        return [absent("nvidia.events", "dmesg", "neither dmesg nor journalctl is installed")]
    return [failed("nvidia.events", "dmesg", "kernel log not readable: " + "; ".join(reasons))]
