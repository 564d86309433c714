"""Hostile use, inputs: triage of damaged envdoctor reports names the damage (as fleet does),
random bytes are reported as not text, an endless or oversized stdin is refused while it is read
(the limit said in MiB); fleet node labels that would read as options or break lines are not
used, and wrong-typed facts never print as Python reprs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import fleet_samples as fs
import pytest

from envdoctor.cli import main
from envdoctor.commands.fleet import read_node
from envdoctor.commands.triage_input import report_damage
from envdoctor.fleet.aggregate import aggregate
from envdoctor.fleet.render import render as render_fleet
from envdoctor.ingest import MAX_INPUT_BYTES


def triage(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["triage", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def report_files(real_captures, tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    report = fs.node_report(real_captures, fs.A10G, node="rack2-n07")
    return {fmt: fs.write_report(report, folder / f"r.{ext}", fmt=fmt)
            for fmt, ext in (("json", "json"), ("markdown", "md"), ("html", "html"))}  # fmt: skip


def _damaged(report_files, tmp_path) -> dict[str, tuple[str, str]]:
    """name -> (damaged text, a word the reason must hold)."""
    doc = json.loads(report_files["json"].read_text())
    text = report_files["json"].read_text()
    markdown = report_files["markdown"].read_text()
    html = report_files["html"].read_text()

    def changed(**edits: object) -> str:
        new = json.loads(json.dumps(doc))
        for dotted, value in edits.items():
            target = new
            *parents, last = dotted.split(".")
            for part in parents:
                target = target[part]
            target[last] = value
        return json.dumps(new, indent=1)

    return {
        "json-cut": (text[: len(text) // 3], "not valid JSON"),
        "json-cut-early": (text[:200], "not valid JSON"),
        "markdown-cut": (markdown[: len(markdown) * 2 // 3], "truncated"),
        "html-cut": (html[: len(html) // 2], "truncated"),
        "future-schema": (changed(schema_version=99), "schema_version 99"),
        "schema-a-string": (changed(schema_version="1"), "schema_version"),
        "findings-a-string": (changed(findings="oops"), "malformed"),
        "groups-a-list": (changed(**{"snapshot.groups": []}), "malformed"),
        "group-status-wrong": (
            changed(**{"snapshot.groups.os.status": 7}),
            "malformed",
        ),
    }


def test_triage_names_the_damage_of_every_kind(report_files, tmp_path, capsys):
    for name, (text, word) in _damaged(report_files, tmp_path).items():
        path = tmp_path / f"{name}.txt"
        path.write_text(text)
        code, out, err = triage(capsys, str(path))
        assert code == 2 and out == "", (name, out[:300], err)
        assert "an envdoctor report that cannot be read" in err and word in err, (name, err)
        assert len(err.strip().splitlines()) == 1
        if name != "group-status-wrong":  # fleet rebuilds only the groups it reads
            assert hasattr(read_node(str(path)), "reason"), name  # unreadable to fleet too


def test_intact_reports_still_triage(report_files, capsys):
    for path in report_files.values():
        code, out, err = triage(capsys, str(path), "--json")
        assert code in (0, 1), err
        assert "pasted.report" in json.loads(out)["snapshot"]["groups"]
    assert report_damage(report_files["json"].read_text()) is None


def test_random_bytes_are_not_text(tmp_path, capsys):
    path = tmp_path / "random.bin"
    path.write_bytes(os.urandom(2_000_000))
    code, out, err = triage(capsys, str(path))
    assert code == 2 and out == ""
    assert "is not text" in err


def test_stdin_over_the_limit_is_refused_while_reading():
    """An endless stdin (`yes` printing an error line) is cut at the limit at reading speed:
    no reader parses 50 MiB first."""
    import shutil

    yes = shutil.which("yes")
    if yes is None:
        pytest.skip("no `yes`")
    started = time.monotonic()
    source = subprocess.Popen([yes, "RuntimeError: CUDA error: out of memory " * 40],
                              stdout=subprocess.PIPE)  # fmt: skip
    try:
        result = subprocess.run(
            [sys.executable, "-m", "envdoctor", "triage", "-"],
            stdin=source.stdout,
            capture_output=True,
            timeout=120,
        )
    finally:
        source.kill()
        source.wait()
    elapsed = time.monotonic() - started
    assert result.returncode == 2 and result.stdout == b""
    assert f"larger than {MAX_INPUT_BYTES // 1048576} MiB" in result.stderr.decode()
    assert elapsed < 8, f"took {elapsed:.1f} s: parsed before refusing?"


def test_an_endless_device_is_refused(capsys):
    code, out, err = triage(capsys, "/dev/zero")
    assert code == 2 and "MiB" in err and out == ""


# -- fleet labels and values -----------------------------------------------------------------


@pytest.mark.parametrize("label", ["-rf", "--all", "a\nb", "node 1", "$(id)", "x;reboot"])
def test_a_report_label_that_is_not_a_node_name_is_not_used(real_captures, tmp_path, label):
    report = fs.node_report(real_captures, fs.A10G, dmesg=fs.FALLEN_OFF_BUS, node="ok")
    doc = fs.document(report)
    doc["snapshot"]["groups"]["envdoctor.node"]["data"]["name"] = label
    path = tmp_path / "gpu-07.json"
    path.write_text(json.dumps(doc))
    node = read_node(str(path))
    assert (node.name, node.name_origin) == ("gpu-07", "file")
    fleet = aggregate([node])
    [action] = fleet.actions
    assert action.kubernetes[0] == "kubectl cordon gpu-07"
    for fmt in ("text", "markdown", "json"):
        assert label not in render_fleet(fleet, fmt) or fmt == "json"


@pytest.mark.parametrize("file_name", ["-rf.json", "--all.json", "a\nb.json"])
def test_a_file_name_that_reads_as_an_option_is_cleaned(real_captures, tmp_path, file_name):
    report = fs.node_report(real_captures, fs.A10G, dmesg=fs.FALLEN_OFF_BUS)
    path = fs.write_report(report, tmp_path / file_name)
    [action] = aggregate([read_node(str(path))]).actions
    name = action.kubernetes[0].removeprefix("kubectl cordon ")
    assert not name.lstrip("'").startswith("-") and "\n" not in name
    assert "\n" not in action.slurm[0]


def test_wrong_typed_values_are_not_printed_as_reprs(real_captures, tmp_path):
    report = fs.node_report(real_captures, fs.A10G, node="gpu-09")
    doc = fs.document(report)
    groups = doc["snapshot"]["groups"]
    groups["nvidia.driver"]["data"]["driver_version"] = ["515", {"x": 1}]
    groups["python.torch"]["data"]["version"] = {"major": 2}
    groups["nvidia.gpus"]["data"]["gpus"][0]["name"] = {"$gt": ""}
    doc["snapshot"]["created_at"] = ["yesterday"]
    path = tmp_path / "gpu-09.json"
    path.write_text(json.dumps(doc))
    node = read_node(str(path))
    fleet = aggregate([node])
    for fmt in ("text", "markdown", "json"):
        text = render_fleet(fleet, fmt)
        for repr_text in ("['515'", "{'x'", "{'major'", "{'$gt'", "['yesterday']"):
            assert repr_text not in text, (fmt, repr_text)
    assert node.driver is None and node.torch is None


@pytest.mark.parametrize(
    "argv",
    [
        ["explain", "x" * 100_000],
        ["matrices", "show", "y" * 100_000],
        ["explain", "a.b\n" * 30_000],
    ],
)
def test_a_huge_argument_is_not_echoed_whole_in_the_error(capsys, argv):
    # a 100 KB id pasted by mistake was echoed in full on the "one-line" error
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == 1 and 20 < len(lines[0]) <= 2100
    assert lines[0].endswith("…")
