"""The application probes on fake app trees built from the real layouts (tests/fixtures/apps,
sources in its SOURCES.md): checkouts with real venvs, an Ollama unit with drop-ins and real log
lines, llama.cpp builds behind fake ldd / --version printing real captures, HALCON and TorchServe."""

from __future__ import annotations

import shutil
import sys
import venv
from pathlib import Path

import pytest
from test_torch_build import VERSION_PY_271_CU126, VERSION_PY_2130_CPU, write_dist

from envdoctor.probes import (
    apps_detect,
    apps_halcon,
    apps_layout,
    apps_llamacpp,
    apps_ollama,
    apps_torchserve,
)
from envdoctor.probes.context import ProbeContext, ProbeOptions

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "apps"


def make_venv(folder: Path, torch: str | None = "cpu") -> Path:
    """A real venv (no pip) with a torch dist-info in its site-packages: "cpu" = 2.13.0+cpu,
    "cu126" = 2.7.1+cu126, None = no torch."""
    venv.create(folder, with_pip=False, symlinks=True)
    site = next((folder / "lib").glob("python3*/site-packages"))
    if torch == "cpu":
        write_dist(
            site,
            "torch",
            "2.13.0+cpu",
            tag="cp311-cp311-manylinux_2_28_x86_64",
            files={"torch/version.py": VERSION_PY_2130_CPU, "torch/lib/libtorch_cpu.so": ""},
        )
    elif torch == "cu126":
        write_dist(
            site,
            "torch",
            "2.7.1+cu126",
            files={"torch/version.py": VERSION_PY_271_CU126, "torch/lib/libtorch_cuda.so": ""},
        )
        write_dist(site, "torchvision", "0.22.1+cu126")
    return folder / "bin" / "python"


def checkout(tmp_path: Path, name: str) -> Path:
    """A copy of a fixture tree under tmp_path."""
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


def live_ctx(
    apps=(), app_dirs=(), env: dict[str, str] | None = None, python: str | None = None
) -> ProbeContext:
    base = {"PATH": "/usr/bin:/bin", "PWD": "/"}
    return ProbeContext(
        env={**base, **(env or {})},
        options=ProbeOptions(
            apps=tuple(apps), app_dirs=tuple(str(d) for d in app_dirs), python=python
        ),
    )


def detected(ctx: ProbeContext) -> dict:
    group = apps_detect.collect(ctx)[0]
    assert group.name == "apps.detected"
    return group


# --- apps.detected --------------------------------------------------------------------------------


def test_comfyui_checkout_with_its_venv_is_described_by_that_venv(tmp_path):
    comfy = checkout(tmp_path, "ComfyUI")
    python = make_venv(comfy / "venv", "cpu")
    group = detected(live_ctx(app_dirs=[comfy]))
    assert group.collected
    entry = group.data["apps"][0]
    assert (entry["name"], entry["version"], entry["version_source"], entry["how"]) == (
        "comfyui",
        "0.38.1",
        "comfyui_version.py",
        "app-dir",
    )
    assert entry["venv"]["python"] == str(python) and entry["venv"]["status"] == "collected"
    assert entry["venv"]["python_facts"]["environment"] == "venv"
    assert entry["venv"]["python_facts"]["prefix"] == str(comfy / "venv")
    assert entry["venv"]["packages"] == {"torch": "2.13.0+cpu"}
    assert (
        entry["venv"]["torch"]["version"] == "2.13.0+cpu"
        and entry["venv"]["torch"]["backend"] == "cpu"
    )
    assert "comfyui 0.38.1 (app-dir)" in group.summary


def test_webui_args_and_venv_dir_come_from_webui_user_sh(tmp_path):
    webui = checkout(tmp_path, "stable-diffusion-webui")
    script = webui / "webui-user.sh"
    script.write_text(
        script.read_text() + 'export COMMANDLINE_ARGS="--xformers --api"\nvenv_dir="env310"\n'
    )
    make_venv(webui / "env310", "cu126")
    entry = detected(live_ctx(app_dirs=[webui])).data["apps"][0]
    assert entry["name"] == "webui" and entry["version"] == "1.10.1"
    assert entry["launch_args"] == ["--xformers", "--api"]
    assert (
        entry["launch_file"] == str(script)
        and entry["launch_line"] == 'export COMMANDLINE_ARGS="--xformers --api"'
    )
    assert entry["venv"]["python"] == str(webui / "env310" / "bin" / "python")
    assert entry["venv"]["torch"]["version"] == "2.7.1+cu126"
    assert entry["venv"]["packages"] == {"torch": "2.7.1+cu126", "torchvision": "0.22.1+cu126"}


def test_webui_without_args_has_none_and_a_missing_venv_is_said(tmp_path):
    webui = checkout(tmp_path, "stable-diffusion-webui")
    entry = detected(live_ctx(app_dirs=[webui])).data["apps"][0]
    assert entry["launch_args"] == [] and entry["launch_file"] == str(webui / "webui-user.sh")
    assert entry["venv"]["status"] == "absent" and "launcher creates it" in entry["venv"]["reason"]


def test_webui_bat_args_are_read_when_the_sh_sets_none(tmp_path):
    webui = checkout(tmp_path, "stable-diffusion-webui")
    (webui / "webui-user.bat").write_text(
        "@echo off\n\nset PYTHON=\nset GIT=\nset VENV_DIR=\n"
        "set COMMANDLINE_ARGS=--medvram --xformers\n\ncall webui.bat\n"
    )
    entry = detected(live_ctx(app_dirs=[webui])).data["apps"][0]
    assert entry["launch_args"] == ["--medvram", "--xformers"]
    assert entry["launch_file"].endswith("webui-user.bat")


def test_textgen_flags_and_installer_env(tmp_path):
    textgen = checkout(tmp_path, "text-generation-webui")
    make_venv(textgen / "installer_files" / "env", None)
    entry = detected(live_ctx(app_dirs=[textgen])).data["apps"][0]
    assert entry["name"] == "textgen" and entry["launch_args"] == ["--listen", "--api"]
    assert entry["venv"]["status"] == "collected" and entry["venv"]["torch"] is None
    assert entry["venv"]["torch_status"] == "absent"


def test_current_directory_checkout_is_found_and_unknown_dirs_are_said(tmp_path):
    comfy = checkout(tmp_path, "ComfyUI")
    other = tmp_path / "notes"
    other.mkdir()
    data = detected(live_ctx(app_dirs=[other], env={"PWD": str(comfy)})).data
    assert [(a["name"], a["how"]) for a in data["apps"]] == [
        (None, "app-dir"),
        ("comfyui", "current directory"),
    ]
    assert "not a checkout envdoctor recognises" in data["apps"][0]["error"]


def test_requested_apps_are_kept_even_when_nothing_is_installed():
    data = detected(live_ctx(apps=["vLLM", "a1111", "llama.cpp", "blender"])).data
    assert data["requested"] == ["vllm", "webui", "llamacpp"] and data["unknown_requested"] == [
        "blender"
    ]
    assert data["apps"] == [] and isinstance(data["cpu_flags"], (list, type(None)))


def test_nothing_asked_and_nothing_found_is_absent(tmp_path):
    empty_site = tmp_path / "site"
    empty_site.mkdir()
    python = tmp_path / "python"
    python.write_text(
        f'#!/bin/sh\nPYTHONNOUSERSITE=1 PYTHONPATH="{empty_site}" exec "{sys.executable}" -S "$@"\n'
    )
    python.chmod(0o755)
    group = detected(live_ctx(python=str(python), env={"PWD": str(tmp_path)}))
    assert group.status.value == "absent" and "no known application found" in group.reason


def test_vllm_package_in_the_target_environment(tmp_path):
    site = tmp_path / "site"
    write_dist(site, "vllm", "0.11.0", requires=["torch==2.8.0"])
    write_dist(
        site,
        "llama-cpp-python",
        "0.3.16",
        files={"llama_cpp/lib/libggml-cuda.so": "", "llama_cpp/lib/libllama.so": ""},
    )
    python = tmp_path / "python"
    python.write_text(
        f'#!/bin/sh\nPYTHONNOUSERSITE=1 PYTHONPATH="{site}" exec "{sys.executable}" -S "$@"\n'
    )
    python.chmod(0o755)
    data = detected(live_ctx(python=str(python), env={"PWD": str(tmp_path)})).data
    by_name = {a["name"]: a for a in data["apps"]}
    assert by_name["vllm"]["version"] == "0.11.0" and by_name["vllm"]["how"] == "python-package"
    assert by_name["vllm"]["venv"] is None
    assert sorted(by_name["llamacpp"]["backend_libs"]) == ["libggml-cuda.so", "libllama.so"]


def test_venvs_are_not_run_inside_an_inspected_root(fake_root):
    root = fake_root(
        {
            "/srv/ComfyUI/main.py": "",
            "/srv/ComfyUI/comfy/cli_args.py": "",
            "/srv/ComfyUI/venv/bin/python": "#!/bin/sh\nexit 9\n",
        }
    )
    ctx = ProbeContext(
        root=root, env={"PATH": "/nonexistent"}, options=ProbeOptions(app_dirs=("/srv/ComfyUI",))
    )
    entry = apps_detect.collect(ctx)[0].data["apps"][0]
    assert entry["venv"]["status"] == "not-run" and "--root" in entry["venv"]["reason"]


def test_windows_portable_python_is_found(fake_root):
    root = fake_root(
        {
            "/w/ComfyUI_windows_portable/ComfyUI/main.py": "",
            "/w/ComfyUI_windows_portable/ComfyUI/comfy/x.py": "",
            "/w/ComfyUI_windows_portable/python_embeded/python.exe": "",
        }
    )
    ctx = ProbeContext(root=root, env={})
    assert (
        apps_layout.venv_python(ctx, "comfyui", "/w/ComfyUI_windows_portable/ComfyUI")
        == "/w/ComfyUI_windows_portable/python_embeded/python.exe"
    )


# --- apps.ollama ----------------------------------------------------------------------------------

OLLAMA_VERSION = '#!/bin/sh\necho "Warning: could not connect to a running Ollama instance"\necho "Warning: client version is 0.12.3"\n'


def test_ollama_unit_drop_ins_and_server_log(fake_root, fake_tools):
    root = fake_root(
        {
            "/etc/systemd/system/ollama.service": (FIXTURES / "ollama/ollama.service").read_text(),
            "/etc/systemd/system/ollama.service.d/override.conf": (
                FIXTURES / "ollama/override-13163.conf"
            ).read_text(),
            "/etc/systemd/system/ollama.service.d/zz-cpu.conf": (
                FIXTURES / "ollama/force-cpu.conf"
            ).read_text(),
            "/home/u/.ollama/logs/server.log": (
                FIXTURES / "ollama/journal-rtx4080-9245.log"
            ).read_text(),
        }
    )
    bindir = fake_tools({"ollama": OLLAMA_VERSION})
    ctx = ProbeContext(root=root, env={"PATH": bindir, "HOME": "/home/u"})
    data = apps_ollama.collect(ctx)[0].data
    assert data["version"] == "0.12.3" and data["path"] == f"{bindir}/ollama"
    assert data["service_files"] == [
        "/etc/systemd/system/ollama.service",
        "/etc/systemd/system/ollama.service.d/override.conf",
        "/etc/systemd/system/ollama.service.d/zz-cpu.conf",
    ]
    assert data["service_env"] == {
        "PATH": "$PATH",
        "OLLAMA_MODELS": "/mnt/shared/ollama-models/models",
        "CUDA_VISIBLE_DEVICES": "-1",
    }
    assert data["service_env_files"]["CUDA_VISIBLE_DEVICES"].endswith("zz-cpu.conf")
    assert data["log_source"] == "/home/u/.ollama/logs/server.log"
    assert data["library"] == "cuda_v12" and data["cpu_only"] is False
    assert (
        data["discovered"][0]["compute"] == "8.9"
        and data["discovered"][0]["name"] == "NVIDIA GeForce RTX 4080"
    )


def test_ollama_log_of_a_gpu_less_start():
    facts = apps_ollama.parse_log(
        (FIXTURES / "ollama/server-cpu-ollama-ov-6.log").read_text().splitlines()
    )
    assert facts["cpu_only"] is True and facts["library"] == "cpu"
    assert [p["kind"] for p in facts["problems"]] == ["no-compatible-gpu"]
    assert facts["server_version"] == "0.0.0"


def test_ollama_log_without_avx_and_server_env():
    facts = apps_ollama.parse_log(
        (FIXTURES / "ollama/server-no-avx-7585.log").read_text().splitlines()
    )
    assert [p["kind"] for p in facts["problems"]] == ["cpu-no-avx"]
    assert facts["server_version"] == "0.4.0" and facts["server_env"]["CUDA_VISIBLE_DEVICES"] == ""
    facts = apps_ollama.parse_log(
        (FIXTURES / "ollama/server-config-cuda-visible-8963.log").read_text().splitlines()
    )
    assert facts["server_env"]["CUDA_VISIBLE_DEVICES"] == "1" and facts["cpu_only"] is None


def test_ollama_log_only_the_latest_start_counts():
    old = (FIXTURES / "ollama/server-no-avx-7585.log").read_text().splitlines()
    new = (FIXTURES / "ollama/server-config-cuda-visible-8963.log").read_text().splitlines() + (
        FIXTURES / "ollama/windows-2080ti-10569.log"
    ).read_text().splitlines()
    facts = apps_ollama.parse_log(old + new)
    assert (
        facts["problems"] == []
        and facts["library"] == "cuda_v12"
        and facts["discovered"][0]["compute"] == "7.5"
    )


def test_ollama_no_nvidia_devices_line():
    facts = apps_ollama.parse_log(
        (FIXTURES / "ollama/journal-no-nvidia-devices-12116.log").read_text().splitlines()
    )
    assert [p["kind"] for p in facts["problems"]] == ["no-nvidia-devices"]


def test_ollama_journal_is_read_on_the_live_machine(fake_tools):
    journal = (FIXTURES / "ollama/journal-rtx4080-9245.log").read_text().replace("'", "'\\''")
    bindir = fake_tools(
        {"journalctl": f"#!/bin/sh\nprintf '%s\\n' '{journal}'\n", "ollama": OLLAMA_VERSION}
    )
    ctx = ProbeContext(env={"PATH": bindir, "HOME": "/nonexistent"})
    data = apps_ollama.collect(ctx)[0].data
    assert data["log_source"].startswith("journalctl -u ollama") and data["library"] == "cuda_v12"


def test_ollama_absent_and_a_hanging_binary_is_cut(fake_root, fake_tools):
    ctx = ProbeContext(root=fake_root({}), env={"PATH": "/nonexistent"})
    assert apps_ollama.collect(ctx)[0].status.value == "absent"
    bindir = fake_tools({"ollama": "#!/bin/sh\nexec /bin/sleep 30\n"})
    data = apps_ollama.collect(ProbeContext(root=fake_root({}), env={"PATH": bindir}))[0].data
    assert data["version"] is None and "timed out" in data["version_error"]


# --- apps.llamacpp --------------------------------------------------------------------------------


def _ldd_cpu_lines() -> str:
    return "\n".join(
        ln
        for ln in (FIXTURES / "llamacpp/ldd-libggml-cuda-v12-ollama-7546.txt")
        .read_text()
        .splitlines()
        if "cu" not in ln.split("=>")[0]
    )


def _printing(path: Path) -> str:
    return f"#!/bin/sh\nexec /bin/cat '{path}'\n"


def test_llamacpp_cuda_build_from_its_backend_library_and_version(tmp_path, fake_tools):
    build = tmp_path / "llama.cpp" / "build" / "bin"
    build.mkdir(parents=True)
    (tmp_path / "llama.cpp" / "ggml").mkdir()
    server = build / "llama-server"
    server.write_text(_printing(FIXTURES / "llamacpp/version-cuda-a100-15589.txt"))
    server.chmod(0o755)
    (build / "libggml-cuda.so").write_text("")
    cpu = tmp_path / "ldd-cpu.txt"
    cpu.write_text(_ldd_cpu_lines())
    ldd = fake_tools(
        {
            "ldd": f'#!/bin/sh\ncase "$1" in *libggml-cuda*) /bin/cat "{FIXTURES}/llamacpp/ldd-libggml-cuda-v12-ollama-7546.txt";; '
            f'*) /bin/cat "{cpu}";; esac\n'
        }
    )
    ctx = ProbeContext(
        env={"PATH": ldd}, options=ProbeOptions(app_dirs=(str(tmp_path / "llama.cpp"),))
    )
    found = apps_llamacpp.collect(ctx)[0].data["builds"]
    assert len(found) == 1
    b = found[0]
    assert b["backends"] == ["cuda"] and b["cuda_major"] == 11
    assert b["devices"] == [{"name": "NVIDIA A100-SXM4-80GB", "compute": "8.0"}]
    assert "libcublas.so.11 => not found" in b["missing_libs"]


def test_llamacpp_cpu_build_on_path(tmp_path, fake_tools):
    cpu = tmp_path / "ldd-cpu.txt"
    cpu.write_text(_ldd_cpu_lines())
    bindir = fake_tools(
        {
            "llama-cli": _printing(FIXTURES / "llamacpp/version-windows-10727.txt"),
            "ldd": f'#!/bin/sh\n/bin/cat "{cpu}"\n',
        }
    )
    b = apps_llamacpp.collect(ProbeContext(env={"PATH": bindir}))[0].data["builds"][0]
    assert (b["backends"], b["version"], b["commit"]) == (["cpu"], "4291", "ce8784bd")
    assert b["missing_libs"] == []


def test_llamacpp_new_device_line_and_absent(tmp_path, fake_tools):
    bindir = fake_tools({"llama-server": _printing(FIXTURES / "llamacpp/version-gb10-22040.txt")})
    b = apps_llamacpp.collect(ProbeContext(env={"PATH": bindir}))[0].data["builds"][0]
    assert b["backends"] == ["cuda"] and b["devices"] == [
        {"name": "NVIDIA GB10", "compute": "12.1"}
    ]
    assert (
        apps_llamacpp.collect(ProbeContext(env={"PATH": "/nonexistent"}))[0].status.value
        == "absent"
    )


# --- apps.halcon / apps.torchserve ----------------------------------------------------------------


def test_halcon_from_halconroot_with_its_cuda_libraries(fake_root):
    base = "/opt/MVTec/HALCON-23.11-Progress"
    root = fake_root(
        {
            f"{base}/lib/x64-linux/libhalcon.so": "",
            f"{base}/lib/x64-linux/thirdparty/libcublas.so.12": "",
            f"{base}/lib/x64-linux/thirdparty/libcudnn.so.8": "",
            f"{base}/lib/x64-linux/thirdparty/libcudart.so.12": "",
        }
    )
    ctx = ProbeContext(root=root, env={"HALCONROOT": base, "HALCONARCH": "x64-linux"})
    data = apps_halcon.collect(ctx)[0].data
    assert (data["version"], data["edition"], data["how"]) == ("23.11", "Progress", "HALCONROOT")
    assert data["libhalcon"] == f"{base}/lib/x64-linux/libhalcon.so"
    assert sorted((lib["library"], lib["major"]) for lib in data["cuda_libs"]) == [
        ("cublas", 12),
        ("cudart", 12),
        ("cudnn", 8),
    ]
    elsewhere = root.parent / "empty-root"
    elsewhere.mkdir()
    assert apps_halcon.collect(ProbeContext(root=elsewhere, env={}))[0].status.value == "absent"


def test_torchserve_config_properties(tmp_path):
    folder = checkout(tmp_path, "torchserve")
    ctx = live_ctx(app_dirs=[folder], env={"CUDA_VISIBLE_DEVICES": "0,1"})
    data = apps_torchserve.collect(ctx)[0].data
    assert data["configs"][0]["number_of_gpu"] == 4 and data["cuda_visible_devices"] == "0,1"
    assert data["configs"][0]["properties"]["model_store"] == "/home/model-server/model-store"
    assert apps_torchserve.parse_properties("a=1\\\n  2\n# c\nb: x\n") == {"a": "12", "b": "x"}
    assert (
        apps_torchserve.collect(live_ctx(env={"PWD": str(tmp_path / "none")}))[0].status.value
        == "absent"
    )


@pytest.mark.parametrize(
    "folder,expected",
    [
        ("ComfyUI", "comfyui"),
        ("stable-diffusion-webui", "webui"),
        ("text-generation-webui", "textgen"),
        ("torchserve", "torchserve"),
        ("ollama", None),
    ],
)
def test_identify_the_fixture_trees(folder, expected):
    assert apps_layout.identify(ProbeContext(env={}), str(FIXTURES / folder)) == expected
