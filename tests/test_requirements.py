"""The preflight requirement language: parsing (good and bad tokens) and judging snapshots built
from real nvidia-smi -q -x captures."""

from __future__ import annotations

import pytest

from envdoctor.diagnosis.engine import run_checks
from envdoctor.matrix.loader import MatrixSet
from envdoctor.model.checkdef import check
from envdoctor.model.findings import Finding, Fix, Severity
from envdoctor.model.snapshot import Snapshot, absent, collected, failed
from envdoctor.requirements.judge import Judge, compare_versions
from envdoctor.requirements.parse import (
    MET,
    UNKNOWN,
    UNMET,
    RequirementError,
    expand_apps,
    finding_ids_needed,
    groups_needed,
    parse_requirement,
    parse_requirements,
    size_mib,
)

# -- parsing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "token, kind, op, value",
    [
        ("gpu", "gpu", None, None),
        ("gpus>=2", "gpus", ">=", "2"),
        ("gpus==4", "gpus", "=", "4"),
        ("compute>=8.0", "compute", ">=", "8.0"),
        ("vram>=24GiB", "vram", ">=", "24GiB"),
        ("vram>=24GB", "vram", ">=", "24GB"),
        ("vram > 512MiB", "vram", ">", "512MiB"),
        ("driver>=550", "driver", ">=", "550"),
        ("driver<560.35", "driver", "<", "560.35"),
        ("cuda-driver>=12.4", "cuda-driver", ">=", "12.4"),
        ("torch", "torch", None, None),
        ("torch>=2.4", "torch", ">=", "2.4"),
        ("torch.cuda", "torch.cuda", None, None),
        ("rocm>=6.1", "rocm", ">=", "6.1"),
        ("app=vllm", "app", "=", "vllm"),
        ("no:nvidia.driver-library-mismatch", "finding", None, "nvidia.driver-library-mismatch"),
        ("!torch.cpu-build-on-gpu-host", "finding", None, "torch.cpu-build-on-gpu-host"),
    ],
)
def test_good_tokens_parse(token, kind, op, value):
    req = parse_requirement(token)
    assert (req.kind, req.op, req.value) == (kind, op, value)
    assert req.text == token


def test_vendor_alternatives():
    req = parse_requirement("vendor=nvidia|AMD")
    assert req.kind == "vendor" and req.choices == ("nvidia", "amd")


def test_specs_split_on_commas_and_spaces():
    reqs = parse_requirements(["gpu, vram>=24GB", "torch.cuda  no:nvidia.xid-79"])
    assert [r.text for r in reqs] == ["gpu", "vram>=24GB", "torch.cuda", "no:nvidia.xid-79"]


@pytest.mark.parametrize(
    "token, says",
    [
        ("gpus", "gpus needs a comparison"),
        ("gpus>=two", "whole number"),
        ("gpus>=-1", "bad requirement 'gpus>=-1'"),
        ("gpu>=1", "gpu takes no '>='"),
        ("vram>=24", "size with a unit"),
        ("vram>=24XB", "unknown unit 'XB'"),
        ("compute>=eight", "expected a version"),
        ("driver>=550.x", "expected a version"),
        ("vendor=nvidia|apple", "unknown vendor 'apple'"),
        ("vendor>=nvidia", "vendor takes no '>='"),
        ("torch~=2.4", "bad requirement 'torch~=2.4'"),
        ("gpuz", "unknown requirement 'gpuz'"),
        ("nvidia.driver-library-mismatch", "write no:nvidia.driver-library-mismatch"),
        ("no:", "is not a finding id"),
        ("!NotAnId", "is not a finding id"),
        ("app=", "bad requirement 'app='"),
        ("=2", "bad requirement '=2'"),
    ],
)
def test_bad_tokens_name_the_token(token, says):
    with pytest.raises(RequirementError) as info:
        parse_requirement(token)
    assert says in str(info.value)
    assert repr(token.strip()) in str(info.value) or token.strip() in str(info.value)


def test_sizes_binary_and_decimal():
    assert size_mib("24GiB") == 24 * 1024
    assert size_mib("1TiB") == 1024 * 1024
    assert round(size_mib("24GB")) == 22888  # 24e9 bytes


def test_versions_compare_on_written_components():
    assert compare_versions("550.54.14", ">=", "550") is True
    assert compare_versions("550.54.14", "=", "550") is True
    assert compare_versions("550.54.14", ">", "550") is False
    assert compare_versions("2.4.1+cu124", "<=", "2.4") is True
    assert compare_versions("2.3.1", ">=", "2.4") is False
    assert compare_versions("N/A", ">=", "1") is None


def test_needs_map_to_fact_groups_and_findings():
    reqs = parse_requirements(["vram>=8GB", "driver>=550", "torch.cuda", "no:nvidia.xid-79"])
    groups = groups_needed(reqs)
    assert {"nvidia.gpus", "amd.gpus", "nvidia.driver", "python.torch"} <= groups
    assert "os" not in groups
    ids = finding_ids_needed(reqs)
    assert "nvidia.xid-79" in ids and "torch.cpu-build-on-gpu-host" in ids


def test_unknown_app_is_a_clean_error(monkeypatch):
    import envdoctor.requirements.parse as requirements

    monkeypatch.setattr(
        requirements, "APP_REQUIREMENTS_MODULE", "envdoctor.no_such_module_for_apps"
    )
    with pytest.raises(RequirementError, match="unknown app 'vllm'"):
        expand_apps(parse_requirements(["app=vllm"]), lambda: None)


def test_app_expands_through_the_provider(monkeypatch):
    import sys
    import types

    import envdoctor.requirements.parse as requirements

    provider = types.ModuleType("fake_apps_provider")
    provider.preflight_requirements = lambda name, _m: (
        ["gpu", "compute>=7.0"] if name == "vllm" else None
    )
    provider.known_apps = lambda _m: ["vllm"]
    monkeypatch.setitem(sys.modules, "fake_apps_provider", provider)
    monkeypatch.setattr(requirements, "APP_REQUIREMENTS_MODULE", "fake_apps_provider")
    reqs = expand_apps(parse_requirements(["app=vllm", "torch"]), lambda: None)
    assert [(r.text, r.origin) for r in reqs] == [
        ("gpu", "app=vllm"),
        ("compute>=7.0", "app=vllm"),
        ("torch", "--require"),
    ]
    with pytest.raises(RequirementError, match=r"unknown app 'comfyui'.*known: vllm"):
        expand_apps(parse_requirements(["app=comfyui"]), lambda: None)


# -- judging on snapshots from real captures -------------------------------------------------------


def snapshot_from(real_captures, name: str, torch: str | None = "2.5.1+cu124") -> Snapshot:
    """A snapshot whose NVIDIA facts come from a real `nvidia-smi -q -x` capture, enriched from
    the bundled matrices as preflight does (compute capabilities by name)."""
    from envdoctor.diagnosis.enrich import enrich
    from envdoctor.ingest import nvidia_smi_xml
    from envdoctor.matrix.loader import load_bundled

    snap = Snapshot()
    snap.extend(nvidia_smi_xml.read((real_captures / "nvidia-smi-q-x" / name).read_text()))
    snap.add(absent("amd.gpus", "probe:amd", "no AMD GPU on the PCI bus"))
    snap.add(absent("intel.gpus", "probe:intel", "no Intel GPU on the PCI bus"))
    snap.add(collected("python", "probe:python_env", {"prefix": "/srv/app/.venv"}))
    snap.add(
        collected(
            "python.packages", "probe:python_env", {"packages": {"torch": torch} if torch else {}}
        )
    )
    return enrich(snap, load_bundled())


A100 = "telegraf-a100-sxm4-80gb-mig-driver-535.54.03.xml"  # 1x A100 80GB, 535.54.03, CUDA 12.2
RTX2080TI_X2 = "openpai-geforce-rtx2080ti-x2-driver-410.73.xml"  # 2x 11 GB, 7.5, 410.73, CUDA 10.0
RTX3060 = "telegraf-geforce-rtx3060-driver-570.124.04.xml"  # 12 GB, 8.6, 570.124.04, CUDA 12.8


def verdict(snap: Snapshot, *specs: str, index: int = 0, **kw):
    return Judge(snap, parse_requirements(specs), **kw).judge_all()[index]


@pytest.mark.parametrize(
    "capture, spec, state",
    [
        (A100, "gpu", MET),
        (A100, "gpus>=2", UNMET),
        (RTX2080TI_X2, "gpus>=2", MET),
        (RTX2080TI_X2, "gpus=1", UNMET),
        (A100, "vendor=nvidia", MET),
        (A100, "vendor=amd|intel", UNMET),
        (A100, "compute>=8.0", MET),
        (RTX2080TI_X2, "compute>=8.0", UNMET),
        (A100, "vram>=80GiB", MET),
        (RTX3060, "vram>=12GB", MET),
        (RTX3060, "vram>=24GB", UNMET),
        (RTX2080TI_X2, "vram>=11GB", MET),  # 10989 MiB: an "11 GB" card
        (RTX2080TI_X2, "vram>=11GiB", UNMET),  # ... but not 11 GiB
        (A100, "driver>=535", MET),
        (A100, "driver>=550", UNMET),
        (RTX3060, "driver=570", MET),
        (A100, "cuda-driver>=12.2", MET),
        (A100, "cuda-driver>=12.4", UNMET),
        (RTX2080TI_X2, "cuda-driver>=10.0", MET),
        (A100, "torch", MET),
        (A100, "torch>=2.4", MET),
        (A100, "torch>=2.6", UNMET),
        (A100, "rocm", UNMET),
    ],
)
def test_requirement_on_real_capture(real_captures, capture, spec, state):
    v = verdict(snapshot_from(real_captures, capture), spec)
    assert v.state == state, v.reason
    assert v.reason


def test_unmet_vram_names_the_gpu_and_its_memory(real_captures):
    v = verdict(snapshot_from(real_captures, RTX3060), "vram>=24GB")
    assert "RTX 3060" in v.reason and "12288 MiB" in v.reason and "24GB" in v.reason


def test_per_gpu_requirements_narrow_the_count(real_captures):
    snap = snapshot_from(real_captures, RTX2080TI_X2)
    assert verdict(snap, "gpus>=2", "compute>=7.5").state == MET
    both = Judge(snap, parse_requirements(["gpus>=2", "compute>=8.0"])).judge_all()
    assert [v.state for v in both] == [UNMET, UNMET]
    assert "meet the other requirements" in both[0].reason


def test_no_gpu_is_unmet_with_the_reason(real_captures):
    snap = Snapshot()
    snap.add(absent("nvidia.gpus", "probe:nvidia", "no NVIDIA device on the PCI bus"))
    snap.add(absent("amd.gpus", "probe:amd", "no AMD GPU"))
    v = verdict(snap, "gpu")
    assert v.state == UNMET and "no NVIDIA device on the PCI bus" in v.reason
    assert verdict(snap, "driver>=550").state == UNMET


def test_a_failed_probe_is_unknown_not_a_pass():
    snap = Snapshot()
    snap.add(failed("nvidia.gpus", "probe:nvidia", "nvidia-smi timed out after 5 s"))
    snap.add(failed("nvidia.driver", "probe:nvidia", "nvidia-smi timed out after 5 s"))
    for spec in ("gpu", "vram>=8GB", "driver>=550", "cuda-driver>=12.0"):
        v = verdict(snap, spec)
        assert v.state == UNKNOWN and "timed out" in v.reason, spec


def test_no_gpu_probe_at_all_is_unknown():
    assert verdict(Snapshot(), "gpu").state == UNKNOWN


def test_torch_missing_is_unmet(real_captures):
    snap = snapshot_from(real_captures, A100, torch=None)
    v = verdict(snap, "torch>=2.4")
    assert v.state == UNMET and "not installed in /srv/app/.venv" in v.reason


def test_python_torch_group_wins_over_package_list(real_captures):
    snap = snapshot_from(real_captures, A100, torch="2.3.0")
    snap.add(collected("python.torch", "probe:torch_build", {"version": "2.4.1+cu124"}))
    assert verdict(snap, "torch>=2.4").state == MET


def test_rocm_version():
    snap = Snapshot()
    snap.add(collected("amd.rocm", "probe:rocm", {"version": "6.2.4"}))
    assert verdict(snap, "rocm>=6.1").state == MET
    assert verdict(snap, "rocm>=6.3").state == UNMET


# -- finding requirements and torch.cuda ------------------------------------------------------------


@check("torch.cpu-build-on-gpu-host", needs=("python.packages", "nvidia.gpus"))
def cpu_build(snap, _matrices):
    """Test double of the Python-stack check."""
    if str(snap.fact("python.packages", "packages", {}).get("torch", "")).endswith("+cpu"):
        return Finding(
            "torch.cpu-build-on-gpu-host",
            Severity.ERROR,
            "PyTorch is a CPU-only build",
            fixes=(
                Fix(
                    "Reinstall torch with CUDA kernels",
                    ("pip install torch --index-url https://download.pytorch.org/whl/cu124",),
                ),
            ),
        )
    return None


@check("torch.driver-too-old", needs=("python.packages", "nvidia.driver"))
def driver_too_old(snap, _matrices):
    """Test double: fires when the test says so."""
    return (
        Finding("torch.driver-too-old", Severity.ERROR, "driver too old")
        if snap.fact("nvidia.driver", "driver_version") == "410.73"
        else None
    )


def judge_with_checks(snap: Snapshot, *specs: str):
    reqs = parse_requirements(specs)
    checks = [cpu_build, driver_too_old]
    emitters = {i: [c] for c in checks for i in c.ids}
    outcome = run_checks(snap, MatrixSet(origin="none"), checks)
    return Judge(snap, reqs, outcome, emitters).judge_all()


def test_torch_cuda_met_when_no_build_finding_fires(real_captures):
    (v,) = judge_with_checks(snapshot_from(real_captures, A100), "torch.cuda")
    assert v.state == MET and "A100" in v.reason


def test_torch_cuda_unmet_on_cpu_build_with_its_fix(real_captures):
    (v,) = judge_with_checks(snapshot_from(real_captures, A100, torch="2.5.1+cpu"), "torch.cuda")
    assert (
        v.state == UNMET and v.finding is not None and v.finding.id == "torch.cpu-build-on-gpu-host"
    )
    assert v.finding.fixes[0].commands


def test_torch_cuda_unmet_without_gpu():
    snap = Snapshot()
    snap.add(absent("nvidia.gpus", "probe:nvidia", "no NVIDIA device"))
    snap.add(absent("amd.gpus", "probe:amd", "no AMD GPU"))
    snap.add(collected("python.packages", "p", {"packages": {"torch": "2.5.1"}}))
    (v,) = judge_with_checks(snap, "torch.cuda")
    assert v.state == UNMET and "no GPU" in v.reason


def test_torch_cuda_unknown_without_build_checks(real_captures):
    v = verdict(snapshot_from(real_captures, A100), "torch.cuda")
    assert v.state == UNKNOWN and "no checks of torch builds" in v.reason


def test_finding_requirement(real_captures):
    fired = judge_with_checks(
        snapshot_from(real_captures, RTX2080TI_X2), "no:torch.driver-too-old"
    )[0]
    assert fired.state == UNMET and fired.reason == "driver too old"
    quiet = judge_with_checks(snapshot_from(real_captures, A100), "!torch.driver-too-old")[0]
    assert quiet.state == MET


def test_finding_requirement_unknown_when_its_facts_failed(real_captures):
    snap = snapshot_from(real_captures, A100)
    snap.groups["nvidia.driver"] = failed(
        "nvidia.driver", "probe:nvidia", "nvidia-smi timed out after 5 s"
    )
    (v,) = judge_with_checks(snap, "no:torch.driver-too-old")
    assert v.state == UNKNOWN and "timed out" in v.reason


def test_finding_requirement_not_applicable_when_facts_absent():
    snap = Snapshot()
    snap.add(absent("nvidia.driver", "probe:nvidia", "no NVIDIA driver loaded"))
    snap.add(collected("python.packages", "p", {"packages": {}}))
    (v,) = judge_with_checks(snap, "no:torch.driver-too-old")
    assert v.state == MET


@check("torch.driver-too-old", needs=("pasted.text",))
def text_signature(_snap, _matrices):
    """Test double of an error signature: judges pasted text only."""
    return None


def test_emitters_that_need_pasted_text_do_not_block_a_live_verdict(real_captures):
    snap = snapshot_from(real_captures, A100)
    reqs = parse_requirements(["no:torch.driver-too-old"])
    both = {"torch.driver-too-old": [driver_too_old, text_signature]}
    outcome = run_checks(snap, MatrixSet(origin="none"), [driver_too_old, text_signature])
    assert Judge(snap, reqs, outcome, both).judge_all()[0].state == MET
    only_text = {"torch.driver-too-old": [text_signature]}
    v = Judge(
        snap, reqs, run_checks(snap, MatrixSet(origin="none"), [text_signature]), only_text
    ).judge_all()[0]
    assert v.state == UNKNOWN and "no probe collected pasted.text" in v.reason


@pytest.mark.parametrize(
    "text",
    [
        "550.54.14",
        "2.13.0+cpu",
        "2.7.1+cu128",
        "6.2.4-120",
        "12.4",
        "2.8.0.dev20250601",
        "V13.0.88",
        "1!2.0",
        "2.4.0a0",
        "575.57.08",
        "N/A",
        "",
        "cuda 12.4",
        "0",
    ],
)
def test_release_numbers_agree_with_packaging(text):
    """The fast path for plain versions gives the release packaging gives, or both give nothing."""
    from envdoctor.model.versions import parse
    from envdoctor.requirements.judge import release_numbers

    version = parse(text)
    assert release_numbers(text) == (list(version.release) if version is not None else None)
