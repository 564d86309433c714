"""`envdoctor check --app NAME` / `--app-dir DIR` and `preflight --require app=NAME` end to end on
this machine (real subprocesses, the live probes). The test machines have no GPU, so the
answers are the "no usable GPU here; this is what the app can still do" ones; on a machine with
a GPU the tests check the absence of those findings instead."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from test_apps_probes import FIXTURES, make_venv


def envdoctor(*args: str, cwd: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "envdoctor", *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=cwd,
        env=dict(os.environ),
    )


def check_json(*args: str, cwd: str | None = None) -> tuple[dict, int]:
    result = envdoctor("check", "--json", *args, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout), result.returncode


def _has_gpu(doc: dict) -> bool:
    groups = doc["snapshot"]["groups"]
    return any(
        groups.get(g, {}).get("status") == "collected" and groups[g]["data"].get("gpus")
        for g in ("nvidia.gpus", "amd.gpus")
    )


def test_check_app_vllm_says_what_is_missing_and_what_vllm_can_still_do():
    doc, code = check_json("--app", "vllm")
    apps = [f for f in doc["findings"] if f["layer"] == "apps"]
    assert doc["snapshot"]["groups"]["apps.detected"]["data"]["requested"] == ["vllm"]
    if _has_gpu(doc):
        assert "app.vllm.no-gpu" not in [f["id"] for f in apps]
        return
    assert [f["id"] for f in apps] == [
        "app.vllm.no-gpu"
    ]  # nothing else about apps: no false alarms
    finding = apps[0]
    assert finding["severity"] == "warning" and code == 0
    assert "Missing for GPU use" in finding["detail"] and "CPU backend" in finding["detail"]
    assert any("vllm-openai-cpu" in c for fix in finding["fixes"] for c in fix["commands"])


def test_check_app_comfyui_text_names_the_cpu_flag():
    result = envdoctor("check", "--app", "comfyui")
    assert result.returncode in (0, 1), result.stderr
    doc, _ = check_json("--app", "comfyui")
    if _has_gpu(doc):
        return
    assert "ComfyUI cannot use a GPU here" in result.stdout and "--cpu" in result.stdout


def test_app_dir_checkout_is_inspected_with_its_own_venv(tmp_path):
    comfy = tmp_path / "ComfyUI"
    shutil.copytree(FIXTURES / "ComfyUI", comfy)
    make_venv(comfy / "venv", "cpu")
    doc, _ = check_json("--app-dir", str(comfy))
    entry = doc["snapshot"]["groups"]["apps.detected"]["data"]["apps"][0]
    assert entry["name"] == "comfyui" and entry["venv"]["torch"]["version"] == "2.13.0+cpu"
    if _has_gpu(doc):
        return
    finding = next(f for f in doc["findings"] if f["id"] == "app.comfyui.no-gpu")
    assert finding["severity"] == "info"
    assert finding["fixes"][0]["commands"] == [
        f"cd {comfy} && {comfy}/venv/bin/python main.py --cpu"
    ]


def test_unknown_app_and_explain():
    doc, _ = check_json("--app", "blender")
    assert any(f["id"] == "app.unknown" for f in doc["findings"])
    result = envdoctor("explain", "app.ollama-cpu-fallback")
    assert result.returncode == 0 and "journalctl -u ollama" in result.stdout


def test_preflight_app_requirements():
    result = envdoctor("preflight", "--require", "app=vllm", "--json")
    doc = json.loads(result.stdout)
    assert [(r["requirement"], r["origin"]) for r in doc["requirements"]] == [
        ("gpu", "app=vllm"),
        ("compute>=7.5", "app=vllm"),
    ]
    assert result.returncode == (0 if all(r["state"] == "met" for r in doc["requirements"]) else 1)
    bad = envdoctor("preflight", "--require", "app=blender")
    assert bad.returncode == 2 and "unknown app 'blender'" in bad.stderr and "vllm" in bad.stderr
