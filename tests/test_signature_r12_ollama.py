"""Ollama's backend libraries not loaded (checks/signatures/apps.toml): the log lines that say
so reach the cause first with the folder to make findable; a log whose GPU backend loaded does not."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text
from tests.triage_lines import assert_first_with_knob

# ollama/ollama#9797 (Windows, Ollama 0.6: every CPU variant fails to load, weights on the CPU)
WINDOWS_LOG = (
    'time=2025-03-17T00:41:47.769+08:00 level=INFO source=ggml.go:67 msg="" architecture=gemma3 '
    "file_type=Q4_K_M\n"
    "ggml_backend_load_best: failed to load C:\\Users\\Administrator\\AppData\\Local\\Programs\\"
    "Ollama\\lib\\ollama\\ggml-cpu-alderlake.dll\n"
    "ggml_backend_load_best: failed to load C:\\Users\\Administrator\\AppData\\Local\\Programs\\"
    "Ollama\\lib\\ollama\\ggml-cpu-haswell.dll\n"
    'time=2025-03-17T00:41:47.799+08:00 level=INFO source=ggml.go:289 msg="model weights" '
    'buffer=CPU size="17.3 GiB"'
)


def test_backends_that_fail_to_load_on_windows_name_the_folder_for_path() -> None:
    findings = assert_first_with_knob(WINDOWS_LOG, "app.ollama.backends-not-found", "lib\\ollama")
    assert "PATH" in findings[0].fixes[0].summary


def test_a_distribution_layout_under_lib64_gets_the_link() -> None:
    # ollama/ollama#10250's listing: the Gentoo package's backends under /usr/lib64/ollama
    paste = (
        "ollama in Gentoo doesn't use the 1080ti GPU\n"
        "> sudo find /usr/lib/ollama /usr/local/lib/ollama /usr/lib64/ollama\n"
        "find: '/usr/lib/ollama': No such file or directory\n"
        "/usr/lib64/ollama/cuda_v12/libggml-cuda.so\n"
    )
    assert_first_with_knob(paste, "app.ollama.backends-not-found", "ln -s /usr/lib64/ollama")


def test_a_log_whose_gpu_backend_loaded_is_not_called_missing_backends() -> None:
    paste = (
        "ollama runs slowly on Fedora\n"
        "load_backend: loaded CUDA backend from /usr/lib64/ollama/cuda_v12/libggml-cuda.so\n"
        "load_backend: loaded CPU backend from /usr/lib64/ollama/libggml-cpu-haswell.so\n"
    )
    ids = [f.id for f in triage_text(paste).findings[:3]]
    assert "app.ollama.backends-not-found" not in ids, ids
