"""Redaction: plant every kind of identifier and secret in a real-looking report (real captures
from tests/fixtures/real) and assert that none survives any output format."""

from __future__ import annotations

import json
import re

import pytest

from envdoctor.commands.report import build
from envdoctor.model.findings import Evidence, Finding, Fix, Severity, order
from envdoctor.model.report import Report, Skipped, extract_embedded
from envdoctor.model.snapshot import Snapshot, collected
from envdoctor.render.redact import Redactor, is_secret_name, redact_document

USER = "ana.smith"
HOST = "gpu-node-17"
FQDN = "gpu-node-17.lab.example.org"
SECRETS = {
    "HF_TOKEN": "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",
    "OPENAI_API_KEY": "sk-proj-4fGh7Jk9Lm2Np5Qr8St1Uv3Wx6Yz0AbC",
    "AWS_ACCESS_KEY_ID": "AKIAZ7XQ3MNB5VCL2KJH",
    "AWS_SECRET_ACCESS_KEY": "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",
    "GITHUB_TOKEN": "ghp_R8s7T6u5V4w3X2y1Z0a9B8c7D6e5F4g3H2i1",
    "WANDB_API_KEY": "3f9c2a7be41d8e0f6a5b4c3d2e1f0a9b8c7d6e5f",
    "DB_PASSWORD": "correct horse battery staple",
    "MY_SERVICE_CREDENTIALS": "user42:Pa55w0rd!",
    "SLACK_BOT_TOKEN": "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp",
}
PIP_INDEX_URL = "https://__token__:pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoLWlqa2wtbW5vcC1xcnN0dXZ3eHl6MDEyMzQ1@pypi.example.com/simple"
MIG_UUID = "MIG-4c9f8f34-61a2-5c47-9b0e-2d7a1f3e8c90"
IPV4 = ("10.42.7.19", "192.168.1.23", "172.16.5.4")
IPV6 = ("2001:db8:85a3::8a2e:370:7334", "fe80::3e7c:3fff:fe1a:2b9e")
MAC = ("3c:7c:3f:1a:2b:9e", "00-1B-63-84-45-E6")
MACHINE_ID = "4c4c4544004e4a1080534ac04f4d4e32"


def real_looking_report(real) -> Report:
    """A K80 x4 box whose facts, raw captures and finding texts carry identifiers and secrets."""
    from envdoctor.ingest import nvidia_smi_xml

    xml = (
        real / "nvidia-smi-q-x" / "openpai-tesla-k80-x4-driver-430.26-cuda-not-found.xml"
    ).read_text()
    dmesg = (
        real
        / "misc"
        / "TRUNCATED-dmesg-T-nvrm-loading-535.183.01-xid-43-31-94-akash-support-issue-244.txt"
    ).read_text()
    rocm_smi = (real / "rocm-smi" / "thamada-rocm-smi-a-mi300x-x4.txt").read_text()
    rocminfo = (real / "rocminfo" / "thamada-rocminfo-mi300x-x4-epyc9474f.txt").read_text()
    docker = (
        real / "docker-info" / "ssst0n3-docker-28.0.0-rc.1-ubuntu24.04-nvidia-runtime.txt"
    ).read_text()
    home = f"/home/{USER}"
    env = {
        **SECRETS,
        "USER": USER,
        "HOME": home,
        "HOSTNAME": HOST,
        "PIP_INDEX_URL": PIP_INDEX_URL,
        "PATH": f"{home}/.local/bin:/usr/local/cuda/bin:/usr/bin",
        "SSH_CONNECTION": f"{IPV4[0]} 51514 {IPV4[1]} 22",
        "CUDA_VISIBLE_DEVICES": "0,1",
        "NVIDIA_VISIBLE_DEVICES": MIG_UUID,
        "XDG_SESSION_TYPE": "wayland",
    }
    snap = Snapshot(
        origin="live", created_at="2026-12-02T12:00:00+00:00", envdoctor_version="0.1.0"
    )
    snap.add(
        collected(
            "os",
            "probe:os_info",
            {"distro_name": "Ubuntu 22.04.4 LTS", "kernel": "5.15.0-105-generic", "hostname": FQDN},
            summary="Ubuntu 22.04.4 LTS, kernel 5.15.0-105-generic, x86_64",
        )
    )
    for group in nvidia_smi_xml.read(xml):
        group.raw = {
            "nvidia-smi -q -x": xml,
            "dmesg": dmesg,
            "nvidia-smi -L": f"GPU 0: Tesla K80 (UUID: GPU-c3b26f7a-8dcb-619c-fa1b-8029265a4db0)\n"
            f"  MIG 1g.10gb Device 0: (UUID: {MIG_UUID})\n",
        }
        snap.add(group)
    snap.add(
        collected(
            "amd.gpus",
            "probe:amd",
            {"gpus": []},
            raw={"rocm-smi -a": rocm_smi, "rocminfo": rocminfo},
        )
    )
    snap.add(
        collected(
            "python",
            "probe:python_env",
            {
                "prefix": f"{home}/proj/.venv",
                "environment": "venv",
                "executable": f"{home}/proj/.venv/bin/python",
            },
            summary=f"Python 3.11.9 (venv {home}/proj/.venv), 3 packages",
        )
    )
    snap.add(
        collected(
            "python.packages",
            "probe:python_env",
            {
                "packages": {"torch": "2.5.1+cu124", "oddball": "1.2.3.4"},
                "locations": {"torch": f"{home}/proj/.venv/lib/python3.11/site-packages"},
            },
        )
    )
    snap.add(
        collected(
            "os.env",
            "probe:env",
            {"env": env, "machine_id": MACHINE_ID},
            raw={
                "ip addr": (
                    f"2: eth0: <BROADCAST,MULTICAST,UP> mtu 1500\n    link/ether {MAC[0]} brd ff:ff:ff:ff:ff:ff\n"
                    f"    inet {IPV4[1]}/24 brd 192.168.1.255 scope global eth0\n"
                    f"    inet6 {IPV6[0]}/64 scope global\n    inet6 {IPV6[1]}/64 scope link\n"
                    f"    inet 127.0.0.1/8 scope host lo\n3: ib0: link/ether {MAC[1]}\n"
                ),
                "env": "\n".join(f"{k}={v}" for k, v in env.items()),
                "docker info": docker,
                "hosts": f"{IPV4[2]} {FQDN} {HOST}\n",
            },
        )
    )
    finding = Finding(
        id="nvidia.xid-43",
        severity=Severity.WARNING,
        title=f"GPU GPU-c3b26f7a-8dcb-619c-fa1b-8029265a4db0 on {HOST} reported Xid 43",
        detail=f"Seen in dmesg of {FQDN} for {USER}; the job in {home}/proj ran with HF_TOKEN={SECRETS['HF_TOKEN']}.",
        evidence=(
            Evidence("nvidia.gpus[0].uuid", "GPU-c3b26f7a-8dcb-619c-fa1b-8029265a4db0"),
            Evidence("nvidia.gpus[0].serial", "0322416026235"),
        ),
        fixes=(
            Fix(
                "Drain the node",
                (
                    f"scontrol update nodename={HOST} state=drain reason=xid43",
                    f"ssh {USER}@{IPV4[0]} nvidia-smi -r",
                ),
            ),
        ),
    )
    return Report(
        snap,
        order([finding]),
        passed=["os.supported"],
        skipped=[Skipped("cuda.x", f"needs {home}/cuda")],
        kind="report",
    )


def planted(real) -> list[str]:
    """Every identifier and secret in the report, including the ones inside the real captures."""
    report = real_looking_report(real)
    raw_text = json.dumps(report.to_dict(include_raw=True))
    uuids = set(
        re.findall(r"GPU-[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|GPU-[0-9a-f]{16}\b", raw_text)
    )
    serials = set(re.findall(r"<serial>(\d{6,})</serial>|Serial Number: (\d{6,})", raw_text))
    serials = {s for pair in serials for s in pair if s}
    unique_ids = set(re.findall(r"Unique ID: (0x[0-9a-f]+)", raw_text))
    docker_host = re.search(r"(?m)^ Name: (\S+)$", raw_text.replace("\\n", "\n")).group(1)
    docker_id = re.search(r" ID: ([0-9a-f-]{36})", raw_text.replace("\\n", "\n")).group(1)
    assert len(uuids) >= 8 and len(serials) >= 5 and len(unique_ids) == 4  # the captures hold them
    words = [w for v in SECRETS.values() for w in v.split() if " " in v and len(w) >= 5]
    values = [
        USER,
        HOST,
        FQDN,
        MIG_UUID,
        MACHINE_ID,
        PIP_INDEX_URL.split("@")[0].split("//")[1],
        *SECRETS.values(),
        *words,
        *IPV4,
        *IPV6,
        *MAC,
        *uuids,
        *serials,
        *unique_ids,
        docker_host,
        docker_id,
    ]
    return values


def render_all(real) -> dict[str, str]:
    report = real_looking_report(real)
    return {
        fmt: build(report, fmt, env={"USER": USER, "HOME": f"/home/{USER}"}, hostnames=(HOST,))[0]
        for fmt in ("json", "markdown", "html", "text")
    }


def squash(text: str) -> str:
    return "".join(text.split())


@pytest.fixture(scope="module")
def outputs(real_captures):
    return render_all(real_captures)


@pytest.mark.parametrize("fmt", ["json", "markdown", "html", "text"])
def test_nothing_planted_survives(real_captures, outputs, fmt):
    text = outputs[fmt]
    flat = squash(text)
    for value in planted(real_captures):
        assert value not in text and squash(value) not in flat, f"{value!r} survived in {fmt}"
        if fmt == "html":
            from html import escape

            assert escape(value) not in text, f"{value!r} survived escaped in html"


def test_the_unredacted_document_did_hold_them(real_captures):
    text = build(real_looking_report(real_captures), "json", redact=False)[0]
    missing = [v for v in planted(real_captures) if v not in text]
    assert missing == []


def test_pseudonyms_are_stable_across_facts_raw_and_findings(outputs):
    doc = json.loads(outputs["json"])
    gpu0 = doc["snapshot"]["groups"]["nvidia.gpus"]["data"]["gpus"][0]
    token = gpu0["uuid"]
    assert re.fullmatch(r"<gpu-uuid-\d+>", token)
    raw = doc["snapshot"]["groups"]["nvidia.gpus"]["raw"]
    assert f"<uuid>{token}</uuid>" in raw["nvidia-smi -q -x"] and token in raw["nvidia-smi -L"]
    finding = doc["findings"][0]
    assert token in finding["title"] and finding["evidence"][0]["actual"] == token
    serial = gpu0["serial"]
    assert re.fullmatch(r"<serial-\d+>", serial) and finding["evidence"][1]["actual"] == serial
    assert f"<serial>{serial}</serial>" in raw["nvidia-smi -q -x"]
    host = re.search(r"<host-\d+>", finding["title"]).group(0)
    assert f"nodename={host}" in finding["fixes"][0]["commands"][0]
    user = re.search(r"/home/(<user-\d+>)/proj", finding["detail"]).group(1)
    assert doc["snapshot"]["groups"]["python"]["data"]["prefix"] == f"/home/{user}/proj/.venv"


def test_useful_facts_survive(outputs):
    doc = json.loads(outputs["json"])
    groups = doc["snapshot"]["groups"]
    assert groups["nvidia.driver"]["data"]["driver_version"] == "430.26"
    assert groups["nvidia.gpus"]["data"]["gpus"][0]["name"] == "Tesla K80"
    assert groups["python.packages"]["data"]["packages"] == {
        "torch": "2.5.1+cu124",
        "oddball": "1.2.3.4",
    }
    env = groups["os.env"]["data"]["env"]
    assert env["CUDA_VISIBLE_DEVICES"] == "0,1" and env["XDG_SESSION_TYPE"] == "wayland"
    assert env["PATH"].endswith("/.local/bin:/usr/local/cuda/bin:/usr/bin")
    raw = groups["nvidia.gpus"]["raw"]["nvidia-smi -q -x"]
    assert "<vbios_version>80.21.1F.00.05</vbios_version>" in raw and "<pci_bus_id>" in raw
    assert "127.0.0.1/8" in groups["os.env"]["raw"]["ip addr"]
    assert (
        "containerd version: bcc810d6b9066471b0b6fa75f557a15a1cbf31bb"
        in groups["os.env"]["raw"]["docker info"]
    )
    assert "535.183.01" in raw or "535.183.01" in groups["nvidia.gpus"]["raw"]["dmesg"]


def test_embedded_json_reads_back_redacted(outputs):
    for fmt in ("markdown", "html"):
        doc = json.loads(extract_embedded(outputs[fmt]))
        report = Report.from_dict(doc)
        assert report.findings[0].id == "nvidia.xid-43"
        assert "<gpu-uuid-" in report.findings[0].title


def test_leak_check_refuses_a_surviving_value():
    redactor = Redactor(hosts={"build-box-7"})
    redactor.redact({"note": "ran on build-box-7"})
    assert redactor.leaks("rendered text mentions build-box-7 again") == ["host"]
    assert redactor.leaks("rendered text mentions <host-1>") == []


# -- individual rules ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, secret",
    [
        ("HF_TOKEN", True),
        ("HUGGING_FACE_HUB_TOKEN", True),
        ("OPENAI_API_KEY", True),
        ("api_key", True),
        ("AWS_SECRET_ACCESS_KEY", True),
        ("DB_PASSWORD", True),
        ("MYSQL_PWD", False),
        ("PGPASSWD", True),
        ("GOOGLE_APPLICATION_CREDENTIALS", True),
        ("NPM_AUTH", True),
        ("GITHUBTOKEN", True),
        ("PATH", False),
        ("CUDA_VISIBLE_DEVICES", False),
        ("XAUTHORITY", False),
        ("author", False),
        ("KEYBOARD_LAYOUT", False),
        ("LD_LIBRARY_PATH", False),
    ],
)
def test_secret_names(name, secret):
    assert is_secret_name(name) is secret


@pytest.mark.parametrize(
    "text, kept",
    [
        ("c10::Error at at::native::foo std::vector<int>", True),
        ("driver 550.54.14, CUDA 12.4, vbios 94.02.42.00.0C", True),
        ("PCI bus 00000000:01:00.0 and PCI:0000:00:05", True),
        ("Mon Aug  5 12:34:56 2024 2024-08-05T12:34:56Z", True),
        ("listen on 127.0.0.1 and ::1 and 0.0.0.0", True),
        (
            "see https://download.pytorch.org/whl/cu124 and /usr/lib/x86_64-linux-gnu/libcuda.so.1",
            True,
        ),
        ("runc version: v1.2.4-0-g6c52b3f commit 3f9c2a7be41d8e0f6a5b4c3d2e1f0a9b8c7d6e5f", True),
        ("Serial Number: N/A <serial>N/A</serial> <serial>0000000000000</serial>", True),
        ("token 3f9c2a7be41d8e0f6a5b4c3d2e1f0a9b8c7d6e5f", False),
        ("connected from 10.1.2.3", False),
        ("Authorization: Bearer abc123def456", False),
        ("C:\\Users\\John Smith\\AppData\\Local\\Temp", False),
        ("ip-10-0-3-7.ec2.internal", False),
    ],
)
def test_rules(text, kept):
    out, _ = redact_document({"line": text})
    assert (out["line"] == text) is kept, out["line"]


def test_generic_account_names_are_kept():
    out, _ = redact_document(
        {"prefix": "/home/ubuntu/.venv", "distro_id": "ubuntu"}, users=["ubuntu", "root"]
    )
    assert out == {"prefix": "/home/ubuntu/.venv", "distro_id": "ubuntu"}


def test_windows_profile_with_a_space():
    out, _ = redact_document({"a": "C:\\Users\\John Smith\\AppData", "b": "by John Smith"})
    assert out["a"] == "C:\\Users\\<user-1>\\AppData" and out["b"] == "by <user-1>"


def test_a_name_first_seen_late_is_replaced_early():
    out, _ = redact_document({"a": "owner carol7 ran it", "b": "/home/carol7/job"})
    assert out == {"a": "owner <user-1> ran it", "b": "/home/<user-1>/job"}


def test_a_kubernetes_resource_name_under_a_key_is_not_a_secret():
    # envdoctor's own Kubernetes fix (a toleration) and real pod specs say `key: nvidia.com/gpu`
    redactor = Redactor()
    text = "tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]"
    assert redactor.redact_text(text) == text
    assert redactor.redact_text("nvidia.com/gpu", key="key") == "nvidia.com/gpu"
    # a secret under the same key still goes
    assert "sk-live-4f9a8b7c6d5e" not in redactor.redact_text("key: sk-live-4f9a8b7c6d5e")


def test_a_text_repeated_under_other_keys_and_documents_is_judged_anew():
    # each (text, key) is replaced once per document; a later document whose discovery finds a
    # new name re-reads the texts an earlier one left alone
    redactor = Redactor()
    first = redactor.redact({"a": "hello alice", "b": ["hello alice", "hello alice"]})
    assert first == {"a": "hello alice", "b": ["hello alice", "hello alice"]}
    second = redactor.redact({"user": "alice", "a": "hello alice"})
    assert "alice" not in json.dumps(second)
    assert second["a"] == f"hello {second['user']}"
    # the same text is a secret under a secret-named key and a plain word elsewhere
    doc = redactor.redact({"api_token": "plain-words-here", "note": "plain-words-here"})
    assert doc["api_token"].startswith("<secret-")
    assert doc["note"] == doc["api_token"]  # found in pass 1, so replaced wherever it stands


def test_a_short_value_under_a_key_named_option_is_not_a_secret(tmp_path, capsys):
    """TVM's target string in tilelang#920's traceback ("-keys=cuda,gpu") names a key option with
    a word for its value: triage --json keeps it (no `<secret-N>`), and the leak check, which would
    then find "cuda" everywhere in the report, does not stop the command."""
    from envdoctor.cli import main

    paste = tmp_path / "paste.txt"
    paste.write_text(
        "tvm.error.InternalError: Check failed: (0) is false: Not supported cuda -keys=cuda,gpu "
        "-arch=sm_100 -max_num_threads=1024 -thread_warp_size=32\n",
        encoding="utf-8",
    )
    assert main(["triage", str(paste), "--json"]) in (0, 1)
    out = capsys.readouterr().out
    assert "<secret-" not in out and "keys=cuda" in out
    assert Redactor().redact_text("HF_TOKEN=hf_abcdefghijklmnop") != "HF_TOKEN=hf_abcdefghijklmnop"


def test_a_markdown_link_is_judged_alike_in_its_text_and_its_target(tmp_path, capsys):
    """A Colab link pasted as Markdown ("[url](url)", pytorch-lightning#4533) holds one URL twice:
    its path was kept after "(" but replaced after "[", and the leak check then stopped
    `triage --json` with an internal error (exit 3). Both copies are read as the same URL now."""
    from envdoctor.cli import main

    url = "https://colab.research.google.com/drive/1dv21HCCIMdv2r9iSqSRpeOmOJ7Hh8TXF?usp=sharing"
    paste = tmp_path / "paste.txt"
    paste.write_text(f"### To Reproduce\n[{url}]({url})\n`{url}`\n", encoding="utf-8")
    assert main(["triage", str(paste), "--json"]) in (0, 1)
    out = capsys.readouterr().out
    assert out.count("1dv21HCCIMdv2r9iSqSRpeOmOJ7Hh8TXF") == 3
    # a secret in a URL's query is replaced, in every copy: the URL's "https:" no longer reads as
    # an assignment whose value swallows the query (which hid "token=..." from the secret rules)
    token = "q8Zr2LxK9mVt4WcN7bYp1HsD3jFg6QeR0uTa5IkM3nB7vC1x"
    text = Redactor().redact_text(
        f"[https://x.example/a?token={token}](https://x.example/a?token={token})"
    )
    assert token not in text and text.count("token=<secret-1>") == 2
    assert Redactor().redact_text(f"see https://x.example/a?token={token}&x=1") == (
        "see https://x.example/a?token=<secret-1>&x=1"
    )
