"""GPUs that no single official torch wheel covers: the wheel for the newest, with CUDA shown only
that GPU, and the facts that prove it (CUDA_VISIBLE_DEVICES narrows the GPUs torch must run on)."""

from __future__ import annotations

import pytest

from envdoctor.checks import load_checks
from envdoctor.checks.torch_context import cuda_visible, torch_context
from envdoctor.diagnosis.engine import run_checks
from envdoctor.fix_effects import Effect
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.snapshot import Snapshot, collected
from envdoctor.remedies.verify import apply

RTX_5090 = {"name": "NVIDIA GeForce RTX 5090", "compute_capability": "12.0", "uuid": "GPU-5090aa"}
GTX_1080TI = {
    "name": "NVIDIA GeForce GTX 1080 Ti",
    "compute_capability": "6.1",
    "uuid": "GPU-1080bb",
}


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def two_gpu_box(first: dict, second: dict, env: dict[str, str] | None = None) -> Snapshot:
    snap = Snapshot(origin="live")
    snap.add(collected("os", "t", {"id": "ubuntu", "version_id": "22.04", "machine": "x86_64"}))
    snap.add(
        collected(
            "python",
            "t",
            {"version": "3.11.9", "platform": "linux", "executable": "/venv/bin/python"},
        )
    )
    snap.add(
        collected(
            "python.packages", "t", {"packages": {"torch": "2.6.0"}, "installers": {"torch": "pip"}}
        )
    )
    snap.add(
        collected(
            "python.torch",
            "t",
            {"version": "2.6.0+cu124", "variant": "cu124", "build": "cuda", "cuda": "12.4"},
        )
    )
    gpus = [{"index": 0, **first}, {"index": 1, **second}]
    snap.add(collected("nvidia.gpus", "t", {"gpus": gpus}))
    snap.add(collected("nvidia.driver", "t", {"driver_version": "575.57.08"}))
    if env is not None:
        snap.add(collected("cuda.env", "t", {k: {"set": True, "value": v} for k, v in env.items()}))
    return snap


def too_new(snap: Snapshot, ms):
    outcome = run_checks(snap, ms, load_checks(("torch_gpu",)))
    return [f for f in outcome.findings if f.id == "torch.gpu-too-new-for-build"]


@pytest.mark.parametrize("order", ["5090 first", "5090 second"])
def test_a_wheel_for_the_newest_gpu_alone_is_offered_and_proven(ms, order):
    first, second = (RTX_5090, GTX_1080TI) if order == "5090 first" else (GTX_1080TI, RTX_5090)
    index = "0" if order == "5090 first" else "1"
    [finding] = too_new(two_gpu_box(first, second), ms)
    # no official wheel has both sm_61 and sm_120: the source build comes first
    assert "TORCH_CUDA_ARCH_LIST" in finding.fixes[0].summary
    [one] = [f for f in finding.fixes if f.effect and f.effect.env_set]
    assert "RTX 5090 only" in one.summary and "runs on driver 575.57.08" in one.summary
    assert one.effect.torch.variant in ("cu128", "cu129", "cu130")
    assert one.effect.env_set == {"CUDA_DEVICE_ORDER": "PCI_BUS_ID", "CUDA_VISIBLE_DEVICES": index}
    assert f"export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES={index}" in one.commands
    # the variable is set before the check command that runs a kernel on device 0
    export = one.commands.index(f"export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES={index}")
    assert any("torch.ones" in c for c in one.commands[export:])
    assert one.verified is True  # re-diagnosis with the GTX 1080 Ti hidden cleared the finding
    # the same wheel with both GPUs visible leaves the older card without kernels
    after, _ = apply(Effect(torch=one.effect.torch), two_gpu_box(first, second), ms)
    [left] = run_checks(after, ms, load_checks(("torch_gpu",))).findings
    assert left.id == "torch.gpu-too-old-for-build" and "GTX 1080 Ti" in left.title


def test_one_gpu_model_gets_no_hiding_fix(ms):
    [finding] = too_new(two_gpu_box(RTX_5090, {**RTX_5090, "uuid": "GPU-5090cc"}), ms)
    assert not [f for f in finding.fixes if f.effect and f.effect.env_set]
    assert "cu12" in finding.fixes[0].summary or "cu13" in finding.fixes[0].summary


def test_cuda_visible_devices_narrows_the_gpus_torch_runs_on(ms):
    by_uuid = two_gpu_box(RTX_5090, GTX_1080TI, {"CUDA_VISIBLE_DEVICES": "GPU-5090"})
    assert [g["name"] for g in torch_context(by_uuid, ms).gpus] == [RTX_5090["name"]]
    by_index = two_gpu_box(
        GTX_1080TI,
        RTX_5090,
        {"CUDA_VISIBLE_DEVICES": "1", "CUDA_DEVICE_ORDER": "PCI_BUS_ID"},
    )
    assert [g["name"] for g in torch_context(by_index, ms).gpus] == [RTX_5090["name"]]


@pytest.mark.parametrize(
    "env",
    [
        {"CUDA_VISIBLE_DEVICES": "1"},  # CUDA's default order (fastest first) is not nvidia-smi's
        {"CUDA_VISIBLE_DEVICES": "-1"},  # hides every GPU: cuda.visible-devices-hide-gpus says so
        {"CUDA_VISIBLE_DEVICES": "GPU-"},  # a prefix of both UUIDs names neither
        {"CUDA_VISIBLE_DEVICES": ""},
    ],
)
def test_entries_that_do_not_name_one_gpu_leave_every_gpu(ms, env):
    snap = two_gpu_box(GTX_1080TI, RTX_5090, env)
    assert len(cuda_visible(snap, torch_context(two_gpu_box(GTX_1080TI, RTX_5090), ms).gpus)) == 2


def test_the_verifier_writes_cuda_variables_into_cuda_env(ms):
    snap = two_gpu_box(RTX_5090, GTX_1080TI)
    env = {"CUDA_DEVICE_ORDER": "PCI_BUS_ID", "CUDA_VISIBLE_DEVICES": "0"}
    after, touched = apply(Effect(env_set=env), snap, ms)
    assert "cuda.env" in touched and snap.group("cuda.env") is None
    assert after.fact("cuda.env", "CUDA_VISIBLE_DEVICES") == {
        "set": True,
        "value": "0",
        "tokens": ["0"],
    }
    unset, _ = apply(Effect(env_unset=("CUDA_VISIBLE_DEVICES",)), after, ms)
    assert unset.fact("cuda.env", "CUDA_VISIBLE_DEVICES")["set"] is False
