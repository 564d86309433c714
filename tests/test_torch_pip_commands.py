"""envdoctor.installers.pip_commands: the installer of an environment and the exact commands for it."""

from __future__ import annotations

from envdoctor.installers.pip_commands import (
    CONDA,
    PIP,
    UV,
    TorchTarget,
    detect_installer,
    install,
    new_venv,
    pin,
    torch_reinstall,
    uninstall,
    verify_torch,
)

VENV = {
    "executable": "/srv/app/.venv/bin/python",
    "environment": "venv",
    "prefix": "/srv/app/.venv",
    "platform": "linux",
}
TARGET = TorchTarget(
    "2.7.1", "cu128", "https://download.pytorch.org/whl/cu128", "0.22", "2.7", exact=True
)


def test_pip_in_a_venv():
    inst = detect_installer(VENV, {"installers": {"torch": "pip"}})
    assert (inst.tool, inst.python, inst.conda_tool) == (PIP, "/srv/app/.venv/bin/python", None)
    commands = torch_reinstall(
        inst, TARGET, {"torch": "2.7.1+cu126", "torchvision": "0.22.1+cu126"}
    )
    assert commands[:2] == (
        "/srv/app/.venv/bin/python -m pip uninstall -y torch torchvision",
        "/srv/app/.venv/bin/python -m pip install torch==2.7.1 'torchvision==0.22.*' "
        "--index-url https://download.pytorch.org/whl/cu128",
    )
    assert commands[2].startswith(
        '/srv/app/.venv/bin/python -c \'import torch; x = torch.ones(256, 256, device="cuda")'
    )


def test_uv_venv_uses_uv_pip_with_python():
    """A uv-made venv has no pip of its own: the commands go through `uv pip --python`."""
    inst = detect_installer({**VENV, "environment": "uv-venv"}, {"installers": {"torch": "uv"}})
    assert inst.tool == UV
    commands = torch_reinstall(inst, TARGET, {"torch": "2.7.1+cu126"})
    assert commands[0] == "uv pip uninstall --python /srv/app/.venv/bin/python torch"
    assert commands[1] == (
        "uv pip install --python /srv/app/.venv/bin/python torch==2.7.1 "
        "--index-url https://download.pytorch.org/whl/cu128"
    )


def test_torch_installed_by_uv_in_a_plain_venv():
    assert detect_installer(VENV, {"installers": {"torch": "uv"}}).tool == UV


def test_conda_installed_torch_is_removed_with_conda_and_reinstalled_with_pip():
    facts = {
        "executable": "/opt/conda/envs/ml/bin/python",
        "environment": "conda",
        "prefix": "/opt/conda/envs/ml",
        "platform": "linux",
    }
    installers = {"torch": "conda", "torchvision": "conda", "torchaudio": "pip"}
    inst = detect_installer(facts, {"installers": installers})
    assert (inst.tool, inst.conda_tool) == (PIP, CONDA)
    commands = torch_reinstall(
        inst, TARGET, {"torch": "2.1.0", "torchvision": "0.16.0", "torchaudio": "2.1.0"}, installers
    )
    assert commands[0] == "conda remove -y -p /opt/conda/envs/ml pytorch torchvision"
    assert commands[1] == "/opt/conda/envs/ml/bin/python -m pip uninstall -y torchaudio"
    assert commands[2] == (
        "/opt/conda/envs/ml/bin/python -m pip install torch==2.7.1 'torchvision==0.22.*' "
        "'torchaudio==2.7.*' --index-url https://download.pytorch.org/whl/cu128"
    )


def test_mamba_installer_name_is_kept():
    facts = {
        "executable": "/opt/mamba/envs/x/bin/python",
        "environment": "conda",
        "prefix": "/opt/mamba/envs/x",
    }
    inst = detect_installer(facts, {"installers": {"torch": "mamba"}})
    assert uninstall(inst, ["torch"], {"torch": "mamba"}) == (
        "mamba remove -y -p /opt/mamba/envs/x pytorch",
    )


def test_windows_paths_and_quoting():
    facts = {
        "executable": r"C:\Program Files\Python311\python.exe",
        "environment": "system",
        "platform": "win32",
    }
    inst = detect_installer(facts, {"installers": {"torch": "pip"}})
    assert inst.windows
    assert install(inst, ["torch==2.7.1"], TARGET.index_url) == (
        r'"C:\Program Files\Python311\python.exe" -m pip install torch==2.7.1 '
        "--index-url https://download.pytorch.org/whl/cu128"
    )
    assert verify_torch(inst, "cuda").startswith(
        r'"C:\Program Files\Python311\python.exe" -c "import torch;'
    )
    assert "device='cuda'" in verify_torch(inst, "cuda")


def test_paths_with_spaces_are_quoted_on_posix():
    inst = detect_installer({"executable": "/home/me/my env/bin/python", "environment": "venv"}, {})
    assert install(inst, ["torch"]).startswith("'/home/me/my env/bin/python' -m pip install torch")


def test_pins():
    assert pin("torch", "2.7.1+cu126", exact=True) == "torch==2.7.1"
    assert pin("torch", "2.13", exact=False) == "torch==2.13.*"
    assert pin("torchvision", "0.22", exact=False) == "torchvision==0.22.*"


def test_new_venv():
    assert new_venv("3.12", windows=False)[0] == "python3.12 -m venv .venv-torch"
    create, inst = new_venv("3.12", windows=True)
    assert (
        create == "py -3.12 -m venv .venv-torch"
        and inst.python == r".venv-torch\Scripts\python.exe"
    )


def test_rocm_and_cpu_verification():
    inst = detect_installer(VENV, {})
    assert "torch.version.hip" in verify_torch(inst, "rocm")
    assert "torch.cuda.is_available()" in verify_torch(inst, "cpu")
