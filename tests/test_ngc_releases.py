"""NGC container releases: the table says what NVIDIA's release notes say, and triage reads a
release from a paste and names the driver it needs (or the release the host's driver runs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from envdoctor.diagnosis.pipeline import active_matrices
from envdoctor.model.versions import parse
from envdoctor.queries.ngc import newest_release_for_driver
from envdoctor.triage_engine import triage_text
from envdoctor.triage_engine.ngc import ngc_facts

ROOT = Path(__file__).resolve().parents[1]
ROWS = tomllib.loads((ROOT / "matrices" / "ngc_releases.toml").read_text(encoding="utf-8"))["rows"]
BY_RELEASE = {r["release"]: r for r in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["release"])
def test_each_row_is_what_its_release_note_says(row):
    # the note is the release notes' "Driver Requirements" sentence, copied verbatim
    quote = row["note"]
    stated = re.search(
        r"Release (\d\d\.\d\d) is based on (?:NVIDIA )?CUDA®? (?:Toolkit )?(\d+(?:\.\d+)*)", quote
    )
    driver = re.search(r"requires NVIDIA Driver release (\d{3}(?:\.\d+)*)", quote, re.I)
    assert stated and driver, quote
    assert (stated.group(1), stated.group(2), driver.group(1)) == (
        row["release"],
        row["cuda"],
        row["driver"],
    )
    for other in row["datacenter_drivers"]:
        assert other in quote.split("However", 1)[-1], (other, quote)
    assert row["source"].startswith("https://docs.nvidia.com/")


def test_the_table_covers_the_releases_users_run():
    assert len(ROWS) >= 40
    assert "24.05" in BY_RELEASE  # checked by hand against the MXNet 24.05 release notes
    assert (BY_RELEASE["24.05"]["cuda"], BY_RELEASE["24.05"]["driver"]) == ("12.4.1", "545")


def _facts(lines, driver=None):
    return ngc_facts(lines, active_matrices(), driver)


def test_an_image_tag_gives_the_release_its_cuda_and_driver():
    found = _facts(["$ docker run --gpus all -it nvcr.io/nvidia/pytorch:24.05-py3 python"])
    assert found["ngc.release"] == "24.05" and found["ngc.image"] == "pytorch"
    assert (found["ngc.cuda"], found["ngc.driver"]) == ("12.4.1", "545")
    assert "470.57" in found["ngc.datacenter_drivers"]
    assert _facts(["FROM tritonserver:24.05-py3"])["ngc.release"] == "24.05"


def test_a_release_in_prose_counts_only_beside_ngc_words():
    triton = ["**Triton Information**", "Official container image 24.05"]
    assert _facts(triton)["ngc.release"] == "24.05"
    assert _facts(["Official container image 24.05"])["ngc.release"] is None
    for line in ("Ubuntu 20.10 on NGC", "torch 2.10 with CUDA 12.10 in an NGC image", "10.15"):
        assert _facts([line])["ngc.release"] is None, line
    # Ubuntu's YY.MM and the other NGC images' tags are not a framework release
    for line in (
        "nvcr.io/nvidia/cuda:11.8.0-devel-ubuntu22.04",
        "nvcr.io/nvidia/driver:535.104.05-ubuntu22.04",
        "nvcr.io/nvidia/gpu-operator:v23.9.0",
        "nvcr.io/nvidia/l4t-ml:r32.7.1-py3",
    ):
        assert _facts([line, "Release:\t22.04", "Ubuntu 22.04.3 LTS"])["ngc.release"] is None, line


def test_the_release_a_driver_runs_is_the_newest_it_meets():
    fits = newest_release_for_driver(active_matrices(), "535.104.05")
    assert fits is not None and parse(fits["driver"]) <= parse("535.104.05")
    newer = [r for r in ROWS if parse(r["release"]) > parse(fits["release"])]
    assert newer and all(parse(r["driver"]) > parse("535.104.05") for r in newer)
    assert newest_release_for_driver(active_matrices(), None) is None
    assert newest_release_for_driver(active_matrices(), "300.1") is None


def test_triage_names_the_driver_an_ngc_release_needs_and_the_release_this_driver_runs():
    paste = (
        "docker run --gpus all nvcr.io/nvidia/pytorch:24.05-py3\n"
        "ERROR: This container was built for NVIDIA Driver Release 545.23 or later, but version "
        "535.104.05 was detected and compatibility mode is UNAVAILABLE.\n"
    )
    findings = triage_text(paste).findings
    finding = findings[0]
    assert finding.id == "container.image-needs-newer-driver"
    # the banner read the host's driver in the container: the NVIDIA runtime is there
    assert "container.no-nvidia-runtime" not in [f.id for f in findings]
    fits = newest_release_for_driver(active_matrices(), "535.104.05")
    text = " ".join(f.summary for f in finding.fixes)
    assert f"NGC release {fits['release']} (CUDA {fits['cuda']}" in text
    assert finding.fixes[0].summary.startswith("Update the host NVIDIA driver to 545.23 or newer")
    # "compatibility mode is UNAVAILABLE": forward compatibility was tried, so it is not offered
    assert "forward compatibility" not in text


def test_triage_of_a_ptx_error_in_a_triton_release_names_that_releases_driver():
    paste = (
        "failed to load model: CUDA runtime implicit initialization on GPU:0 failed. Status: the "
        "provided PTX was compiled with an unsupported toolchain.\n"
        "**Triton Information**\n"
        "Official container image 24.05\n"
    )
    findings = triage_text(paste).findings
    fixes = [f.summary for f in findings[0].fixes]
    assert findings[0].id in {
        "cuda.toolkit-newer-than-driver",
        "container.image-needs-newer-driver",
    }
    assert fixes[0].startswith(
        "Update the NVIDIA driver to 545 or newer on the host: NGC release 24.05"
    )


def _corpus_body(name: str) -> str:
    """A real report of the triage corpus's training part (its thread URL in the header)."""
    path = ROOT / "tests" / "triage_corpus" / "train" / name
    return path.read_text(encoding="utf-8").split("#! ---\n", 1)[1]


def test_real_triton_report_gets_its_releases_driver_from_the_prose() -> None:
    # triton-inference-server/server#2193: "Official container image 20.10", a PTX error; the
    # thread's fix was the 455 driver
    findings = triage_text(_corpus_body("en-2202-triton-server-ptx-driver-too-old.txt")).findings
    assert (
        findings[0]
        .fixes[0]
        .summary.startswith(
            "Update the NVIDIA driver to 455 or newer on the host: NGC release 20.10 is based on CUDA 11.1"
        )
    )


def test_real_ngc_banner_gets_the_newest_release_its_driver_runs() -> None:
    # triton-inference-server/server#1838: the 20.06 image's banner on a 440 driver
    body = _corpus_body("en-2301-tritonserver-2006-driver-440.txt")
    facts = ngc_facts(body.splitlines(), active_matrices())
    assert facts["ngc.release"] == "20.06"
    fits = newest_release_for_driver(active_matrices(), facts["ngc.host_driver"])
    assert fits is not None and facts["ngc.fits_release"] == fits["release"]
    assert parse(str(fits["driver"])) <= parse(facts["ngc.host_driver"])
