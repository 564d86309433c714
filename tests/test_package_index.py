"""Fix commands keep the user's package mirror (pip.conf, PIP_INDEX_URL, uv.toml, .condarc) and
say when they need PyTorch's own wheel index. The configuration files are written in the formats
each tool documents (pip: "Configuration"; uv: "Configuration files"; conda: "Using the .condarc
conda configuration file"); the mirror URLs are the public Tsinghua/Aliyun mirrors' documented
addresses (pypi.tuna.tsinghua.edu.cn/simple, mirrors.tuna.tsinghua.edu.cn/anaconda)."""

from __future__ import annotations

import pytest

from envdoctor.model.findings import Finding, Fix, Severity
from envdoctor.model.snapshot import Snapshot
from envdoctor.package_index import (
    GROUP,
    NOTE_PYTORCH_INDEX,
    IndexConfig,
    adapt_commands,
    keep_user_index,
)
from envdoctor.probes import installer_config
from envdoctor.probes.context import ProbeContext

TUNA = "https://pypi.tuna.tsinghua.edu.cn/simple"
TORCH = "https://download.pytorch.org/whl/cu126"


def _probe(root, env):  # noqa: ANN001, ANN202
    [group] = installer_config.collect(ProbeContext(root=root, env=env))
    assert group.name == GROUP and group.collected
    return IndexConfig.from_dict(group.data)


def test_pip_conf_in_the_user_folder(fake_root):
    root = fake_root({"/home/ana/.config/pip/pip.conf": f"[global]\nindex-url = {TUNA}\n"})
    config = _probe(root, {"HOME": "/home/ana"})
    assert config.pip_index_url == TUNA
    assert config.pip_mirror == TUNA
    assert config.sources == ("/home/ana/.config/pip/pip.conf",)


def test_environment_overrides_pip_files_and_install_section_overrides_global(fake_root):
    root = fake_root(
        {
            "/etc/pip.conf": "[global]\nindex-url = https://mirrors.aliyun.com/pypi/simple/\n",
            "/home/ana/.pip/pip.conf": f"[install]\nindex-url = {TUNA}\n",
        }
    )
    assert _probe(root, {"HOME": "/home/ana"}).pip_index_url == TUNA
    env = {"HOME": "/home/ana", "PIP_INDEX_URL": "https://pypi.org/simple"}
    config = _probe(root, env)
    assert config.pip_index_url == "https://pypi.org/simple"
    assert config.pip_mirror is None  # PyPI itself is no mirror


def test_uv_toml_and_condarc(fake_root):
    root = fake_root(
        {
            "/home/ana/.config/uv/uv.toml": f'[[index]]\nurl = "{TUNA}"\ndefault = true\n',
            "/home/ana/.condarc": (
                "channels:\n  - defaults\nshow_channel_urls: true\n"
                "default_channels:\n  - https://mirrors.tuna.tsinghua.edu.cn/anaconda/pkgs/main\n"
                "custom_channels:\n  conda-forge: https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud\n"
            ),
        }
    )
    config = _probe(root, {"HOME": "/home/ana"})
    assert config.uv_index_url == TUNA
    assert config.conda_channels == ("defaults",)
    assert config.conda_custom_channels == {
        "conda-forge": "https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud"
    }
    assert config.conda_mirrored


def test_nothing_configured_is_collected_empty(fake_root):
    config = _probe(fake_root({"/etc/hostname": "x\n"}), {"HOME": "/home/ana"})
    assert config == IndexConfig()
    assert config.summary() == "installers use their default indexes"


def test_broken_files_are_not_fatal(fake_root):
    root = fake_root(
        {
            "/home/ana/.config/pip/pip.conf": "index-url = no section header\n",
            "/home/ana/.config/uv/uv.toml": "index-url = [unclosed\n",
            "/home/ana/.condarc": "channels: [\n",
        }
    )
    assert _probe(root, {"HOME": "/home/ana"}).pip_index_url is None


# -- adapting commands --------------------------------------------------------------------------


def test_pytorch_index_keeps_the_pip_mirror_for_the_other_packages():
    out = adapt_commands(
        [f"pip install torch torchvision --index-url {TORCH}"], IndexConfig(pip_index_url=TUNA)
    )
    assert out.commands == (
        f"pip install torch torchvision --index-url {TORCH} --extra-index-url {TUNA}",
    )
    assert out.needs_pytorch_index
    assert out.notes[0] == NOTE_PYTORCH_INDEX
    assert TUNA in out.notes[1]


def test_pytorch_index_is_said_plainly_even_without_a_mirror():
    out = adapt_commands([f"python -m pip install torch --index-url {TORCH}"], IndexConfig())
    assert out.commands == (f"python -m pip install torch --index-url {TORCH}",)
    assert out.notes == (NOTE_PYTORCH_INDEX,)


def test_an_explicit_pypi_override_is_dropped_so_the_mirror_applies():
    out = adapt_commands(
        ["pip install -i https://pypi.org/simple numpy"], IndexConfig(pip_index_url=TUNA)
    )
    assert out.commands == ("pip install numpy",)
    assert out.notes == ()


def test_uv_gets_the_pip_mirror_it_does_not_read_and_searches_the_torch_index_first():
    config = IndexConfig(pip_index_url=TUNA)
    assert adapt_commands(["uv pip install numpy"], config).commands == (
        f"uv pip install numpy --index-url {TUNA}",
    )
    out = adapt_commands([f"uv pip install torch --index-url {TORCH}"], config)
    assert out.commands == (f"uv pip install torch --index-url {TUNA} --extra-index-url {TORCH}",)
    # uv configured on its own: nothing added
    own = IndexConfig(pip_index_url=TUNA, uv_index_url=TUNA)
    assert adapt_commands(["uv pip install numpy"], own).commands == ("uv pip install numpy",)


def test_conda_channel_urls_become_names_resolved_through_the_mirror():
    config = IndexConfig(conda_channel_alias="https://mirrors.tuna.tsinghua.edu.cn/anaconda/cloud")
    out = adapt_commands(
        ["conda install pytorch -c https://conda.anaconda.org/pytorch -c nvidia"], config
    )
    assert out.commands == ("conda install pytorch -c pytorch -c nvidia",)
    assert adapt_commands(
        ["conda install pytorch -c https://conda.anaconda.org/pytorch"], IndexConfig()
    ).commands == ("conda install pytorch -c https://conda.anaconda.org/pytorch",)


@pytest.mark.parametrize(
    "command",
    ["sudo apt install nvidia-driver-550", "nvidia-smi", "docker run --gpus all IMAGE", "pip list"],
)
def test_other_commands_pass_unchanged(command):
    assert adapt_commands([command], IndexConfig(pip_index_url=TUNA)).commands == (command,)


def test_engine_step_adapts_every_fix_and_states_the_note():
    snap = Snapshot()
    snap.add(
        installer_config.collected(GROUP, "config files", IndexConfig(pip_index_url=TUNA).to_dict())
    )
    finding = Finding(
        "torch.cpu-build-on-gpu-host",
        Severity.ERROR,
        "t",
        fixes=(Fix("Reinstall torch", (f"pip install torch --index-url {TORCH}",)),),
    )
    [out] = keep_user_index([finding], snap)
    assert out.fixes[0].commands == (
        f"pip install torch --index-url {TORCH} --extra-index-url {TUNA}",
    )
    assert NOTE_PYTORCH_INDEX in out.fixes[0].assumptions


def test_check_on_this_machine_keeps_its_configured_indexes(capsys):
    """This machine's pip.conf has extra indexes: the live check records them."""
    from envdoctor.cli import main

    main(["check", "--json"])
    import json

    group = json.loads(capsys.readouterr().out)["snapshot"]["groups"][GROUP]
    assert group["status"] == "collected"
