"""The free-text fallback on real pastes: error lines, frames, extensions, GPUs, versions,
Ollama lines, environment mentions, Chinese prose."""

from __future__ import annotations

from pathlib import Path

from envdoctor.ingest import free_text

CORPUS = Path(__file__).resolve().parent / "triage_corpus"


def body(prefix: str) -> str:
    path = next(CORPUS.glob(f"{prefix}-*.txt"))
    return path.read_text(encoding="utf-8").split("#! ---\n", 1)[1]


def facts(text: str) -> dict:
    (group,) = free_text.read(text)
    assert group.name == "pasted.text" and group.source == "pasted:free-text"
    return group.data


def test_gpu_name_and_capability_from_torch_warning() -> None:
    data = facts(body("002"))
    assert "NVIDIA GeForce RTX 5090" in data["gpus"]
    assert data["compute_capabilities"] == ["12.0"]
    assert data["torch_arch_list"] == [
        "sm_50",
        "sm_60",
        "sm_70",
        "sm_75",
        "sm_80",
        "sm_86",
        "sm_90",
    ]
    assert "zh" in data["languages"]


def test_versions_from_an_issue_template() -> None:
    data = facts(body("003"))
    assert data["versions"]["torch"] == "2.8.0+cu128"
    assert data["system_versions"]["driver"] == "550.163.01"
    assert data["compute_capabilities"] == ["6.1"]
    assert "NVIDIA GeForce GTX 1050" in data["gpus"]
    assert data["distro"] == "ubuntu"


def test_versions_after_full_width_colons() -> None:
    """Chinese input methods type "：" and "（）": the versions after them are read as after ":"
    (the environment list of a real report, tests/triage_corpus/train/zh-4106-*)."""
    text = next((CORPUS / "train").glob("zh-4106-*.txt")).read_text(encoding="utf-8")
    data = facts(text.split("#! ---\n", 1)[1])
    assert data["versions"]["torch"] == "2.8.0+cu128"
    assert data["system_versions"]["python"] == "3.12"
    assert "NVIDIA Tesla P100" in data["gpus"]
    assert free_text.ascii_forms("PyTorch：２.８（cu128）\u3000ok") == "PyTorch:2.8(cu128) ok"


def test_traceback_frames_and_extension_modules() -> None:
    data = facts(body("017"))
    assert any(
        f["file"].endswith("flash_attn/flash_attn_interface.py") and f["line"] == 15
        for f in data["frames"]
    )
    assert "flash_attn_2_cuda" in data["extensions"]
    assert any("undefined symbol" in e for e in data["errors"])


def test_companion_binaries_are_not_extensions() -> None:
    data = facts(body("053"))
    assert "_torch_sox" in data["companions"]
    assert "_torch_sox" not in data["extensions"]


def test_xformers_installed_torch_beats_the_build_it_was_made_for() -> None:
    data = facts(body("019"))
    assert data["versions"]["torch"] == "2.1.2+cpu"
    assert data["versions"]["xformers"] == "0.0.21"
    assert data["system_versions"]["python"] == "3.10.8"


def test_pip_list_lines() -> None:
    data = facts(body("016"))
    assert data["versions"]["torch"] == "2.9.0+cpu"
    assert data["versions"]["torchvision"] == "0.24.0"
    assert any(f["file"].endswith("torchvision/__init__.py") for f in data["frames"])


def test_ollama_server_lines() -> None:
    data = facts(body("044"))
    assert data["ollama"]["lines"] and "no nvidia devices detected" in data["ollama"]["lines"][0]
    assert "ollama" in data["apps"]
    assert facts(body("043"))["os_mentions"][0] == "windows"


def test_windows_build_and_wsl() -> None:
    data = facts(body("035"))
    assert data["windows_build"] == 17763
    assert "wsl" in data["os_mentions"]


def test_apps_and_jetson() -> None:
    assert (
        "comfyui" in facts(body("027"))["apps"]
        or "comfyui" in facts("ComfyUI says: CUDA out of memory")["apps"]
    )
    assert "a1111" in facts(body("028") + "\n./webui.sh --lowvram")["apps"]
    assert "jetson" in facts(body("029"))["platforms"]


def test_canonical_names_for_short_mentions() -> None:
    data = facts("my 1050ti and a rtx3090, also an rx 6600 and a GeForce RTX 4060 Ti")
    assert data["gpus"] == [
        "NVIDIA GeForce GTX 1050 Ti",
        "NVIDIA GeForce RTX 3090",
        "AMD Radeon RX 6600",
        "NVIDIA GeForce RTX 4060 Ti",
    ]


def test_only_notable_lines_are_kept() -> None:
    filler = "\n".join(f"step {i} ok" for i in range(5000))
    data = facts(filler + "\nRuntimeError: CUDA error: device-side assert triggered\n" + filler)
    assert data["lines"] == ["RuntimeError: CUDA error: device-side assert triggered"]
    assert data["line_count"] == 10001


def test_last_error_survives_a_long_noisy_log() -> None:
    noisy = "\n".join(f"warning: retry {i} failed" for i in range(20000))
    data = facts(noisy + "\nValueError: the real problem at the end")
    assert data["lines"][-1] == "ValueError: the real problem at the end"
    assert data["errors"][-1] == "ValueError: the real problem at the end"
    assert (
        len(data["lines"])
        <= free_text.HEAD_LINES + free_text.NEW_ANCHOR_LINES + free_text.TAIL_LINES
    )


def test_a_signature_line_deep_in_a_log_is_kept() -> None:
    noisy = "\n".join(f"cuda kernel {i} launched" for i in range(30000))
    data = facts(noisy + "\nFailed to initialize NVML: Driver/library version mismatch\n" + noisy)
    assert "Failed to initialize NVML: Driver/library version mismatch" in data["lines"]


def test_nothing_fed_means_no_group() -> None:
    assert free_text.Collector().groups() == []


def test_versions_under_issue_form_headings() -> None:
    data = facts(
        body("083")
    )  # "### Tensorflow Version" / blank / "2.11.0"; "### Python version" / "3.9.10"
    assert data["versions"]["tensorflow"] == "2.11.0"
    assert data["system_versions"]["python"] == "3.9.10"
    assert facts(body("084"))["versions"]["tensorflow"] == "2.12.0"  # "tf2.12.0"
    assert "tensorflow" not in facts("### Tensorflow Version\n\nsee below\n\n2.11.0\n")["versions"]


def test_issue_form_answers_read_as_inline_lines() -> None:
    # 083: "### CUDA/cuDNN version" / blank / "11.6r11.6/8.6"; a bilingual heading's second half and
    # ONNX Runtime's "or Commit ID" are dropped from the name
    answers = facts(body("083"))["heading_answers"]
    assert "CUDA/cuDNN version: 11.6r11.6/8.6" in answers
    form = "### Python version | Python 版本\n\n3.10\n\n### ONNX Runtime Version or Commit ID\n\n1.16.3\n"
    assert facts(form)["heading_answers"] == [
        "Python version: 3.10",
        "ONNX Runtime Version: 1.16.3",
    ]


def test_no_word_every_log_holds_is_a_keyword() -> None:
    """The signatures' anchors are the reader's keywords: a cue found by 'step' or 'very ' would
    keep every 'step 12 ok' line of a long log (round 12's slowdown phrasing did)."""
    from envdoctor.triage_engine.loader import anchors

    common = ["step", "no ", " have ", "very ", "too ", "really ", "output", "result", "the "]
    common += ["and ", "with ", "time", " time", "this", "that", "when", "then", "iteration"]
    common += ["inference", "learning", "generation", "instead", "reached"]
    assert sorted(set(common) & anchors()) == []


# Windows lines the old reading missed, verbatim from training cases (case file, line)
WINDOWS_LINES = [
    # a traceback's drive path of two folders (ostris/ai-toolkit)
    (
        "en-1152-ai-toolkit-fbgemm-dll-libomp140-missing-windows.txt",
        '  File "D:\\AI\\ai-toolkit\\jobs\\process\\__init__.py", line 1',
    ),
    # a PowerShell prompt outside C:\Users
    ("zh-5502-paddle-python310-no-wheel.txt", "PS D:\\paddlepaddle> python --version"),
    # a cmd prompt (darknet)
    (
        "en-8301-darknet-cuda-unknown-error-driver-stopped.txt",
        "D:\\darknet\\build\\darknet\\x64>darknet.exe detector train cfg/obj.data "
        "cfg/yolo-obj.cfg darknet19_448.conv.23",
    ),
]


def test_windows_from_its_paths_and_prompts() -> None:
    """A drive path of two folders or a cmd / PowerShell prompt says Windows (real lines of the
    corpus); a Linux path, WSL's /mnt/c or a backslash after a digit does not."""
    for case, line in WINDOWS_LINES:
        assert line in (CORPUS / "train" / case).read_text(encoding="utf-8"), case
        data = facts(line + "\nRuntimeError: CUDA error: unknown error")
        assert "windows" in data["os_mentions"], line
    for line in ("/home/me/train.py: CUDA error", "ratio 3:\\ 4 failed", "see /mnt/c/x/y error"):
        assert "windows" not in facts(line + "\nRuntimeError: CUDA error")["os_mentions"], line
