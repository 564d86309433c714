"""`nvidia-smi -q -x`: the second source of driver and GPU facts, when NVML cannot answer.

Not a probe of its own: `envdoctor.probes.nvidia_gpu` calls `query`. The command runs through
`ctx.run` with a timeout (a hung driver can make nvidia-smi hang for minutes); a timeout, a failure
or an error message becomes a result with the reason and, for error messages, the driver record
that the message supports (`nvml_error`, `smi_error`, `library_version`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from envdoctor.model.nvidia_records import NvidiaDriver
from envdoctor.probes.context import ProbeContext

WSL_NVIDIA_SMI = "/usr/lib/wsl/lib/nvidia-smi"


@dataclass
class SmiResult:
    """What nvidia-smi said. `driver` is None when it produced nothing readable."""

    driver: NvidiaDriver | None = None
    gpus: list[dict[str, Any]] = field(default_factory=list)
    missing: bool = False  # not on PATH (nor in WSL's lib folder)
    failure: str | None = None  # one-line reason: timed out, exited 9: ..., not executable
    timed_out: bool = False
    executable: str | None = None
    raw: str = ""

    @property
    def ok(self) -> bool:
        """True when the XML was read."""
        return self.driver is not None and self.failure is None


def find(ctx: ProbeContext) -> str | None:
    """The nvidia-smi to run: PATH first, then WSL's /usr/lib/wsl/lib (often not on PATH)."""
    found = ctx.which("nvidia-smi")
    if found:
        return found
    if str(ctx.root) == "/" and ctx.exists(WSL_NVIDIA_SMI):
        return WSL_NVIDIA_SMI
    return None


def query(ctx: ProbeContext, timeout_s: float) -> SmiResult:
    """Run `nvidia-smi -q -x` and read its XML, or the error text it printed instead."""
    executable = find(ctx)
    if executable is None:
        return SmiResult(missing=True, failure="nvidia-smi not found")
    result = ctx.run([executable, "-q", "-x"], timeout_s)
    output = (result.stdout or "") + ("\n" + result.stderr if result.stderr else "")
    if result.error is not None:
        return SmiResult(
            failure=result.error,
            timed_out="timed out" in result.error,
            executable=executable,
            raw=output[:4000],
        )
    from envdoctor.ingest import (  # only when there is output to read
        nvidia_smi_text,
        nvidia_smi_xml,
    )

    if result.returncode == 0 and nvidia_smi_xml.detect(result.stdout):
        try:
            driver, gpus = nvidia_smi_xml.parse(result.stdout)
        except nvidia_smi_xml.NotNvidiaSmiXml as exc:
            return SmiResult(
                failure=f"nvidia-smi printed unreadable XML: {exc}", executable=executable
            )
        return SmiResult(driver=driver, gpus=gpus, executable=executable, raw=result.stdout)
    parsed = nvidia_smi_text.parse(output)
    return SmiResult(
        driver=parsed[0] if parsed else None,
        failure=result.describe_failure(),
        executable=executable,
        raw=output[:4000],
    )
