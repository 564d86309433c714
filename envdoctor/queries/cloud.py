"""The GPU a cloud instance type names, from the cloud_gpu_instances matrix: "ml.p2.xlarge" (a
SageMaker instance), "g4dn.xlarge" (EC2), "a2-highgpu-1g" (Google Cloud) each carry one GPU model,
which a report naming only the instance type tells that way.

Tables used: cloud_gpu_instances (rows unverified: a hint, never the only ground for an error).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from envdoctor.queries import table_rows

__all__ = ["gpu_for_instance"]

# AWS: [ml.]<family>.<size> ("ml.p3.2xlarge", "g5.48xlarge", "p4d.24xlarge", "g6e.metal");
# Google Cloud: <family>-<kind>-<n>g ("a2-highgpu-1g", "a3-megagpu-8g", "g2-standard-8")
_AWS = re.compile(
    r"(?<![\w.-])(?:ml\.)?(?P<family>[pg]\d[a-z]{0,2})\.(?:\d{0,2}x?large|metal)(?![\w-])",
    re.IGNORECASE | re.ASCII,
)
_GCP = re.compile(
    r"(?<![\w.-])(?P<family>a2|a3|g2)-(?:highgpu|megagpu|ultragpu|edgegpu|standard)-\d+g?(?![\w-])",
    re.IGNORECASE | re.ASCII,
)


def gpu_for_instance(ms: Any, lines: Iterable[str]) -> str | None:
    """The GPU of the first cloud instance type the lines name that the table lists, or None."""
    rows = table_rows(ms, "cloud_gpu_instances")
    families = {(str(r.get("provider")), str(r.get("family")).lower()): r for r in rows}
    for line in lines:
        for provider, pattern in (("aws", _AWS), ("gcp", _GCP)):
            for found in pattern.finditer(line):
                row = families.get((provider, found.group("family").lower()))
                if row and row.get("gpu"):
                    return str(row["gpu"])
    return None
