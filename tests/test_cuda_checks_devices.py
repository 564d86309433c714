"""cuda.visible-devices-hide-gpus: indices, UUID prefixes, MIG ids, empty and -1."""

from __future__ import annotations

import pytest

from envdoctor.checks import cuda_devices as checks
from envdoctor.diagnosis.engine import run_checks
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.findings import Severity
from tests.cuda_trees import probe, put, with_driver

# UUIDs in the format nvidia-smi prints (the masked form the shared captures use)
GPUS = [
    {
        "index": 0,
        "uuid": "GPU-8932f937-d72c-4106-c12f-1b3f9dc1aa44",
        "name": "NVIDIA H100 80GB HBM3",
        "mig_devices": [
            {
                "index": 0,
                "gpu_instance_id": 1,
                "compute_instance_id": 0,
                "uuid": "MIG-4a9a1c5e-5d7b-5f44-9c1e-0e2d4f7b1c11",
            }
        ],
    },
    {
        "index": 1,
        "uuid": "GPU-0d1f2e3a-1111-2222-3333-444455556666",
        "name": "NVIDIA H100 80GB HBM3",
        "mig_devices": [],
    },
]


@pytest.fixture(scope="module")
def ms():
    return load_bundled()


def _snap(fake_root, value, gpus=GPUS, profile=None):
    root = fake_root({"/root/.bashrc": profile} if profile else {})
    env = {"PATH": "/nonexistent"}
    if value is not None:
        env["CUDA_VISIBLE_DEVICES"] = value
    return with_driver(probe(root, env), "550.54.14", "12.4", gpus=gpus)


@pytest.mark.parametrize(
    "value",
    [
        "0",
        "1,0",
        "0,1",
        "GPU-8932f937",
        "MIG-4a9a1c5e",
        "MIG-GPU-8932f937-d72c-4106-c12f-1b3f9dc1aa44/1/0",
        None,
    ],
)
def test_values_that_name_present_devices_pass(fake_root, ms, value):
    assert checks.visible_devices_hide_gpus.run(_snap(fake_root, value), ms) == []


def test_index_out_of_range_hides_everything(fake_root, ms):
    snap = _snap(fake_root, "2", profile="export CUDA_VISIBLE_DEVICES=2\n")
    [finding] = checks.visible_devices_hide_gpus.run(snap, ms)
    assert finding.severity is Severity.ERROR
    assert finding.title == "CUDA_VISIBLE_DEVICES='2' hides 2 of 2 GPUs"
    assert "no CUDA-capable device is detected" in finding.detail
    assert finding.fixes[0].commands == ("unset CUDA_VISIBLE_DEVICES",)
    assert finding.fixes[1].commands == ("sed -i.bak -e '1d' /root/.bashrc",)
    assert finding.fixes[2].commands == ("export CUDA_VISIBLE_DEVICES=0,1", "nvidia-smi -L")


def test_invalid_entry_drops_the_rest(fake_root, ms):
    [finding] = checks.visible_devices_hide_gpus.run(_snap(fake_root, "0,-1,1"), ms)
    assert finding.severity is Severity.WARNING
    assert "stops at '-1'" in finding.detail and "only 0 stay visible" in finding.detail
    assert finding.fixes[1].commands[0] == "export CUDA_VISIBLE_DEVICES=0"


@pytest.mark.parametrize(
    "value, severity",
    [
        ("", Severity.WARNING),
        ("-1", Severity.WARNING),
        ("GPU-ffffffff", Severity.ERROR),
        ("MIG-0000", Severity.ERROR),
    ],
)
def test_empty_minus_one_and_unknown_ids(fake_root, ms, value, severity):
    [finding] = checks.visible_devices_hide_gpus.run(_snap(fake_root, value), ms)
    assert finding.severity is severity
    assert finding.title.endswith("hides 2 of 2 GPUs")


def test_skipped_without_gpu_facts_as_on_a_machine_without_a_driver(fake_root, ms):
    root = fake_root({})
    snap = with_driver(
        probe(root, {"PATH": "/nonexistent", "CUDA_VISIBLE_DEVICES": "3"}), None, None
    )
    outcome = run_checks(snap, ms, checks.CHECKS)
    assert outcome.findings == []
    assert outcome.skipped[0].reason.startswith("needs nvidia.gpus: absent")


def test_profile_line_detection_ignores_comments(fake_root):
    root = fake_root({})
    put(
        root,
        "/etc/profile.d/gpu.sh",
        "# export CUDA_VISIBLE_DEVICES=1\nexport CUDA_VISIBLE_DEVICES=1\n",
    )
    snap = probe(root, {"PATH": "/nonexistent"})
    lines = snap.fact("cuda.env", "profile_lines")
    assert lines == [
        {
            "file": "/etc/profile.d/gpu.sh",
            "line": 2,
            "text": "export CUDA_VISIBLE_DEVICES=1",
            "variables": ["CUDA_VISIBLE_DEVICES"],
        }
    ]
