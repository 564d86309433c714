"""Pasted `ldd` / `ldconfig -p` lines: the ldd_ldconfig reader and the checks that use it."""

from __future__ import annotations

from envdoctor.checks import cuda_libraries as checks
from envdoctor.ingest import ingest_text, ldd_ldconfig
from envdoctor.matrix.loader import load_bundled
from tests.cuda_trees import fixture_text

RAGFLOW = "ldd/ldd-libcusparse-nvjitlink-from-cuda-12.1-ragflow-issue-4466.txt"


def test_ldd_of_a_wheel_library_resolving_nvjitlink_from_a_toolkit():
    text = fixture_text(RAGFLOW)
    assert ldd_ldconfig.detect(text)
    snap = ingest_text("How do I fix this?\n" + text)
    [copy] = snap.fact("cuda.libraries", "copies")
    assert (copy["soname"], copy["origin"], copy["via"]) == ("libnvJitLink.so.12", "toolkit", "ldd")
    assert copy["needed_by"].endswith("/nvidia/cusparse/lib/libcusparse.so.12")
    [finding] = checks.ld_library_path_shadows_wheel.run(snap, load_bundled())
    assert (
        finding.title
        == "A pip nvidia wheel loads nvjitlink from /usr/local/cuda-12.1/lib64 instead of its own copy"
    )
    assert finding.fixes[0].commands == (
        "export LD_LIBRARY_PATH=$(printf %s \"$LD_LIBRARY_PATH\" | tr ':' '\\n' | grep -vxF "
        "/usr/local/cuda-12.1/lib64 | paste -sd: -)",
    )
    assert finding.fixes[1].commands == (
        "sed -i.bak '\\#LD_LIBRARY_PATH=.*/usr/local/cuda-12.1/lib64#d' ~/.bashrc",
    )


def test_ldconfig_listing_and_not_found_lines():
    listing = fixture_text("ldconfig/unidentified-ldconfig-p-grep-libcudnn8-cuda-targets.txt")
    [group] = ldd_ldconfig.read(listing + "\tlibcudnn_cnn_infer.so.8 => not found\n")
    data = group.data
    assert {c["soname"] for c in data["copies"]} == {
        "libcudnn.so.8",
        "libcudnn_ops_infer.so.8",
        "libcudnn_ops_train.so.8",
        "libcudnn_cnn_infer.so.8",
        "libcudnn_cnn_train.so.8",
        "libcudnn_adv_infer.so.8",
        "libcudnn_adv_train.so.8",
    }
    assert all(c["origin"] == "toolkit" and c["via"] == "ldconfig" for c in data["copies"])
    assert (
        data["winners"]["libcudnn.so.8"] == "/usr/local/cuda/targets/x86_64-linux/lib/libcudnn.so.8"
    )
    assert data["missing"] == [{"soname": "libcudnn_cnn_infer.so.8", "needed_by": None}]


def test_plain_system_libraries_and_other_text_are_not_claimed():
    text = fixture_text(RAGFLOW).replace("libnvJitLink.so.12 =>", "libfoo.so.12 =>")
    assert not ldd_ldconfig.detect(text)
    assert not ldd_ldconfig.detect("libcudnn.so.8 is missing, please help")
    assert ldd_ldconfig.origin("/opt/conda/envs/a/lib/libcudart.so.12") == "conda"
    assert ldd_ldconfig.origin("/usr/lib/x86_64-linux-gnu/libcudnn.so.9") == "system"
