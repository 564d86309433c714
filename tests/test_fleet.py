"""envdoctor fleet: node reports built from real nvidia-smi and dmesg captures, aggregated."""

from __future__ import annotations

import json
import os
from pathlib import Path

import fleet_samples as fs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envdoctor.cli import main
from envdoctor.commands.fleet import load_document, read_node, read_reports, report_files
from envdoctor.diagnosis.pipeline import active_matrices
from envdoctor.fleet.aggregate import (
    NodeSummary,
    Unreadable,
    aggregate,
    application_xid_codes,
    hostlist,
    name_from_path,
    node_label,
    summarize,
)
from envdoctor.fleet.render import render, to_dict

APP_XIDS = application_xid_codes(active_matrices())


def summary(report, path="node.json", **kw):
    return summarize(fs.document(report), path, application_xids=APP_XIDS, **kw)


# -- one node -----------------------------------------------------------------------------------


def test_k80_with_lifetime_ecc_errors_is_drained_and_its_two_bad_gpus_masked(real_captures):
    node = summary(fs.node_report(real_captures, fs.K80, node="k80-01"))
    assert node.name == "k80-01" and node.name_origin == "label" and not node.redacted
    assert (node.driver, node.cuda_driver_max, node.torch, node.toolkit) == (
        "430.26",
        None,
        "2.5.1+cu124",
        "12.4.131",
    )
    assert [(f.id, f.severity, f.gpus) for f in node.faults] == [
        ("nvidia.ecc-uncorrected", "warning", (0,)),
        ("nvidia.ecc-uncorrected", "warning", (1,)),
    ]
    [action] = aggregate([node]).actions
    assert action.urgency == "planned"
    assert action.slurm == (
        "scontrol update nodename=k80-01 state=drain "
        'reason="envdoctor: nvidia.ecc-uncorrected on GPU 0,1"',
    )
    assert action.kubernetes == (
        "kubectl cordon k80-01",
        "kubectl taint nodes k80-01 envdoctor/gpu-fault=nvidia.ecc-uncorrected:NoSchedule "
        "--overwrite",
    )
    healthy = [g.uuid for g in node.gpus if g.index in (2, 3)]
    assert all(u.startswith("GPU-") for u in healthy)  # the capture's real UUIDs
    assert action.mask == "export CUDA_VISIBLE_DEVICES=" + ",".join(healthy)


def test_redacted_k80_masks_by_index_in_pci_order(real_captures, tmp_path):
    report = fs.node_report(real_captures, fs.K80, node="gpu-host-17", redacted=True)
    path = fs.write_report(
        report, tmp_path / "k80-01.md", "markdown", redact=True, hostname="gpu-host-17"
    )
    node = read_node(str(path), APP_XIDS)
    assert isinstance(node, NodeSummary)
    assert (
        node.redacted
        and node.label == "<host-1>"
        and (node.name, node.name_origin) == ("k80-01", "file")
    )
    assert all(g.uuid.startswith("<gpu-uuid-") for g in node.gpus)
    [action] = aggregate([node]).actions
    assert action.mask == "export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=2,3"
    assert "gpu-host-17" not in path.read_text()


def test_gpu_that_fell_off_the_bus_drains_now_and_masks_nothing(real_captures):
    node = summary(fs.node_report(real_captures, fs.A10G, node="a10g-01", dmesg=fs.FALLEN_OFF_BUS))
    [fault] = node.faults
    assert (fault.id, fault.severity, fault.gpus) == (
        "nvidia.xid-fallen-off-bus",
        "error",
        (),
    )  # 0000:b3:00.0 is not in the XML
    [action] = aggregate([node]).actions
    assert action.urgency == "now" and action.mask is None
    assert action.reason == "envdoctor: nvidia.xid-fallen-off-bus"


def test_application_xids_are_no_health_fault(real_captures):
    node = summary(fs.node_report(real_captures, fs.A100, node="a100-01", dmesg=fs.APP_XIDS))
    assert node.faults == ()  # Xid 31 and 94: NVIDIA says restart the application; 43 is ignorable
    assert ("nvidia.xid-error", "warning") in node.issues
    fleet = aggregate([node])
    assert not fleet.faulty and ("nvidia.xid-error", "warning", 1) in fleet.common_findings


def test_a_gpu_reset_xid_names_its_gpu_and_masks_it(real_captures):
    def at_0a(gpus):  # the dmesg capture's GPU is at 0000:0a:00; put the second 2080 Ti there
        gpus[1]["pci_bus_id"] = "0000:0a:00.0"

    report = fs.node_report(
        real_captures,
        "openpai-geforce-rtx2080ti-x2-driver-410.73.xml",
        node="w-02",
        dmesg="TRUNCATED-dmesg-xid-31-mmu-fault-62-45-chia-gigahorse-issue-301.txt",
        mutate=at_0a,
        torch=None,
    )
    node = summary(report)
    faults = {(f.id, f.gpus) for f in node.faults}
    assert faults == {
        ("nvidia.xid-error", (1,))
    }  # Xid 62 (reset the GPU); 31 and 45 are the application's
    [action] = aggregate([node]).actions
    assert action.urgency == "now" and action.reason == "envdoctor: nvidia.xid-error on GPU 1"
    assert action.mask == f"export CUDA_VISIBLE_DEVICES={node.gpus[0].uuid}"


def test_row_remap_failure_on_the_only_gpu(real_captures):
    node = summary(
        fs.node_report(real_captures, fs.A100, node="a100-02", mutate=fs.remap_failed(0))
    )
    assert [(f.id, f.severity, f.gpus) for f in node.faults] == [
        ("nvidia.row-remap-failed", "error", (0,))
    ]
    [action] = aggregate([node]).actions
    assert action.mask is None  # masking the only GPU leaves nothing to run on: drain instead
    assert "nvidia.row-remap-failed" in action.kubernetes[1]


def test_healthy_node_has_no_fault(real_captures):
    node = summary(fs.node_report(real_captures, fs.T4, node="t4-01"))
    assert node.faults == () and node.gpu_models() == "1× Tesla T4"


def test_not_a_node_report():
    for document, reason in (
        ([], "not an object"),
        ({"kind": "fleet"}, "fleet summary"),
        ({"schema_version": 1}, "no 'snapshot'"),
        ({"schema_version": 99, "snapshot": {}}, "schema_version 99"),
        ({"schema_version": 1, "snapshot": {"groups": []}}, "snapshot.groups"),
        (
            {"schema_version": 1, "snapshot": {"groups": {"nvidia.gpus": {"status": "odd"}}}},
            "bad or missing status",
        ),
        (
            {"schema_version": 1, "snapshot": {"groups": {}}, "findings": [{"id": "x"}]},
            "malformed finding",
        ),
    ):
        with pytest.raises(ValueError, match=reason.replace("(", r"\(").replace(")", r"\)")):
            summarize(document, "x.json")


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_any_damage_to_a_report_is_a_reason_never_a_crash(real_captures, tmp_path_factory, data):
    document = fs.document(fs_cache(real_captures))
    target = document
    path = data.draw(
        st.lists(
            st.sampled_from(
                [
                    "snapshot",
                    "groups",
                    "nvidia.gpus",
                    "data",
                    "gpus",
                    0,
                    "findings",
                    "evidence",
                    "nvidia.driver",
                    "envdoctor.node",
                    "name",
                    "pcie",
                ]
            ),
            max_size=5,
        )
    )
    for key in path:
        if isinstance(target, dict) and key in target and isinstance(target[key], (dict, list)):
            target = target[key]
        elif (
            isinstance(target, list)
            and isinstance(key, int)
            and target
            and isinstance(target[0], (dict, list))
        ):
            target = target[0]
    junk = data.draw(
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=8),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=5), inner, max_size=3)
            ),
            max_leaves=6,
        )
    )
    if isinstance(target, dict) and target:
        target[data.draw(st.sampled_from(sorted(target)))] = junk
    elif isinstance(target, list) and target:
        target[0] = junk
    folder = tmp_path_factory.mktemp("damaged")
    file = folder / "n.json"
    file.write_text(json.dumps(document))
    result = read_node(str(file), APP_XIDS)
    assert isinstance(result, (NodeSummary, Unreadable))
    if isinstance(result, Unreadable):
        assert "\n" not in result.reason and result.reason


_CACHE: dict[str, object] = {}


def fs_cache(real_captures):
    if "k80" not in _CACHE:
        _CACHE["k80"] = fs.node_report(real_captures, fs.K80, node="k80-01", dmesg=fs.APP_XIDS)
    return _CACHE["k80"]


# -- names --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, name",
    [
        ("reports/gpu017.json", "gpu017"),
        ("reports/gpu017/envdoctor-report.md", "gpu017"),
        ("envdoctor-report-gpu017.html", "gpu017"),
        ("gpu017_envdoctor-report.json", "gpu017"),
        ("/srv/fleet/node-a.report.md", "node-a"),
        ("envdoctor-report.json", "envdoctor-report"),
        ("dgx-a100-03.example.org.json", "dgx-a100-03.example.org"),
    ],
)
def test_name_from_path(path, name):
    assert name_from_path(path) == name


def test_node_label_rules():
    assert node_label(" gpu-017.rack2 ") == "gpu-017.rack2"
    for bad in ("", "two words", "-flag", "a;rm -rf /", "x" * 254, "$(id)"):
        with pytest.raises(ValueError):
            node_label(bad)


def test_odd_file_names_are_quoted_in_commands(real_captures, tmp_path):
    report = fs.node_report(real_captures, fs.A10G, dmesg=fs.FALLEN_OFF_BUS)
    path = fs.write_report(report, tmp_path / "node $(id).json")
    node = read_node(str(path), APP_XIDS)
    [action] = aggregate([node]).actions
    assert action.slurm[0].startswith("scontrol update nodename='node $(id)' state=drain")
    assert action.kubernetes[0] == "kubectl cordon 'node $(id)'"


def test_hostlist():
    assert (
        hostlist(["gpu001", "gpu002", "gpu003", "gpu007", "login", "gpu010"])
        == "gpu[001-003,007,010],login"
    )
    assert hostlist(["n1", "n2", "n10"]) == "n[1-2,10]"
    assert hostlist(["a"]) == "a" and hostlist(["node07"]) == "node07"
    assert hostlist(["r1n1", "r2n1", "x"], limit=2) == "r1n1,r2n1,… (+1 more)"


# -- the fleet ----------------------------------------------------------------------------------


def fleet_nodes(real_captures):
    t4 = [
        summary(fs.node_report(real_captures, fs.T4, node=f"t4-{i:02d}"), f"t4-{i:02d}.json")
        for i in range(1, 6)
    ]
    old_torch = summary(
        fs.node_report(real_captures, fs.T4, node="t4-06", torch="2.4.1+cu121"), "t4-06.json"
    )
    other_driver = summary(fs.node_report(real_captures, fs.RTX3090, node="t4-07"), "t4-07.json")
    return t4 + [old_torch, other_driver]


def test_stacks_majority_and_outliers(real_captures):
    fleet = aggregate(fleet_nodes(real_captures))
    assert [(g.stack, len(g.nodes)) for g in fleet.groups] == [
        (("515.105.01", "11.7", "2.5.1+cu124", "12.4.131"), 5),
        (("515.105.01", "11.7", "2.4.1+cu121", "12.4.131"), 1),
        (("525.147.05", "12.0", "2.5.1+cu124", "12.4.131"), 1),
    ]
    assert (
        fleet.majorities["driver"].value == "515.105.01" and fleet.majorities["driver"].count == 6
    )
    assert [(o.node, o.field, o.value, o.majority) for o in fleet.outliers] == [
        ("t4-06", "torch", "2.4.1+cu121", "2.5.1+cu124"),
        ("t4-07", "driver", "525.147.05", "515.105.01"),
        ("t4-07", "cuda_driver_max", "12.0", "11.7"),
    ]
    text = render(fleet, "text")
    assert "t4-[01-05]" in text and "Outliers" in text


def test_no_majority_means_no_outliers(real_captures):
    nodes = [
        summary(fs.node_report(real_captures, fs.T4, node=f"a{i}", torch=torch))
        for i, torch in enumerate(("2.5.1+cu124", "2.5.1+cu124", "2.4.1+cu121", "2.4.1+cu121"))
    ]
    fleet = aggregate(nodes)
    assert fleet.majorities["torch"].value is None and fleet.majorities["torch"].count == 0
    assert not [o for o in fleet.outliers if o.field == "torch"]


def test_node_without_torch_is_an_outlier(real_captures):
    nodes = fleet_nodes(real_captures)[:5] + [
        summary(fs.node_report(real_captures, fs.T4, node="bare", torch=None))
    ]
    assert [(o.node, o.field, o.value) for o in aggregate(nodes).outliers] == [
        ("bare", "torch", None)
    ]


def test_the_newest_report_of_a_node_wins(real_captures):
    old = summary(
        fs.node_report(real_captures, fs.T4, node="n1", created_at="2026-11-01T00:00:00+00:00"),
        "old/n1.json",
    )
    new = summary(
        fs.node_report(real_captures, fs.K80, node="n1", created_at="2026-12-01T00:00:00+00:00"),
        "new/n1.json",
    )
    fleet = aggregate([new, old])
    assert [n.path for n in fleet.nodes] == ["new/n1.json"]
    assert [(d.node, d.path, d.kept) for d in fleet.duplicates] == [
        ("n1", "old/n1.json", "new/n1.json")
    ]


def test_json_document(real_captures):
    doc = to_dict(
        aggregate(
            fleet_nodes(real_captures)
            + [summary(fs.node_report(real_captures, fs.K80, node="k80"))]
        )
    )
    assert doc["kind"] == "fleet" and doc["schema_version"] == 1
    assert doc["summary"] == {
        "nodes": 8,
        "unreadable": 0,
        "duplicates": 0,
        "stacks": 4,
        "faulty_nodes": 1,
        "outlier_nodes": 3,
        "named_after_file": 0,
        "redacted": 0,
    }
    [fault] = doc["faults"]
    assert fault["node"] == "k80" and fault["slurm"][0].startswith(
        "scontrol update nodename=k80 state=drain"
    )
    assert {n["name"] for n in doc["nodes"]} >= {"k80", "t4-01"}
    assert doc["majority"]["torch"] == {"value": "2.5.1+cu124", "nodes": 7, "of": 8}


# -- the command --------------------------------------------------------------------------------


@pytest.fixture()
def fleet_dir(real_captures, tmp_path):
    """A folder of reports as a collection run leaves it: every format, a redacted one, junk."""
    root = tmp_path / "reports"
    for i in range(1, 4):
        fs.write_report(
            fs.node_report(real_captures, fs.T4, node=f"gpu{i:03d}"), root / f"gpu{i:03d}.json"
        )
    fs.write_report(
        fs.node_report(real_captures, fs.T4, node="gpu004"), root / "gpu004.md", "markdown"
    )
    fs.write_report(
        fs.node_report(real_captures, fs.K80, node="gpu-host-17", redacted=True),
        root / "gpu005" / "envdoctor-report.html",
        "html",
        redact=True,
    )
    fs.write_report(
        fs.node_report(real_captures, fs.A10G, node="gpu006", dmesg=fs.FALLEN_OFF_BUS),
        root / "gpu006.json",
    )
    good = (root / "gpu001.json").read_text()
    (root / "cut.json").write_text(good[: len(good) // 2])
    (root / "notes.md").write_text("# rack 3 notes\nnothing here\n")
    (root / "empty.json").write_text("")
    (root / "other.json").write_text('{"hello": "world"}')
    (root / "future.json").write_text(good.replace('"schema_version": 1', '"schema_version": 9'))
    md = (root / "gpu004.md").read_text()
    (root / "cut.md").write_text(md[: md.index("envdoctor-report-json -->")])
    (root / "utf16.json").write_bytes(
        b"\xff\xfe" + good.replace('"gpu001"', '"gpu009"').encode("utf-16-le")
    )
    (root / ".hidden.json").write_text("not read")
    (root / "README.txt").write_text("not a report suffix, not read")
    return root


def test_fleet_command_reads_every_form_and_lists_the_unreadable(fleet_dir, capsys):
    assert main(["fleet", str(fleet_dir), "--json"]) == 1  # gpu005 and gpu006 have faults
    doc = json.loads(capsys.readouterr().out)
    assert [n["name"] for n in doc["nodes"]] == [
        "gpu001",
        "gpu002",
        "gpu003",
        "gpu004",
        "gpu005",
        "gpu006",
        "gpu009",
    ]
    gpu005 = next(n for n in doc["nodes"] if n["name"] == "gpu005")
    assert gpu005["redacted"] and gpu005["name_origin"] == "file" and gpu005["label"] == "<host-1>"
    reasons = {Path(u["path"]).name: u["reason"] for u in doc["unreadable"]}
    assert reasons == {
        "cut.json": reasons["cut.json"],
        "cut.md": "truncated: the embedded report JSON has no end marker",
        "empty.json": "empty file",
        "future.json": "unsupported report schema_version 9",
        "notes.md": "no envdoctor report in it (not a JSON document, and no embedded report JSON)",
        "other.json": "not an envdoctor report (no 'snapshot')",
    }
    assert reasons["cut.json"].startswith("not valid JSON: ")
    assert [f["node"] for f in doc["faults"]] == ["gpu005", "gpu006"]
    assert (
        doc["faults"][0]["mask"] == "export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=2,3"
    )


def test_fleet_names_a_device_or_fifo_among_the_reports_and_reads_neither(fleet_dir, capsys):
    # a link to /dev/zero had been called an "empty file" (its size is 0); so had a FIFO
    (fleet_dir / "zero.json").symlink_to("/dev/zero")
    os.mkfifo(fleet_dir / "pipe.json")
    main(["fleet", str(fleet_dir), "--json"])
    reasons = {
        Path(u["path"]).name: u["reason"] for u in json.loads(capsys.readouterr().out)["unreadable"]
    }
    for name in ("zero.json", "pipe.json"):
        assert reasons[name] == "not a regular file (a device, a FIFO or a socket): not read"
    assert reasons["empty.json"] == "empty file"


def test_fleet_command_text_and_markdown(fleet_dir, capsys):
    main(["fleet", str(fleet_dir)])
    text = capsys.readouterr().out
    assert text.startswith(
        "envdoctor fleet: 7 nodes, 2 stacks, 2 with GPU health faults, 1 outlier, "
        "6 unreadable files"
    )
    assert (
        'scontrol update nodename=gpu006 state=drain reason="envdoctor: nvidia.xid-fallen-off-bus"'
        in text
    )
    assert "cut.md: truncated" in text and "1 redacted report is named after the file" in text
    main(["fleet", str(fleet_dir), "--format", "markdown"])
    markdown = capsys.readouterr().out
    assert (
        "### Stacks" in markdown and "#### gpu006 (error: take it out of service now)" in markdown
    )
    assert "| gpu005 | 4× Tesla K80 | 430.26 |" in markdown
    assert (
        "kubectl taint nodes gpu006 envdoctor/gpu-fault=nvidia.xid-fallen-off-bus:NoSchedule --overwrite"
        in markdown
    )


def test_fleet_command_exit_codes(real_captures, tmp_path, capsys):
    fs.write_report(fs.node_report(real_captures, fs.T4, node="a"), tmp_path / "ok" / "a.json")
    assert main(["fleet", str(tmp_path / "ok")]) == 0
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "x.json").write_text("{")
    assert main(["fleet", str(tmp_path / "bad")]) == 2
    assert "none of the 1 files is a readable envdoctor report" in capsys.readouterr().err
    assert main(["fleet", str(tmp_path / "missing")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    (tmp_path / "nothing").mkdir()
    assert main(["fleet", str(tmp_path / "nothing")]) == 2
    assert main(["fleet", str(tmp_path / "ok"), "--jobs", "-1"]) == 2


def test_pool_and_in_process_reading_agree(fleet_dir):
    files = report_files([str(fleet_dir)]) * 3
    one = read_reports(files, jobs=1, application_xids=APP_XIDS)
    pool = read_reports(files, jobs=2, application_xids=APP_XIDS)
    assert one == pool and len(one[0]) == 21


def test_load_document_reads_the_markdown_and_html_forms(real_captures, tmp_path):
    report = fs.node_report(real_captures, fs.A100, node="a")
    for fmt, name in (("json", "a.json"), ("markdown", "a.md"), ("html", "a.html")):
        path = fs.write_report(report, tmp_path / name, fmt)
        assert (
            load_document(str(path))["snapshot"]["groups"]["envdoctor.node"]["data"]["name"] == "a"
        )


def test_report_node_name_labels_the_live_report(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert (
        main(
            ["report", "--node-name", "rack2-n07", "--no-redact", "-o", str(out), "--timeout", "15"]
        )
        == 0
    )
    node = read_node(str(out))
    assert (node.name, node.name_origin, node.redacted) == ("rack2-n07", "label", False)
    assert main(["report", "--node-name", "bad name", "-o", str(out)]) == 2
    assert "node name 'bad name'" in capsys.readouterr().err


def test_a_redacted_host_name_label_falls_back_to_the_file(real_captures, tmp_path):
    report = fs.node_report(real_captures, fs.T4, node="gpu-host-17", redacted=True)
    path = fs.write_report(report, tmp_path / "gpu-host-17" / "envdoctor-report.json", redact=True)
    node = read_node(str(path))
    assert (node.name, node.name_origin, node.label) == ("gpu-host-17", "file", "<host-1>")
    kept = fs.node_report(
        real_captures, fs.T4, node="rack2-n07", redacted=True
    )  # not a host name: kept
    node = read_node(str(fs.write_report(kept, tmp_path / "x.json", redact=True)))
    assert (node.name, node.name_origin, node.redacted) == ("rack2-n07", "label", True)
