"""Every application check with a failing and a passing snapshot. Snapshots are built here with the
fact-group names the probes fill (apps.detected, apps.ollama, ... and the GPU groups); Ollama's log
facts come from real log lines parsed by the probe's own parser (tests/fixtures/apps/SOURCES.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from envdoctor.checks import (
    apps_cad,
    apps_gpu,
    apps_halcon,
    apps_llamacpp,
    apps_ollama,
    apps_torch,
    apps_torchserve,
    apps_vllm,
    apps_webui,
    load_checks,
)
from envdoctor.diagnosis.engine import run_checks
from envdoctor.matrix.loader import load_bundled
from envdoctor.model.findings import Severity
from envdoctor.model.snapshot import Snapshot, absent, collected, failed
from envdoctor.probes.apps_ollama import parse_log

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "apps"
MS = load_bundled()
APP_CHECKS = [
    c
    for m in (
        apps_gpu,
        apps_vllm,
        apps_torch,
        apps_webui,
        apps_ollama,
        apps_llamacpp,
        apps_halcon,
        apps_torchserve,
        apps_cad,
    )
    for c in m.CHECKS
]
UBUNTU = {
    "system": "Linux",
    "distro_id": "ubuntu",
    "distro_version": "24.04",
    "arch": "x86_64",
    "distro_name": "Ubuntu 24.04.1 LTS",
}


def snapshot(
    *,
    requested=(),
    apps=(),
    unknown=(),
    cpu_flags=("avx", "avx2", "avx512f"),
    os_facts=None,
    gpus=None,
    driver="550.120",
    cuda_max="12.4",
    amd=None,
    container=False,
    extra=(),
) -> Snapshot:
    """A live snapshot: OS, apps.detected, NVIDIA GPUs [(name, cc, MiB)] (None: no driver, no GPU on
    the PCI bus), AMD GPUs [(name, gfx)], extra groups."""
    snap = Snapshot(origin="live")
    snap.add(collected("os", "probe:os_info", dict(os_facts or UBUNTU)))
    snap.add(
        collected(
            "python",
            "probe:python_env",
            {
                "version": "3.11.7",
                "environment": "system",
                "prefix": "/usr",
                "executable": "/usr/bin/python3",
                "platform": "linux",
                "machine": "x86_64",
            },
        )
    )
    snap.add(
        collected(
            "python.packages",
            "probe:python_env",
            {"packages": {}, "installers": {}, "locations": {}},
        )
    )
    snap.add(
        collected(
            "apps.detected",
            "probe:apps_detect",
            {
                "requested": list(requested),
                "unknown_requested": list(unknown),
                "apps": list(apps),
                "cpu_flags": list(cpu_flags) if cpu_flags is not None else None,
                "notes": [],
            },
        )
    )
    if gpus:
        snap.add(
            collected(
                "nvidia.gpus",
                "nvml",
                {
                    "gpus": [
                        {"index": i, "name": n, "compute_capability": cc, "memory_total_mib": mib}
                        for i, (n, cc, mib) in enumerate(gpus)
                    ]
                },
            )
        )
        snap.add(
            collected(
                "nvidia.driver", "nvml", {"driver_version": driver, "cuda_driver_max": cuda_max}
            )
        )
    else:
        reason = "no NVIDIA driver: NVML: NVML Shared Library Not Found, nvidia-smi not found"
        snap.add(absent("nvidia.gpus", "probe:nvidia_gpu", reason))
        snap.add(absent("nvidia.driver", "probe:nvidia_gpu", reason))
        snap.add(
            collected(
                "nvidia.pci",
                "probe:nvidia_pci",
                {"devices": [], "gpu_count": 0, "pci_device_count": 6},
            )
        )
    if amd:
        snap.add(
            collected(
                "amd.gpus",
                "probe:amd_gpu",
                {
                    "gpus": [
                        {"index": i, "name": n, "gfx_target": gfx, "vram_mib": 16368}
                        for i, (n, gfx) in enumerate(amd)
                    ]
                },
            )
        )
    else:
        snap.add(
            absent(
                "amd.gpus",
                "probe:amd_gpu",
                "no KFD topology, no PCI display device of vendor 0x1002",
            )
        )
    snap.add(
        collected(
            "container.inside",
            "probe:container_inside",
            {
                "in_container": container,
                "engine": "docker" if container else None,
                "device_nodes": [],
            },
        )
    )
    for group in extra:
        snap.add(group)
    return snap


def run(snap: Snapshot) -> dict[str, Any]:
    """{finding id: finding} of the application checks."""
    return {f.id: f for f in run_checks(snap, MS, APP_CHECKS).findings}


def commands(finding) -> list[str]:
    return [c for fix in finding.fixes for c in fix.commands]


def venv_entry(app: str, where: str, torch: dict[str, Any] | None, **extra: Any) -> dict[str, Any]:
    python = f"{where}/venv/bin/python"
    return {
        "name": app,
        "version": None,
        "where": where,
        "how": "app-dir",
        "launch_args": extra.pop("args", None),
        "launch_file": extra.pop("launch_file", None),
        "venv": {
            "python": python,
            "status": "collected",
            "reason": None,
            "python_facts": {
                "executable": python,
                "version": "3.10.12",
                "environment": "venv",
                "prefix": f"{where}/venv",
                "platform": "linux",
                "machine": "x86_64",
            },
            "packages": {"torch": torch["version"], "torchvision": "0.16.2"} if torch else {},
            "installers": {"torch": "pip"} if torch else {},
            "package_count": 80,
            "torch": torch,
            "torch_status": "collected" if torch else "absent",
            "torch_reason": None,
        },
        **extra,
    }


CPU_TORCH = {"version": "2.13.0+cpu", "variant": "cpu", "backend": "cpu", "cuda": None}
OLD_TORCH = {"version": "2.1.2+cu121", "variant": "cu121", "backend": "cuda", "cuda": "12.1"}
CU126_TORCH = {"version": "2.7.1+cu126", "variant": "cu126", "backend": "cuda", "cuda": "12.6"}


# --- no usable GPU ---------------------------------------------------------------------------------


def test_vllm_asked_on_a_machine_without_gpu_says_what_is_missing_and_the_cpu_backend():
    f = run(snapshot(requested=["vllm"], container=True))["app.vllm.no-gpu"]
    assert f.severity is Severity.WARNING
    assert "no NVIDIA device on the PCI bus" in f.detail and "inside docker" in f.detail
    assert "docker pull vllm/vllm-openai-cpu:latest-x86_64" in commands(f)
    assert "avx512f" in f.fixes[0].summary and "7.5" in f.fixes[1].summary


def test_vllm_cpu_backend_words_follow_the_cpu_flags():
    limited = run(snapshot(requested=["vllm"], cpu_flags=["avx", "avx2"]))["app.vllm.no-gpu"]
    assert "limited features" in limited.fixes[0].summary
    none = run(snapshot(requested=["vllm"], cpu_flags=["sse4_2"]))["app.vllm.no-gpu"]
    assert "lacks" in none.fixes[0].summary and none.fixes[0].commands == ()


def test_no_gpu_findings_pass_with_a_gpu_and_when_the_gpu_probe_failed():
    assert not run(
        snapshot(requested=["vllm", "comfyui"], gpus=[("NVIDIA GeForce RTX 4090", "8.9", 24564)])
    )
    snap = snapshot(requested=["vllm"])
    snap.add(failed("nvidia.gpus", "probe:nvidia_gpu", "nvidia-smi timed out after 5 s"))
    assert "app.vllm.no-gpu" not in run(snap)


def test_installed_app_without_gpu_is_info_and_uses_its_own_terms():
    comfy = venv_entry("comfyui", "/home/u/ComfyUI", CPU_TORCH)
    webui = {
        "name": "webui",
        "where": "/srv/sd",
        "how": "app-dir",
        "launch_args": ["--xformers"],
        "launch_file": "/srv/sd/webui-user.sh",
        "venv": None,
    }
    textgen = {
        "name": "textgen",
        "where": "/srv/tg",
        "how": "app-dir",
        "launch_args": [],
        "launch_file": "/srv/tg/user_data/CMD_FLAGS.txt",
        "venv": None,
    }
    found = run(snapshot(apps=[comfy, webui, textgen]))
    assert {
        found[i].severity for i in ("app.comfyui.no-gpu", "app.webui.no-gpu", "app.textgen.no-gpu")
    } == {Severity.INFO}
    assert (
        commands(found["app.comfyui.no-gpu"])[0]
        == "cd /home/u/ComfyUI && /home/u/ComfyUI/venv/bin/python main.py --cpu"
    )
    assert (
        commands(found["app.webui.no-gpu"])[0]
        == 'export COMMANDLINE_ARGS="--xformers --use-cpu all --skip-torch-cuda-test"'
    )
    assert (
        commands(found["app.textgen.no-gpu"])[0] == "echo --cpu >> /srv/tg/user_data/CMD_FLAGS.txt"
    )


def test_unknown_app_is_info_and_known_apps_pass():
    f = run(snapshot(unknown=["blender"]))["app.unknown"]
    assert f.severity is Severity.INFO and "vllm" in f.detail and "comfyui" in f.detail
    assert "app.unknown" not in run(snapshot(requested=["vllm"], gpus=[("Tesla T4", "7.5", 15360)]))


# --- vLLM -----------------------------------------------------------------------------------------


def test_vllm_on_pascal_is_an_error_and_on_volta_a_warning():
    pascal = run(snapshot(requested=["vllm"], gpus=[("NVIDIA GeForce GTX 1080", "6.1", 8192)]))[
        "app.vllm.compute-too-low"
    ]
    assert pascal.severity is Severity.ERROR and "7.5" in pascal.title
    assert any("Ollama" in fix.summary for fix in pascal.fixes)
    volta = run(snapshot(requested=["vllm"], gpus=[("Tesla V100-SXM2-16GB", "7.0", 16384)]))[
        "app.vllm.compute-too-low"
    ]
    assert volta.severity is Severity.WARNING and "7.0" in volta.fixes[0].summary


def test_vllm_on_t4_passes_and_unrelated_apps_are_not_judged():
    assert "app.vllm.compute-too-low" not in run(
        snapshot(requested=["vllm"], gpus=[("Tesla T4", "7.5", 15360)])
    )
    assert "app.vllm.compute-too-low" not in run(
        snapshot(requested=["comfyui"], gpus=[("NVIDIA GeForce GTX 1080", "6.1", 8192)])
    )


def test_vllm_on_windows_is_an_error_with_wsl_and_linux_passes():
    windows = dict(UBUNTU, system="Windows")
    f = run(
        snapshot(
            requested=["vllm"], os_facts=windows, gpus=[("NVIDIA GeForce RTX 4090", "8.9", 24564)]
        )
    )
    assert f["app.vllm.unsupported-platform"].severity is Severity.ERROR
    assert "wsl --install -d Ubuntu" in commands(f["app.vllm.unsupported-platform"])
    assert "app.vllm.unsupported-platform" not in run(
        snapshot(requested=["vllm"], gpus=[("Tesla T4", "7.5", 15360)])
    )


# --- torch in the app's own venv --------------------------------------------------------------------


def test_comfyui_cpu_torch_on_a_gpu_host_reinstalls_in_its_venv():
    entry = venv_entry("comfyui", "/home/u/ComfyUI", CPU_TORCH)
    f = run(snapshot(apps=[entry], gpus=[("NVIDIA GeForce RTX 4090", "8.9", 24564)]))[
        "app.comfyui.cpu-only"
    ]
    assert f.severity is Severity.ERROR and "/home/u/ComfyUI/venv/bin/python" in f.detail
    cmds = commands(f)
    assert cmds[0].startswith("/home/u/ComfyUI/venv/bin/python -m pip uninstall -y torch")
    assert any("--index-url https://download.pytorch.org/whl/cu12" in c for c in cmds)
    assert all("/usr/bin/python3" not in c for c in cmds)


def test_comfyui_cuda_torch_passes_and_the_target_env_is_left_to_the_torch_checks():
    ok = venv_entry("comfyui", "/home/u/ComfyUI", CU126_TORCH)
    assert "app.comfyui.cpu-only" not in run(
        snapshot(apps=[ok], gpus=[("NVIDIA GeForce RTX 4090", "8.9", 24564)])
    )
    same = venv_entry("comfyui", "/usr", CPU_TORCH)
    same["venv"]["python_facts"]["prefix"] = "/usr"
    assert "app.comfyui.cpu-only" not in run(
        snapshot(apps=[same], gpus=[("NVIDIA GeForce RTX 4090", "8.9", 24564)])
    )


def test_webui_old_torch_on_rtx_5090_names_the_fix_in_the_webuis_terms():
    entry = venv_entry(
        "webui", "/srv/sd", OLD_TORCH, args=["--xformers"], launch_file="/srv/sd/webui-user.sh"
    )
    f = run(
        snapshot(
            apps=[entry],
            gpus=[("NVIDIA GeForce RTX 5090", "12.0", 32607)],
            driver="570.124.04",
            cuda_max="12.8",
        )
    )["app.webui.torch-too-old-for-gpu"]
    assert f.severity is Severity.ERROR and "sm_120" in f.title and "2.7.0" in f.detail
    cmds = commands(f)
    assert cmds[0].startswith("/srv/sd/venv/bin/python -m pip uninstall -y torch torchvision")
    assert any("whl/cu128" in c for c in cmds)
    assert any(
        c.startswith('export TORCH_COMMAND="pip install torch==') and "cu128" in c for c in cmds
    )
    assert 'export COMMANDLINE_ARGS="--xformers --reinstall-torch"' in cmds


def test_webui_old_torch_on_rtx_4090_passes():
    entry = venv_entry("webui", "/srv/sd", OLD_TORCH)
    assert "app.webui.torch-too-old-for-gpu" not in run(
        snapshot(apps=[entry], gpus=[("NVIDIA GeForce RTX 4090", "8.9", 24564)])
    )


# --- webui VRAM flags -----------------------------------------------------------------------------


def test_webui_on_a_4gb_gpu_without_flags_gets_the_webui_user_line():
    entry = {
        "name": "webui",
        "where": "/srv/sd",
        "how": "app-dir",
        "launch_args": ["--xformers"],
        "launch_file": "/srv/sd/webui-user.sh",
        "launch_line": 'export COMMANDLINE_ARGS="--xformers"',
        "venv": None,
    }
    f = run(snapshot(apps=[entry], gpus=[("NVIDIA GeForce GTX 1650", "7.5", 4096)]))[
        "app.webui.low-vram-flags"
    ]
    assert f.severity is Severity.WARNING
    assert [fix.commands[0] for fix in f.fixes] == [
        'export COMMANDLINE_ARGS="--xformers --medvram"',
        'export COMMANDLINE_ARGS="--xformers --lowvram"',
    ]
    asked = run(snapshot(requested=["webui"], gpus=[("NVIDIA GeForce GTX 1650", "7.5", 4096)]))[
        "app.webui.low-vram-flags"
    ]
    assert asked.fixes[0].commands == ('export COMMANDLINE_ARGS="--medvram"',)


def test_webui_with_medvram_or_enough_vram_passes():
    entry = {
        "name": "webui",
        "where": "/srv/sd",
        "how": "app-dir",
        "launch_args": ["--medvram"],
        "venv": None,
    }
    assert "app.webui.low-vram-flags" not in run(
        snapshot(apps=[entry], gpus=[("NVIDIA GeForce GTX 1650", "7.5", 4096)])
    )
    assert "app.webui.low-vram-flags" not in run(
        snapshot(requested=["webui"], gpus=[("NVIDIA GeForce RTX 3060", "8.6", 12288)])
    )


# --- Ollama ---------------------------------------------------------------------------------------


def ollama_group(
    log: str | None = None, env: dict[str, str] | None = None, files: dict[str, str] | None = None
):
    lines = (FIXTURES / "ollama" / log).read_text().splitlines() if log else []
    data = {
        "path": "/usr/bin/ollama",
        "version": "0.12.3",
        "service_files": ["/etc/systemd/system/ollama.service"],
        "service_env": env or {},
        "service_env_files": files or {},
        "libraries": ["cuda_v12"],
        "log_source": "journalctl -u ollama --no-pager -n 200",
        **parse_log(lines),
    }
    return collected("apps.ollama", "probe:apps_ollama", data)


def test_ollama_on_kepler_is_unsupported_and_maxwell_passes():
    f = run(snapshot(requested=["ollama"], gpus=[("NVIDIA GeForce GTX 780", "3.5", 3072)]))
    assert f["app.ollama.gpu-unsupported"].severity is Severity.WARNING
    assert any(
        '-DCMAKE_CUDA_ARCHITECTURES="35"' in c for c in commands(f["app.ollama.gpu-unsupported"])
    )
    assert "app.ollama.gpu-unsupported" not in run(
        snapshot(
            requested=["ollama"], gpus=[("NVIDIA GeForce GTX 980", "5.2", 4096)], driver="570.86"
        )
    )


def test_ollama_driver_floors_follow_the_gpu_generation():
    pascal = run(
        snapshot(
            requested=["ollama"], gpus=[("NVIDIA GeForce GTX 1080", "6.1", 8192)], driver="550.120"
        )
    )
    f = pascal["app.ollama.driver-too-old"]
    assert "570" in f.title and "sudo apt-get install -y nvidia-driver-570" in commands(f)
    ada = run(
        snapshot(
            requested=["ollama"],
            gpus=[("NVIDIA GeForce RTX 4090", "8.9", 24564)],
            driver="535.183.01",
        )
    )
    assert "550" in ada["app.ollama.driver-too-old"].title
    assert "app.ollama.driver-too-old" not in run(
        snapshot(
            requested=["ollama"], gpus=[("NVIDIA GeForce GTX 1080", "6.1", 8192)], driver="570.86"
        )
    )


def test_ollama_service_hiding_the_gpus_and_a_real_device_id_passes():
    group = ollama_group(
        env={"CUDA_VISIBLE_DEVICES": "-1"},
        files={"CUDA_VISIBLE_DEVICES": "/etc/systemd/system/ollama.service.d/override.conf"},
    )
    f = run(snapshot(gpus=[("NVIDIA GeForce RTX 4080", "8.9", 16376)], extra=[group]))[
        "app.ollama.visible-devices-hide-gpus"
    ]
    assert (
        "sudo sed -i '/CUDA_VISIBLE_DEVICES=/d' /etc/systemd/system/ollama.service.d/override.conf"
        in commands(f)
    )
    ok = ollama_group(env={"CUDA_VISIBLE_DEVICES": "0"}, log="server-config-cuda-visible-8963.log")
    assert "app.ollama.visible-devices-hide-gpus" not in run(
        snapshot(gpus=[("NVIDIA GeForce RTX 4080", "8.9", 16376)], extra=[ok])
    )


def test_ollama_cpu_fallback_from_its_log_on_a_gpu_host():
    group = ollama_group(log="server-cpu-ollama-ov-6.log")
    found = run(snapshot(gpus=[("NVIDIA GeForce RTX 4080", "8.9", 16376)], extra=[group]))
    f = found["app.ollama-cpu-fallback"]
    assert f.severity is Severity.WARNING and "no compatible GPUs were discovered" in f.detail
    assert any("OLLAMA_DEBUG=1" in c for c in commands(f))


def test_ollama_cpu_fallback_is_folded_under_its_cause():
    group = ollama_group(log="server-cpu-ollama-ov-6.log")
    findings = run_checks(
        snapshot(gpus=[("NVIDIA GeForce GTX 1080", "6.1", 8192)], driver="550.120", extra=[group]),
        MS,
        APP_CHECKS,
    ).findings
    fallback = next(f for f in findings if f.id == "app.ollama-cpu-fallback")
    assert fallback.explained_by == "app.ollama.driver-too-old"


def test_ollama_without_avx_says_so_and_a_gpu_start_passes():
    avx = ollama_group(log="server-no-avx-7585.log")
    avx.data["cpu_only"] = (
        True  # the reporter's next lines (not quoted) are the CPU "inference compute" line
    )
    f = run(snapshot(gpus=[("NVIDIA GeForce RTX 4070", "8.9", 12282)], extra=[avx]))[
        "app.ollama-cpu-fallback"
    ]
    assert "CPU type 'host'" in f.fixes[0].summary
    cuda = ollama_group(log="journal-rtx4080-9245.log")
    assert "app.ollama-cpu-fallback" not in run(
        snapshot(gpus=[("NVIDIA GeForce RTX 4080", "8.9", 16376)], extra=[cuda])
    )
    cpu_only_box = ollama_group(log="server-cpu-ollama-ov-6.log")
    cpu_only_box.data["problems"] = []
    assert "app.ollama-cpu-fallback" not in run(snapshot(extra=[cpu_only_box]))


# --- llama.cpp --------------------------------------------------------------------------------------


def llama(*builds: dict[str, Any]):
    return collected(
        "apps.llamacpp",
        "probe:apps_llamacpp",
        {
            "builds": [
                {
                    "path": "/opt/llama.cpp/build/bin/llama-server",
                    "how": "app-dir",
                    "backend_evidence": [],
                    "missing_libs": [],
                    "cuda_major": None,
                    **b,
                }
                for b in builds
            ]
        },
    )


def test_llamacpp_cpu_build_on_a_gpu_host_and_a_cuda_build_passes():
    f = run(
        snapshot(
            gpus=[("NVIDIA GeForce RTX 3090", "8.6", 24576)], extra=[llama({"backends": ["cpu"]})]
        )
    )
    assert "cmake -B build -DGGML_CUDA=ON && cmake --build build --config Release" in commands(
        f["app.llamacpp.cpu-build-on-gpu-host"]
    )
    assert not run(
        snapshot(
            gpus=[("NVIDIA GeForce RTX 3090", "8.6", 24576)], extra=[llama({"backends": ["cuda"]})]
        )
    )
    assert not run(snapshot(extra=[llama({"backends": ["cpu"]})]))  # no GPU: a CPU build is right


def test_llamacpp_cuda_build_on_an_amd_host_and_vulkan_passes():
    f = run(
        snapshot(amd=[("AMD Radeon RX 7900 XTX", "gfx1100")], extra=[llama({"backends": ["cuda"]})])
    )
    assert "-DGGML_HIP=ON" in " ".join(commands(f["app.llamacpp.backend-mismatch"]))
    assert not run(
        snapshot(
            amd=[("AMD Radeon RX 7900 XTX", "gfx1100")], extra=[llama({"backends": ["vulkan"]})]
        )
    )


def test_llamacpp_missing_cuda_runtime_and_a_complete_build_passes():
    missing = ["libcublas.so.11 => not found", "libcudart.so.11.0 => not found"]
    f = run(
        snapshot(extra=[llama({"backends": ["cuda"], "missing_libs": missing, "cuda_major": 11})])
    )
    assert f["app.llamacpp.cuda-runtime-missing"].severity is Severity.ERROR
    assert "CUDA 11" in f["app.llamacpp.cuda-runtime-missing"].fixes[0].summary
    assert "app.llamacpp.cuda-runtime-missing" not in run(
        snapshot(extra=[llama({"backends": ["cuda"]})])
    )


# --- HALCON, TorchServe, CAD --------------------------------------------------------------------------


def halcon(major: int):
    return collected(
        "apps.halcon",
        "probe:apps_halcon",
        {
            "root": "/opt/MVTec/HALCON-23.11-Progress",
            "version": "23.11",
            "cuda_libs": [
                {
                    "file": f"/opt/MVTec/HALCON-23.11-Progress/lib/x64-linux/thirdparty/libcublas.so.{major}",
                    "library": "cublas",
                    "major": major,
                }
            ],
        },
    )


def test_halcon_cuda_libraries_newer_than_the_driver_and_a_new_driver_passes():
    f = run(
        snapshot(
            gpus=[("NVIDIA RTX A4000", "8.6", 16376)],
            driver="470.256.02",
            cuda_max="11.4",
            extra=[halcon(12)],
        )
    )["app.halcon.cuda-unsupported"]
    assert f.severity is Severity.ERROR and "525.60.13" in f.fixes[0].summary
    assert "Requirements for Deep Learning" in f.fixes[1].summary
    assert "app.halcon.cuda-unsupported" not in run(
        snapshot(gpus=[("NVIDIA RTX A4000", "8.6", 16376)], extra=[halcon(12)])
    )


def torchserve(number_of_gpu, visible=None):
    return collected(
        "apps.torchserve",
        "probe:apps_torchserve",
        {
            "configs": [
                {
                    "path": "/srv/ts/config.properties",
                    "how": "app-dir",
                    "number_of_gpu": number_of_gpu,
                    "properties": {},
                    "errors": [],
                }
            ],
            "cuda_visible_devices": visible,
            "cuda_device_order": None,
        },
    )


def test_torchserve_gpu_count():
    two = [("NVIDIA A10G", "8.6", 23028), ("NVIDIA A10G", "8.6", 23028)]
    f = run(snapshot(gpus=two, extra=[torchserve(4)]))["app.torchserve.gpu-count"]
    assert (
        f.severity is Severity.WARNING
        and "sed -i 's/^number_of_gpu=.*/number_of_gpu=2/'" in commands(f)[0]
    )
    narrowed = run(snapshot(gpus=two, extra=[torchserve(2, visible="0")]))[
        "app.torchserve.gpu-count"
    ]
    assert "CUDA_VISIBLE_DEVICES='0'" in narrowed.detail
    assert (
        run(snapshot(gpus=two, extra=[torchserve(0)]))["app.torchserve.gpu-count"].severity
        is Severity.INFO
    )
    assert not run(snapshot(gpus=two, extra=[torchserve(2)]))
    assert not run(snapshot(gpus=two, extra=[torchserve(None)]))


def test_cad_reports_the_branch_and_what_cannot_be_checked():
    f = run(
        snapshot(
            requested=["solidworks"], gpus=[("NVIDIA RTX A4000", "8.6", 16376)], driver="570.124.04"
        )
    )
    info = f["app.solidworks.driver-certification"]
    assert info.severity is Severity.INFO and "R570" in info.title and "production" in info.title
    assert "Game Ready or Studio" in info.detail and "professional" in info.detail
    none = run(snapshot(requested=["creo"]))["app.creo.driver-certification"]
    assert "no NVIDIA driver" in none.title
    assert not any(
        k.endswith("driver-certification")
        for k in run(snapshot(gpus=[("NVIDIA RTX A4000", "8.6", 16376)]))
    )


# --- registry ---------------------------------------------------------------------------------------


def test_every_app_check_is_registered_and_has_a_help_page():
    registered = {c.function for c in load_checks()}
    for chk in APP_CHECKS:
        assert chk.function in registered
        assert len(chk.help) > 200


@pytest.mark.parametrize(
    "finding_id", ["app.ollama-cpu-fallback", "app.vllm.no-gpu", "app.webui.torch-too-old-for-gpu"]
)
def test_explain_finds_the_fact_based_check(finding_id):
    from envdoctor.checks import find_check

    assert find_check(finding_id).function.__module__.startswith("envdoctor.checks.apps_")
