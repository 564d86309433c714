"""The apps matrix and its queries: names and aliases, compute and driver floors, CPU modes, VRAM
flags, preflight tokens, and that each row's numbers are the ones its quoted source text says."""

from __future__ import annotations

import re

import pytest

from envdoctor.matrix.loader import lint, load_bundled
from envdoctor.queries import apps as aq
from envdoctor.requirements.parse import parse_requirements

MS = load_bundled()


def test_the_table_lints_and_every_row_cites_a_https_source():
    _, errors = lint()
    assert [e for e in errors if "apps.toml" in str(e)] == []
    rows = MS.table("apps").rows
    assert len(rows) >= 40
    assert all(str(r["source"]).startswith("https://") and r.get("text") for r in rows)
    assert {r["app"] for r in rows} == {
        "vllm",
        "comfyui",
        "webui",
        "ollama",
        "llamacpp",
        "textgen",
        "torchserve",
        "halcon",
    }


@pytest.mark.parametrize(
    "row",
    [
        r
        for r in load_bundled().table("apps").rows
        if r.get("min_compute") or r.get("min_driver") or r.get("flag") or r.get("max_vram_mib")
    ],
    ids=lambda r: f"{r['app']}-{r['fact']}",
)
def test_numbers_and_flags_appear_in_the_quoted_text(row):
    text = row["text"] + " " + row.get("note", "")
    if row.get("min_compute"):
        cc = str(row["min_compute"])
        assert cc in text or f"sm_{cc.replace('.', '')}" in text
    if row.get("min_driver"):
        assert str(row["min_driver"]) in text
    if row.get("max_vram_mib"):
        assert f"{row['max_vram_mib'] // 1024}GB" in text.replace(" ", "")
    if row.get("flag"):
        assert row["flag"].split()[0] in text


@pytest.mark.parametrize(
    "alias,name",
    [
        ("A1111", "webui"),
        ("stable-diffusion-webui", "webui"),
        ("llama.cpp", "llamacpp"),
        ("oobabooga", "textgen"),
        ("ComfyUI", "comfyui"),
        ("SolidWorks", "solidworks"),
        ("blender", None),
        ("", None),
    ],
)
def test_canonical_names(alias, name):
    assert aq.canonical(alias) == name


def test_vllm_floors_current_first():
    floors = aq.min_compute(MS, "vllm")
    assert [cc for cc, _ in floors] == ["7.5", "7.0"]
    assert "0487d5c2" in floors[0][1]["source"] and "8744bb09" in floors[1][1]["source"]


@pytest.mark.parametrize(
    "cc,driver", [("6.1", "570"), ("5.0", "570"), ("7.5", "550"), ("12.0", "550"), ("3.5", None)]
)
def test_ollama_driver_floor_by_compute_capability(cc, driver):
    row = aq.driver_floor(MS, "ollama", cc)
    assert (row["min_driver"] if row else None) == driver


def test_cpu_modes_and_vram_flags():
    assert aq.cpu_mode(MS, "comfyui")["flag"] == "--cpu"
    assert aq.cpu_mode(MS, "webui")["flag"] == "--use-cpu all --skip-torch-cuda-test"
    assert aq.cpu_mode(MS, "vllm")["command"] == "docker pull vllm/vllm-openai-cpu:latest-x86_64"
    assert [r["flag"] for r in aq.vram_flags(MS, "webui", 4096)] == ["--medvram", "--lowvram"]
    assert aq.vram_flags(MS, "webui", 8192) == []
    assert aq.cpu_mode(MS, "nonexistent") is None and aq.rows(MS, "nonexistent") == []


def test_preflight_requirements_parse_and_unknown_apps_are_none():
    for app in aq.known_apps(MS):
        tokens = aq.preflight_requirements(app, MS)
        assert tokens and parse_requirements(tokens)
    assert aq.preflight_requirements("vllm", MS) == ["gpu", "compute>=7.5"]
    assert aq.preflight_requirements("a1111", MS) == ["gpu", "torch.cuda"]
    assert aq.preflight_requirements("blender", MS) is None
    assert "creo" in aq.known_apps(MS) and "vllm" in aq.known_apps(MS)


def test_queries_without_the_table_answer_nothing():
    class Empty:
        def table(self, name):
            raise KeyError(name)

    assert aq.rows(Empty(), "vllm") == [] and aq.min_compute(Empty(), "vllm") == []
    assert (
        aq.preflight_requirements("vllm", Empty()) == ["gpu"]
        or aq.preflight_requirements("vllm", Empty()) is None
    )
    assert re.fullmatch(r"[a-z]+", aq.known_apps(Empty())[0])
