"""The ingest driver: splitting an issue body into parts, lenient streaming decode, limits,
readers plugging in (and failing), and merging groups."""

from __future__ import annotations

import io
import sys
import time
import tracemalloc
import types
from pathlib import Path

import pytest

from envdoctor import ingest
from envdoctor.ingest import (
    InputTooLarge,
    Part,
    clean_block,
    ingest_blocks,
    ingest_text,
    iter_decoded_blocks,
    iter_decoded_lines,
    merge_groups,
    split,
)
from envdoctor.model.snapshot import Confidence, collected, failed

TESTS = Path(__file__).resolve().parent


def _issue_body(real: Path) -> str:
    """A GitHub issue body with several real captures in it."""
    dump = (
        real
        / "collect_env"
        / "torch-1.12.1+cu116-ubuntu22.04-3x-rtx3090-conda-pytorch-issue-86556.txt"
    ).read_text(encoding="utf-8")
    smi = (real / "nvidia-smi-text" / "nvexp-h200-linux-590.48.01.txt").read_text(encoding="utf-8")
    xml = (real / "nvidia-smi-q-x" / "telegraf-tesla-t4-driver-515.105.01.xml").read_text(
        encoding="utf-8"
    )
    docker = (
        real / "docker-info" / "tanzu-docker-20.10.12-ubuntu20.04-json-no-nvidia.json"
    ).read_text(encoding="utf-8")
    return (
        "### Describe the bug\n\nTraining crashes right away:\n\n```\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/train.py", line 12, in <module>\n'
        "    model.cuda()\n"
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
        "```\n\n### Versions\n\n```\n" + dump + "```\n\nnvidia-smi:\n\n```\n" + smi + "\n```\n\n"
        "<details>\n\n```xml\n" + xml + "\n```\n</details>\n\n" + docker + "\n\nthanks!\n"
    )


def test_issue_body_is_cut_into_its_parts(real_captures: Path) -> None:
    kinds = [p.kind for p in split(_issue_body(real_captures))]
    for kind in ("traceback", "collect_env", "nvidia-smi", "xml", "json"):
        assert kind in kinds, (kind, kinds)
    assert kinds.count("collect_env") == 1


def test_parts_carry_their_line_numbers(real_captures: Path) -> None:
    body = _issue_body(real_captures)
    lines = body.split("\n")
    for part in split(body):
        first = part.text.split("\n")[0]
        assert lines[part.first_line - 1] == first
        assert part.last_line >= part.first_line


def test_every_part_reaches_a_reader_and_facts_merge(real_captures: Path) -> None:
    snap = ingest_text(_issue_body(real_captures))
    assert snap.origin == "pasted"
    readers = snap.fact("pasted.parts", "readers")
    assert readers.get("collect_env") == 1 and "free-text" not in readers
    assert snap.fact("python.torch", "version") == "1.12.1+cu116"
    assert snap.has("pasted.text")
    assert any("no kernel image" in line for line in snap.fact("pasted.text", "lines"))
    assert "pasted:collect_env" in snap.group("nvidia.gpus").source


def test_fences_are_boundaries_not_content() -> None:
    parts = split("intro line\n```\nfirst fenced\n```\nafter\n")
    assert [p.text for p in parts] == ["intro line", "first fenced", "after"]
    assert [p.fenced for p in parts] == [False, True, False]


def test_text_parts_are_bounded() -> None:
    text = "\n".join(f"log line {i} nothing to see" for i in range(10_000))
    parts = split(text)
    assert len(parts) >= 5
    assert all(p.text.count("\n") < ingest.TEXT_PART_LINES for p in parts)
    assert parts[-1].last_line == 10_000


def test_a_json_snippet_ends_at_its_closing_brace() -> None:
    text = 'daemon.json:\n {\n  "runtimes": {"nvidia": {}},\n  "default-runtime": "nvidia"\n}\nthen docker info\n'
    kinds = [(p.kind, p.text.split("\n")[0]) for p in split(text)]
    assert kinds == [("text", "daemon.json:"), ("json", " {"), ("text", "then docker info")]


def test_dmesg_lines_are_not_json() -> None:
    assert {
        p.kind for p in split("[    5.43] nouveau 0000:01:00.0: NVIDIA GM204\n[pip3] numpy==1\n")
    } == {"text"}


def test_decoding_is_lenient() -> None:
    raw = (
        b"\xef\xbb\xbfPyTorch version: 2.5.1+cu124\r\nline with \xff\xfe bad bytes\r\n"
        b"\x1b[31mred\x1b[0m text\x00 here\rprogress 50%\rprogress 100%\n"
    )
    lines = list(iter_decoded_lines(io.BytesIO(raw)))
    assert lines[0] == "PyTorch version: 2.5.1+cu124"
    assert "\ufffd" in lines[1]
    assert lines[2] == "red text here"
    assert lines[3:] == ["progress 50%", "progress 100%"]


def test_utf16_from_powershell_redirect(real_captures: Path) -> None:
    text = (
        real_captures
        / "collect_env"
        / "torch-1.4.0+cpu-windows10-home-cpu-only-pytorch-issue-33473.txt"
    ).read_text(encoding="utf-8")
    for encoded in (text.encode("utf-16"), text.encode("utf-16-le")):
        snap = ingest_blocks(iter_decoded_blocks(io.BytesIO(encoded)))
        assert snap.fact("python.torch", "version") == "1.4.0+cpu"


def test_binary_input_does_not_crash() -> None:
    noise = bytes(range(256)) * 4000
    snap = ingest_blocks(iter_decoded_blocks(io.BytesIO(noise), chunk_bytes=4096))
    assert snap.has("pasted.parts")


def test_long_lines_are_cut() -> None:
    raw = b"x" * (ingest.MAX_LINE_CHARS * 3) + b"\nnext\n"
    lines = list(iter_decoded_lines(io.BytesIO(raw), chunk_bytes=65536))
    assert len(lines[0]) == ingest.MAX_LINE_CHARS and lines[-1] == "next"
    assert clean_block("a" * (ingest.MAX_LINE_CHARS + 5)).count("a") == ingest.MAX_LINE_CHARS
    # a long line after short ones, and one of exactly the limit (kept whole)
    late = clean_block("short\n" + "b" * (ingest.MAX_LINE_CHARS + 5) + "\nend").split("\n")
    assert late == ["short", "b" * ingest.MAX_LINE_CHARS, "end"]
    exact = "c" * ingest.MAX_LINE_CHARS + "\n" + "d" * (ingest.MAX_LINE_CHARS - 1)
    assert clean_block(exact) == exact


def test_too_large_input_is_refused_while_streaming() -> None:
    with pytest.raises(InputTooLarge):
        for _ in iter_decoded_blocks(
            io.BytesIO(b"line\n" * 3000), limit_bytes=10_000, chunk_bytes=1000
        ):
            pass


def test_memory_stays_bounded_on_a_large_log() -> None:
    line = 'time=2025-06-01T12:00:00Z level=INFO source=server.go:42 msg="request" status=200\n'
    data = (line * (20 * 1024 * 1024 // len(line))).encode()

    class Stream(io.RawIOBase):  # produces the 20 MB without holding it twice
        def __init__(self) -> None:
            self.view, self.at = memoryview(data), 0

        def read(self, n: int = -1) -> bytes:
            chunk = bytes(self.view[self.at : self.at + n])
            self.at += len(chunk)
            return chunk

    tracemalloc.start()
    snap = ingest_blocks(iter_decoded_blocks(Stream()))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 1024 * 1024, f"peak {peak / 1e6:.0f} MB for a 20 MB input"
    assert len(snap.fact("pasted.text", "lines")) <= 800


def _fake_reader(name: str, **attributes) -> str:
    module = types.ModuleType(f"envdoctor.ingest.{name}")
    for key, value in attributes.items():
        setattr(module, key, value)
    sys.modules[module.__name__] = module
    return name


def test_any_registered_reader_plugs_in(monkeypatch: pytest.MonkeyPatch) -> None:
    def read(text: str):
        return [
            collected(
                "container.docker",
                "pasted:fake",
                {"runtimes": ["runc"]},
                confidence=Confidence.MEDIUM,
            )
        ]

    name = _fake_reader(
        "fake_docker",
        NAME="fake-docker",
        detect=lambda t: "Runtimes:" in t,
        read=read,
        MARKERS=("Runtimes:",),
    )
    try:
        snap = ingest_text("Server:\n Runtimes: runc\n", modules=(name, "free_text"))
        assert snap.fact("container.docker", "runtimes") == ["runc"]
        assert snap.fact("pasted.parts", "readers") == {"fake-docker": 1}
    finally:
        del sys.modules[f"envdoctor.ingest.{name}"]


def test_a_broken_reader_costs_only_its_own_facts() -> None:
    def boom(text: str):
        raise RuntimeError("reader bug")

    name = _fake_reader("fake_broken", NAME="broken", detect=lambda t: True, read=boom)
    try:
        snap = ingest_text(
            "RuntimeError: CUDA error: out of memory\n",
            modules=(name, "no_such_reader", "free_text"),
        )
        parts = snap.data("pasted.parts")
        assert any("reader bug" in e for p in parts["parts"] for e in p.get("errors", []))
        assert any("no_such_reader" in e for e in parts["errors"])
        assert snap.has("pasted.text")  # the fallback still read it
    finally:
        del sys.modules[f"envdoctor.ingest.{name}"]


def test_fallbacks_run_last_whatever_the_registry_order() -> None:
    readers, _ = ingest.load_readers(("free_text", "collect_env"))
    assert [r.name for r in readers] == ["collect_env", "free-text"]


def test_merge_prefers_the_confident_source_and_unites_lists() -> None:
    low = collected(
        "nvidia.gpus",
        "pasted:free-text",
        {"gpus": [{"index": 0, "name": "RTX", "cc": None}], "note": "low"},
        confidence=Confidence.LOW,
    )
    medium = collected(
        "nvidia.gpus",
        "pasted:collect_env",
        {
            "gpus": [
                {"index": 0, "name": "NVIDIA GeForce RTX 3090", "cc": "8.6"},
                {"index": 1, "name": "NVIDIA GeForce RTX 3090", "cc": "8.6"},
            ]
        },
        confidence=Confidence.MEDIUM,
    )
    merged = merge_groups(low, medium)
    assert merged.confidence is Confidence.MEDIUM
    assert [g["name"] for g in merged.data["gpus"]] == ["NVIDIA GeForce RTX 3090"] * 2
    assert merged.data["note"] == "low"
    assert merged.source == "pasted:collect_env, pasted:free-text"
    assert merge_groups(failed("os", "x", "no"), medium) is medium


def test_ten_megabytes_split_quickly() -> None:
    line = "2025-06-01 12:00:01 worker-3 INFO processed batch 1234 in 12.5 ms\n"
    text = line * (10 * 1024 * 1024 // len(line))
    start = time.perf_counter()
    parts = list(ingest.split_blocks([text]))
    assert time.perf_counter() - start < 2.0
    assert sum(p.text.count("\n") + 1 for p in parts) == text.count("\n") + 1 or parts
    assert all(isinstance(p, Part) for p in parts)
