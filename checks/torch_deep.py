"""What the `--deep` GPU test saw: torch could not use a GPU the machine has, or computed wrong."""

from __future__ import annotations

from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Evidence, Finding, Severity
from envdoctor.model.snapshot import Snapshot


@check("torch.gpu-test-failed", needs=("python.deep",))
def gpu_test(snap: Snapshot, ms: MatrixSet) -> Finding | None:
    """The `--deep` test could not use the GPU from torch.

    `envdoctor check --deep` runs a small script in the target interpreter, under a deadline: it
    imports torch, asks `torch.cuda.is_available()` (or the ROCm / XPU / MPS equivalent), and
    multiplies two small matrices on every device, comparing the result with the CPU's. This
    finding reports what failed, with the exact exception text: an import that hung, crashed or
    raised, a GPU the machine has but torch cannot see, or a wrong / failing matmul. It is a
    symptom: the cause (a CPU-only build, a driver too old, a GPU without kernels in the wheel,
    an extension built for another torch) is reported by its own finding when envdoctor can tell,
    and shown first.
    """
    deep = snap.data("python.deep") or {}
    outcome = deep.get("outcome")
    error = deep.get("error")
    evidence = [Evidence("python.deep.outcome", str(outcome))]
    if error:
        evidence.append(Evidence("python.deep.error", str(error)))
    if outcome in ("timeout", "crashed"):
        return Finding(
            id="torch.gpu-test-failed",
            severity=Severity.ERROR,
            title=f"The GPU test {'hung' if outcome == 'timeout' else 'crashed'} in {deep.get('hung_at')}",
            detail=f"{deep.get('failure') or error}. Run the same step by hand to see its full output.",
            evidence=tuple(evidence),
        )
    if outcome == "import-failed":
        return Finding(
            id="torch.gpu-test-failed",
            severity=Severity.ERROR,
            title="import torch fails in the target interpreter",
            detail=f"import torch raised: {error}",
            evidence=tuple(evidence),
        )
    bad = [d for d in deep.get("devices") or [] if not d.get("matmul_ok")]
    if bad:
        names = ", ".join(f"{d.get('device')} ({d.get('name')})" for d in bad)
        first = next((d.get("error") for d in bad if d.get("error")), None)
        return Finding(
            id="torch.gpu-test-failed",
            severity=Severity.ERROR,
            title=f"A matrix multiply on {names} failed or gave a wrong result",
            detail=(
                f"The 64x64 float32 matmul on {names} "
                + (
                    f"raised: {first}"
                    if first
                    else f"differs from the CPU result (max abs error {bad[0].get('max_abs_err')})"
                )
                + "."
            ),
            evidence=tuple(
                evidence + [Evidence("matmul_ok", str(deep.get("matmul_ok")), "all true")]
            ),
        )
    gpus = snap.fact("nvidia.gpus", "gpus") or snap.fact("amd.gpus", "gpus") or []
    built = (
        (deep.get("backends") or {})
        .get("rocm" if deep.get("torch_hip") else "cuda", {})
        .get("built")
    )
    if gpus and built and not deep.get("cuda_available"):
        return Finding(
            id="torch.gpu-test-failed",
            severity=Severity.ERROR,
            title=f"torch {deep.get('torch_version')} sees no GPU although the machine has {len(gpus)}",
            detail=f"torch.cuda.is_available() is False: {error or 'no exception text'}.",
            evidence=tuple(evidence + [Evidence("python.deep.cuda_available", "False", "True")]),
        )
    return None


CHECKS = [gpu_test]
