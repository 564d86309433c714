"""Hostile use, redaction: credentials in application launch arguments are secrets in every
report format and inside suggested fix commands; user and host names that are common words are
replaced where they are values and never inside envdoctor's own vocabulary (tested with a list
of such names, and triage of the redacted report still finds the NVIDIA layer); commit hashes
in URLs and file paths under secret-sounding keys are kept; triage never echoes a pasted
secret or UUID, and `--redact` replaces identifiers too."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from envdoctor.cli import main
from envdoctor.commands.report import build
from envdoctor.commands.triage import triage_text
from envdoctor.model.findings import Evidence, Finding, Fix, Severity, order
from envdoctor.model.report import Report
from envdoctor.model.snapshot import Snapshot, collected
from envdoctor.render.redact import redact_document

FORMATS = ("json", "markdown", "html", "text")
LAUNCH_SECRETS = {
    "--gradio-auth": "alice:Sup3rS3cretPw",
    "--api-auth": "bob:Hunter2isMyPass",
    "--hf-token": "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    "--api-key": "kq8Zr3Vt6Yw9Bn2Mx5",
    "--db-password": "tr0ub4dor&3",
    "--openai_key": "ok-7f3e9a1c5b",
    "--access-token": "at-19fe33c0aa",
}
KEPT_ARGS = {
    "--max-tokens": "512",
    "--ssl-keyfile": "/etc/ssl/private/webui.pem",
    "--tokenizer": "meta-llama/Llama-2-7b-hf",
    "--tokenized_path": "cache",  # TOKEN starts the part: not a credential
    "--port": "7860",
}
COMMIT_URLS = (
    "https://github.com/pytorch/pytorch/commit/3f9c2a7be41d8e0f6a5b4c3d2e1f0a9b8c7d6e5f",
    "git+https://github.com/huggingface/transformers.git@0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
    "https://github.com/AUTOMATIC1111/stable-diffusion-webui/blob/82a973c04367123ae98bd9abdf80d9eda9b910e2/launch.py",
)
PATHS_UNDER_SECRET_KEYS = {
    "GOOGLE_APPLICATION_CREDENTIALS": "/etc/gcloud/service-account.json",
    "SSL_KEYFILE": "/etc/ssl/private/server.key",
    "HF_TOKEN_PATH": "~/.cache/huggingface/token",
}
# host and user names that are also words envdoctor uses
COMMON_WORDS = ("nvidia", "cuda", "gpu", "linux", "vm", "a", "amd", "torch", "driver", "node")


def argv_with_secrets() -> list[str]:
    argv = ["python", "launch.py"]
    for flag, value in {**LAUNCH_SECRETS, **KEPT_ARGS}.items():
        argv += [flag, value]
    return argv


def launch_report() -> Report:
    argv = argv_with_secrets()
    line = " ".join(argv[2:])
    snap = Snapshot(origin="live", created_at="2026-12-03T00:00:00+00:00", envdoctor_version="0")
    snap.add(
        collected(
            "apps.detected",
            "probe:apps_detect",
            {
                "apps": [
                    {
                        "name": "webui",
                        "launch_args": argv[2:],
                        "launch_line": f'export COMMANDLINE_ARGS="{line}"',
                        "sources": list(COMMIT_URLS),
                    }
                ]
            },
            raw={
                "ps": " ".join(argv) + "\n",
                "env": "\n".join(f"{k}={v}" for k, v in PATHS_UNDER_SECRET_KEYS.items()),
            },
        )
    )
    snap.add(collected("os.env", "probe:env", {"env": dict(PATHS_UNDER_SECRET_KEYS)}))
    finding = Finding(
        id="app.webui.old-torch",
        severity=Severity.WARNING,
        title="webui runs with an old torch",
        detail=f"launched as `{' '.join(argv)}`; index https://carol:Pa55w0rdXyz@pypi.example.com/simple",
        evidence=(Evidence("apps.detected.launch_line", line),),
        fixes=(Fix("Restart webui", (f"cd /srv/sd && ./webui.sh {line} --xformers",)),),
    )
    return Report(snap, order([finding]), passed=[], skipped=[], kind="report")


@pytest.mark.parametrize("fmt", FORMATS)
def test_launch_argument_secrets_never_reach_any_format(fmt):
    text, _note = build(launch_report(), fmt, env={}, hostnames=())
    flat = "".join(text.split())
    for value in [*LAUNCH_SECRETS.values(), "Pa55w0rdXyz", "carol:Pa55w0rdXyz"]:
        assert value not in text and value not in flat, f"{value!r} survived in {fmt}"
        if fmt == "html":
            from html import escape

            assert escape(value) not in text
    for value in KEPT_ARGS.values():  # in the fix command, shown in every format
        assert value in text, f"{value!r} lost in {fmt}"
    if fmt == "text":  # the terminal view shows no raw data
        return
    for value in PATHS_UNDER_SECRET_KEYS.values():
        assert value in text, f"{value!r} lost in {fmt}"
    for url in COMMIT_URLS:
        digest = re.search(r"[0-9a-f]{40}", url).group(0)
        assert digest in text, f"commit {digest} lost in {fmt}"


def test_the_fix_command_keeps_its_shape():
    doc, _ = redact_document(launch_report().to_dict(include_raw=True))
    command = doc["findings"][0]["fixes"][0]["commands"][0]
    assert command.startswith("cd /srv/sd && ./webui.sh --gradio-auth <secret-")
    assert "--max-tokens 512" in command and command.endswith("--xformers")
    assert doc["snapshot"]["groups"]["apps.detected"]["data"]["apps"][0]["launch_args"][0] == (
        "--gradio-auth"
    )


def test_a_secret_seen_once_in_argv_is_replaced_everywhere():
    """The list form (`["--gradio-auth", "user:pass"]`) has no `=` to go by: the value is
    learnt from the list and replaced wherever it recurs, in prose and commands."""
    doc = {
        "a": ["serve", "--gradio-auth", "zed:Quux9876"],
        "b": "the server said: user zed:Quux9876 logged in",
    }
    redacted, _ = redact_document(doc)
    assert "Quux9876" not in json.dumps(redacted)


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a shell for the fixture's script")
def test_report_of_a_webui_checkout_with_credentials(tmp_path):
    """End to end: a stable-diffusion-webui checkout whose webui-user.sh passes credentials,
    `envdoctor report --app-dir` in every format."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_apps_probes import FIXTURES, make_venv

    webui = tmp_path / "webui"
    shutil.copytree(FIXTURES / "stable-diffusion-webui", webui)
    args = " ".join(f"{k} {v}" for k, v in LAUNCH_SECRETS.items() if k != "--db-password")
    with (webui / "webui-user.sh").open("a") as handle:
        handle.write(f'export COMMANDLINE_ARGS="{args} --xformers --max-tokens 512"\n')
    make_venv(webui / "venv", "cu126")
    for fmt in FORMATS:
        result = subprocess.run(
            [sys.executable, "-m", "envdoctor", "report", "--app-dir", str(webui),
             "--format", fmt, "-o", "-", "--timeout", "20"],
            capture_output=True, text=True, timeout=120,
            env=dict(os.environ, ENVDOCTOR_PROBE_WORKER="0"),
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert "--gradio-auth" in result.stdout  # the option is reported...
        for flag, value in LAUNCH_SECRETS.items():
            if flag != "--db-password":
                assert value not in result.stdout, (
                    f"{value!r} survived in {fmt}"
                )  # ...not its value


# -- common words as host and user names -----------------------------------------------------


def word_report(real: Path, name: str) -> Report:
    from envdoctor.ingest import nvidia_smi_xml

    xml = (real / "nvidia-smi-q-x" / "openpai-geforce-rtx2080ti-x2-driver-410.73.xml").read_text()
    snap = Snapshot(origin="live", created_at="2026-12-03T00:00:00+00:00", envdoctor_version="0")
    snap.add(
        collected(
            "os",
            "probe:os_info",
            {"distro_name": "Debian GNU/Linux 12", "hostname": name, "user": name},
            summary="Debian GNU/Linux 12 (bookworm), kernel 6.1.0, x86_64",
            raw={
                "uname -a": f"Linux {name} 6.1.0-18-amd64 #1 SMP x86_64 GNU/Linux\n",
                "prompt": f"{name}@{name}:~$ nvidia-smi\n",
                "docker info": f"Server:\n Name: {name}\n",
                "hostnamectl": f" Static hostname: {name}\n",
            },
        )
    )
    for group in nvidia_smi_xml.read(xml):
        snap.add(group)
    snap.add(
        collected(
            "platform.vm",
            "probe:platform_vm",
            {"hypervisor": "kvm"},
            summary="VM: KVM/QEMU",
            raw={"version": "NVRM version: /proc/driver/nvidia/version"},
        )
    )
    snap.add(
        collected(
            "os.env",
            "probe:env",
            {"env": {"HOSTNAME": name, "USER": name, "HOME": f"/home/{name}",
                     "PATH": "/usr/local/cuda/bin:/usr/bin"}},
        )
    )  # fmt: skip
    findings = [
        Finding(
            id="vm.no-gpu-passthrough",
            severity=Severity.INFO,
            title="This VM has no GPU passed through",
            detail="Read /proc/driver/nvidia/version and /usr/local/cuda: the NVIDIA driver "
            "on Linux needs the GPU in the VM.",
            evidence=(Evidence("platform.vm", "kvm"),),
            fixes=(Fix("Pass the GPU through", ("virsh edit gpu-vm",)),),
        ),
        Finding(
            id="nvidia.no-gpu",
            severity=Severity.ERROR,
            title="No NVIDIA GPU",
            detail="nvidia-smi found no GPU; cuda and docker cannot use one.",
            evidence=(Evidence("nvidia.gpus", "0"),),
        ),
    ]
    return Report(
        snap, order(findings), passed=["nvidia.driver-loaded", "cuda.toolkit-found"], skipped=[],
        kind="report",
    )  # fmt: skip


VOCABULARY = (
    "vm.no-gpu-passthrough",
    "nvidia.no-gpu",
    "nvidia.driver-loaded",
    "cuda.toolkit-found",
    "/proc/driver/nvidia/version",
    "/usr/local/cuda",
    "NVIDIA driver",
    "Debian GNU/Linux 12",
    "VM: KVM/QEMU",
    "cuda and docker",
)


@pytest.mark.parametrize("name", COMMON_WORDS)
def test_common_word_names_are_replaced_as_values_only(real_captures, name):
    report = word_report(real_captures, name)
    doc, redactor = redact_document(report.to_dict(include_raw=True), {name}, {name})
    text = json.dumps(doc)
    groups = doc["snapshot"]["groups"]
    assert "nvidia.gpus" in groups and "platform.vm" in groups
    for word in VOCABULARY:
        assert word in text, f"{word!r} changed for the name {name!r}"
    # the values are gone
    assert groups["os"]["data"]["hostname"].startswith("<")
    env = groups["os.env"]["data"]["env"]
    assert env["HOSTNAME"].startswith("<") and env["USER"].startswith("<")
    assert env["HOME"].startswith("/home/<user-")
    raw = groups["os"]["raw"]
    assert re.fullmatch(
        r"Linux <host-1> 6\.1\.0-18-amd64 #1 SMP x86_64 GNU/Linux\n", raw["uname -a"]
    )
    assert re.fullmatch(r"<(user|host)-1>@<host-1>:~\$ nvidia-smi\n", raw["prompt"])
    assert raw["docker info"] == "Server:\n Name: <host-1>\n"
    assert raw["hostnamectl"] == " Static hostname: <host-1>\n"
    for fmt in FORMATS:
        rendered, _ = build(
            report, fmt, env={"USER": name, "HOME": f"/home/{name}"}, hostnames=(name,)
        )
        assert "No NVIDIA GPU" in rendered and "<host-1>.no-gpu" not in rendered
        assert "/proc/driver/<" not in rendered and "/usr/local/<" not in rendered
        if fmt != "text":  # the terminal view shows no ids
            assert "nvidia.no-gpu" in rendered and "vm.no-gpu-passthrough" in rendered


@pytest.mark.parametrize("name", ["nvidia", "gpu", "cuda"])
def test_triage_of_a_report_redacted_for_a_common_word_host_keeps_the_nvidia_layer(
    real_captures, name
):
    report = word_report(real_captures, name)
    markdown, _ = build(report, "markdown", env={"USER": name}, hostnames=(name,))
    triaged = triage_text(markdown)
    assert triaged.snapshot.has("nvidia.gpus")
    assert "nvidia.no-gpu" in {f.id for f in triaged.findings}


# -- triage never echoes pasted secrets ------------------------------------------------------

PASTE = """\
$ HF_TOKEN=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 python launch.py --gradio-auth alice:Sup3rS3cretPw --api-key kq8Zr3Vt6Yw9Bn2Mx5
export DB_PASSWORD="correct horse battery staple"
export OPENAI_API_KEY=sk-proj-4fGh7Jk9Lm2Np5Qr8St1Uv3Wx6Yz0AbC
pip install --index-url https://bob:Pa55w0rdXyz@pypi.example.com/simple torch
Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U
GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-c3b26f7a-8dcb-619c-fa1b-8029265a4db0)
  MIG 1g.10gb Device 0: (UUID: MIG-4c9f8f34-61a2-5c47-9b0e-2d7a1f3e8c90)
machine-id 8d7b9e5a-1c2f-4a3b-9d8e-7f6a5b4c3d2e
HOSTNAME=gpu-node-17
File "/home/zelda/webui/launch.py", line 3, in <module>
RuntimeError: CUDA error: no kernel image is available for execution on the device
"""
PASTE_SECRETS = (
    "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",
    "Sup3rS3cretPw",
    "kq8Zr3Vt6Yw9Bn2Mx5",
    "correct horse battery staple",
    "sk-proj-4fGh7Jk9Lm2Np5Qr8St1Uv3Wx6Yz0AbC",
    "Pa55w0rdXyz",
    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "c3b26f7a-8dcb-619c-fa1b-8029265a4db0",
    "4c9f8f34-61a2-5c47-9b0e-2d7a1f3e8c90",
    "8d7b9e5a-1c2f-4a3b-9d8e-7f6a5b4c3d2e",
)
PASTE_IDENTIFIERS = ("gpu-node-17", "zelda")


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("redact", [False, True])
def test_triage_never_echoes_pasted_secrets(tmp_path, capsys, fmt, redact):
    paste = tmp_path / "paste.txt"
    paste.write_text(PASTE)
    code = main(["triage", str(paste), "--format", fmt, "-v", *(["--redact"] if redact else [])])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    if fmt == "json":  # the paste was understood, not just blanked
        assert json.loads(out)["findings"]
    for value in PASTE_SECRETS:
        assert value not in out, f"{value!r} echoed in {fmt}"
    if redact:
        for value in PASTE_IDENTIFIERS:
            assert value not in out, f"{value!r} kept in {fmt} with --redact"


@pytest.mark.parametrize("flags", [[], ["--redact"], ["--lang", "zh"]])
def test_triage_of_a_jetson_prompt_named_nvidia_never_fails_its_redaction_check(
    tmp_path, capsys, flags
):
    """A Jetson's default prompt (user and host named after envdoctor's own word "nvidia") kept
    as is must not count as a replaced value that survived: round 25 found `envdoctor triage`
    exiting 3 ("redaction check failed") on such a paste (train/zh-7901)."""
    paste = tmp_path / "jetson.txt"
    paste.write_text(
        "nvidia@nvidia-desktop:~/try$ ./VideoPipe/build/bin/sample\n"
        "[Warn ][/home/nvidia/try/VideoPipe/nodes/vp_infer_node.cpp:43] load network failed!\n"
        "[08/21/2024-19:44:31] [E] [TRT] 6: The engine plan file is not compatible with this "
        "version of TensorRT, expecting library version 8.5.2.2 got 8.5.1.7, please rebuild.\n",
        encoding="utf-8",
    )
    code = main(["triage", str(paste), "--json", *flags])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    assert "redaction check failed" not in captured.err
    assert "tensorrt.engine-version-mismatch" in captured.out


def test_triage_redact_replaces_the_user_and_host_of_a_shell_prompt(tmp_path, capsys):
    """`triage --redact` learns the user and host from a pasted shell prompt (the only place a
    paste names them), keeps a generic account (root), and leaves e-mail addresses and git
    remotes alone."""
    paste = tmp_path / "prompt.txt"
    paste.write_text(
        "jane@box7:~/proj$ python train.py\n"
        "(base) root@gpu-node-3:/workspace# nvidia-smi\n"
        "git clone git@github.com:org/repo.git\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
        encoding="utf-8",
    )
    assert main(["triage", str(paste), "--json", "--redact"]) in (0, 1)
    out = capsys.readouterr().out
    assert "jane" not in out and "box7" not in out and "gpu-node-3" not in out
    assert "<user-1>@<host-1>:~/proj$" in out and "root@<host-2>:/workspace#" in out
    assert "git@github.com:org/repo.git" in out
    assert main(["triage", str(paste), "--json"]) in (0, 1)  # without --redact: kept, no failure
    assert "jane@box7" in capsys.readouterr().out
