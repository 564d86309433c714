"""Property: no fix text claims "runs on driver X" where the tables disagree.

Hypothesis draws a GPU from the nvidia_gpus table, a driver version, an installed torch build and
an OS (optionally hiding the driver's highest CUDA, as pasted text does), runs the torch checks
with the verifier on, and holds every shown fix to the tables: a fix that says it runs on driver
X names the machine's driver, its build's CUDA is one that driver supports (cuda_compat /
cuda_driver via queries.nvidia), the build has kernels for the GPU (torch_arch), and a driver a
fix installs is one the GPU's architecture still has (nvidia_arch_support).
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envdoctor.checks import load_checks
from envdoctor.engine import run_checks
from envdoctor.matrixset import load_bundled
from envdoctor.queries import nvidia as nq
from envdoctor.queries import nvidia_arch as na
from envdoctor.queries import torch as tq
from envdoctor.snapshot import Snapshot, collected

MS = load_bundled()
CHECKS = load_checks(("torch_gpu", "nvidia_driver_arch", "platform_windows"))
GPUS = sorted(
    (str(r["name"]), str(r["compute_capability"]))
    for r in MS.table("nvidia_gpus").rows
    if r.get("compute_capability") and not r.get("unverified")
)
BUILDS = sorted(
    {
        (str(r["torch"]), str(r["variant"]))
        for r in MS.table("torch_arch").rows
        if str(r.get("variant", "")).startswith("cu") and r.get("os") == "linux"
    }
)
DRIVER_MAJORS = (418, 440, 450, 460, 470, 510, 525, 535, 545, 550, 560, 570, 575, 580, 590)


def _snapshot(
    gpu: tuple[str, str], driver: str, build: tuple[str, str], os_name: str, give_max: bool
) -> Snapshot:
    release, variant = build
    cuda = tq.variant_cuda(MS, variant)
    version = release if release.count(".") >= 2 else f"{release}.0"
    snap = Snapshot(origin="pasted")
    platform = "win32" if os_name == "windows" else "linux"
    snap.add(
        collected("python", "t", {"version": "3.11.9", "platform": platform, "machine": "x86_64"})
    )
    snap.add(
        collected(
            "python.packages", "t", {"packages": {"torch": version}, "installers": {"torch": "pip"}}
        )
    )
    snap.add(
        collected(
            "python.torch",
            "t",
            {
                "version": f"{version}+{variant}",
                "variant": variant,
                "build": "cuda",
                "backend": "cuda",
                "cuda": cuda,
            },
        )
    )
    snap.add(
        collected(
            "nvidia.gpus",
            "t",
            {"gpus": [{"index": 0, "name": gpu[0], "compute_capability": gpu[1]}]},
        )
    )
    driver_data: dict[str, object] = {"driver_version": driver}
    if give_max:
        driver_data["cuda_driver_max"] = nq.max_cuda_for_driver(MS, driver, os_name)
    snap.add(collected("nvidia.driver", "t", driver_data))
    return snap


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    gpu=st.sampled_from(GPUS),
    major=st.sampled_from(DRIVER_MAJORS),
    minor=st.integers(min_value=10, max_value=199),
    build=st.sampled_from(BUILDS),
    os_name=st.sampled_from(("linux", "windows")),
    give_max=st.booleans(),
)
def test_no_fix_claims_a_driver_the_tables_rule_out(gpu, major, minor, build, os_name, give_max):
    driver = f"{major}.{minor:02d}"
    snap = _snapshot(gpu, driver, build, os_name, give_max)
    outcome = run_checks(snap, MS, CHECKS)
    for finding in outcome.findings:
        for fix in finding.fixes:
            claim = re.search(r"runs on driver (\S+?)[),;]", fix.summary)
            if claim:
                assert claim.group(1) == driver, fix.summary
            effect = fix.effect
            if effect is None:
                continue
            if effect.torch is not None and effect.torch.variant.startswith("cu"):
                cuda = tq.variant_cuda(MS, effect.torch.variant)
                assert nq.driver_supports_cuda(MS, driver, cuda, os_name) is not False, (
                    driver,
                    fix.summary,
                )
                arches = tq.variant_arches(MS, effect.torch.version, effect.torch.variant, os_name)
                if arches is not None:
                    assert tq.has_kernels(arches, gpu[1]), (gpu, fix.summary)
            new = effect.driver_min or effect.driver_branch
            if new:
                assert (
                    na.driver_supports_arch(MS, str(new).lstrip("R"), gpu[1], os_name) is not False
                ), (
                    gpu,
                    fix.summary,
                )
