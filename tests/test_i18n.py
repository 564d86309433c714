"""envdoctor in Chinese: catalogs complete and well-formed, the locale rules, the matcher, every
rendering of a Chinese run free of untranslated English sentences, golden renderings in both
languages, and fix commands that keep the user's package mirror.

After merging strings from other branches: `python -m envdoctor.i18n update` re-extracts them and
lists the untranslated ones (test_every_message_has_a_chinese_translation lists the same)."""

from __future__ import annotations

import gettext
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from envdoctor.cli import main
from envdoctor.commands.triage import triage_text
from envdoctor.i18n import Translator, lang_from_locale, resolve_lang, translator
from envdoctor.i18n.audit import english_sentences
from envdoctor.i18n.catalog import compile_mo, po_path, read_po, translated, write_po
from envdoctor.i18n.extract import extract
from envdoctor.i18n.localize import finding as localized_finding
from envdoctor.i18n.templates import placeholders
from envdoctor.model.findings import Finding
from envdoctor.render import render

TESTS = Path(__file__).parent
REPO = TESTS.parent
GOLDEN = TESTS / "golden" / "zh"
ZH_REPORT = TESTS / "fixtures" / "zh" / "win11-rtx4060-cpu-torch.txt"


@pytest.fixture(scope="module")
def catalog() -> dict[str, str]:
    return translated(read_po(po_path("zh"))[1])


@pytest.fixture(scope="module")
def zh() -> Translator:
    return translator("zh")


# -- the catalog --------------------------------------------------------------------------------


def test_every_message_has_a_chinese_translation(catalog):
    """Every message the code and data hold now (extracted afresh, so strings added by other
    branches count) has a Chinese translation in the .po."""
    missing = [m.msgid for m in extract() if m.msgid not in catalog]
    assert not missing, (
        f"{len(missing)} untranslated message(s); run `python -m envdoctor.i18n update`, "
        "translate them in envdoctor/i18n/locale/zh/LC_MESSAGES/envdoctor.po:\n"
        + "\n".join("  " + m.splitlines()[0][:110] for m in missing)
    )


def test_translations_keep_their_placeholders(catalog):
    """A translation uses only the msgid's placeholders; it may drop one only when the code
    fills it with an English grammatical bit ('s' if n != 1 else '', 'was' / 'were')."""
    comments = {e.msgid: " ".join(e.comments) for e in read_po(po_path("zh"))[1]}
    bad = []
    for msgid, msgstr in catalog.items():
        if msgstr == msgid:
            continue
        have, want = set(placeholders(msgstr)), set(placeholders(msgid))
        if have - want:
            bad.append(f"unknown {sorted(have - want)} in: {msgid[:80]}")
        for name in want - have:
            source = re.search(r"\{" + re.escape(name) + r"\} = ([^;]*)", comments.get(msgid, ""))
            if not (source and " if " in source.group(1) and "'" in source.group(1)):
                bad.append(f"dropped {{{name}}} in: {msgid[:80]}")
    assert not bad, "\n".join(bad)


def test_chinese_translations_are_chinese(catalog):
    """A translation that repeats its English msgid is either no sentence (a name, a command)
    or marked by the translator as a tool's verbatim output ("# verbatim: ...")."""
    verbatim = {
        e.msgid
        for e in read_po(po_path("zh"))[1]
        if any(c.startswith("verbatim") for c in e.translator_comments)
    }
    same = [m for m, s in catalog.items() if m == s and english_sentences(m) and m not in verbatim]
    assert not same, same


def test_mo_file_round_trips_through_python_gettext(catalog, tmp_path):
    path = tmp_path / "envdoctor.mo"
    path.write_bytes(compile_mo(catalog))
    with path.open("rb") as handle:
        gnu = gettext.GNUTranslations(handle)
    sample = list(catalog.items())[:50] + [("GPU", "GPU")]
    for msgid, msgstr in sample:
        assert gnu.gettext(msgid) == msgstr


def test_po_file_round_trips(tmp_path):
    header, entries = read_po(po_path("zh"))
    copy = tmp_path / "copy.po"
    write_po(copy, header, entries)
    again_header, again = read_po(copy)
    assert [(e.msgid, e.msgstr, e.flags) for e in again] == [
        (e.msgid, e.msgstr, e.flags) for e in entries
    ]
    assert again_header == header


# -- the language rules -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "env, lang",
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8", "LANGUAGE": "zh_CN:en"}, "zh"),
        ({"LANG": "C", "LANGUAGE": "zh_CN"}, "en"),
        ({}, "en"),
    ],
)
def test_locale_decides_the_language(env, lang):
    assert lang_from_locale(env) == lang


def test_json_stays_english_unless_asked():
    env = {"LANG": "zh_CN.UTF-8"}
    assert resolve_lang(None, "text", env) == "zh"
    assert resolve_lang(None, "markdown", env) == "zh"
    assert resolve_lang(None, "json", env) == "en"
    assert resolve_lang("zh", "json", env) == "zh"
    assert resolve_lang("en", "text", env) == "en"


# -- the matcher --------------------------------------------------------------------------------


def test_fstring_templates_translate_with_their_values(zh):
    text = "torch 2.4.1+cpu is a CPU-only build on a machine with an NVIDIA GPU"
    assert zh(text) == "torch 2.4.1+cpu 是纯 CPU 版本，而本机有 NVIDIA 显卡"


def test_values_that_are_words_are_translated_too(zh):
    # {what} is itself a message ("a CUDA (or ROCm) build")
    assert (
        "CUDA（或 ROCm）版本"
        in zh("Ollama's ROCm build does not run on gfx1031: it falls back to the CPU")
        or zh("a CUDA (or ROCm) build") == "CUDA（或 ROCm）版本"
    )


def test_sentences_built_from_pieces_are_translated(zh):
    text = (
        "The NVIDIA kernel module 550.54.14 and the user-space driver libraries 550.90.07 "
        "differ, so NVML and CUDA refuse to start. This follows a driver upgrade without a reboot."
    )
    out = zh(text)
    assert "550.54.14" in out and "550.90.07" in out
    assert not english_sentences(out), out


def test_unknown_text_passes_through(zh):
    assert zh("something envdoctor never says") == "something envdoctor never says"
    assert Translator("en")("The GPU ran out of memory") == "The GPU ran out of memory"


# -- no English left in Chinese runs ------------------------------------------------------------


def _texts(doc: dict) -> list[str]:
    """The words of a JSON report's findings (evidence values are facts and stay as seen)."""
    out = []
    for f in doc["findings"]:
        out += [f["title"], f["detail"]]
        out += [e["expected"] or "" for e in f["evidence"]]
        for fix in f["fixes"]:
            out += [fix["summary"], *fix.get("assumptions", [])]
    return out


def _corpus() -> list[Path]:
    corpus = TESTS / "triage_corpus"
    return sorted(corpus.glob("*.txt")) + sorted((corpus / "train").glob("*.txt")) + [ZH_REPORT]


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_chinese_triage_of_the_corpus_has_no_english_sentence(path, capsys):
    assert main(["triage", str(path), "--json", "--lang", "zh"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    left = [(t[:100], s) for t in _texts(doc) for s in english_sentences(t)]
    assert not left, left


def test_chinese_rendering_of_every_checks_failing_fixture_has_no_english_sentence(tmp_path, zh):
    """Runs the check tests with every Finding they build recorded (tests/conftest.py), then
    translates each: a finding a check emits on its failing fixture reads in Chinese."""
    record = tmp_path / "findings.json"
    tests = sorted(str(p) for p in TESTS.glob("test_*check*.py"))
    tests += [str(TESTS / "test_frameworks.py"), str(TESTS / "test_intel_xpu.py")]
    env = dict(os.environ, ENVDOCTOR_RECORD_FINDINGS=str(record))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert record.exists(), run.stdout[-2000:] + run.stderr[-2000:]
    findings = []
    for doc in json.loads(record.read_text(encoding="utf-8")):
        try:
            findings.append(Finding.from_dict(doc))
        except ValueError:
            continue
    assert len(findings) > 100
    left: set[tuple[str, str]] = set()
    for f in findings:
        z = localized_finding(f, zh)
        texts = [z.title, z.detail, *(x.summary for x in z.fixes)]
        texts += [e.expected or "" for e in z.evidence]
        for text in texts:
            left.update((f.id, s) for s in english_sentences(text))
    assert not left, "\n".join(f"{i}: {s}" for i, s in sorted(left))


# -- golden renderings ---------------------------------------------------------------------------


def _golden_report():
    report = triage_text(ZH_REPORT.read_text(encoding="utf-8"))
    report.snapshot.created_at = "2026-12-03T10:00:00+00:00"
    report.envdoctor_version = "0.1.0"
    for group in report.snapshot.groups.values():  # timings differ from run to run
        group.duration_ms = None
        if isinstance(group.data, dict):
            group.data.pop("reader_ms", None)
    return report


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "fmt, options, suffix",
    [
        ("text", {"color": False, "width": 100}, "txt"),
        ("text", {"color": False, "width": 100, "verbose": True}, "verbose.txt"),
        ("markdown", {}, "md"),
        ("html", {}, "html"),
    ],
)
def test_golden_renderings_in_both_languages(lang, fmt, options, suffix):
    text = render(_golden_report(), fmt, lang=lang, **options)
    path = GOLDEN / f"win11-cpu-torch.{lang}.{suffix}"
    if os.environ.get("ENVDOCTOR_REGOLD"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"golden file {path.name} missing: run with ENVDOCTOR_REGOLD=1"
    assert text == path.read_text(encoding="utf-8")
    if lang == "zh":
        assert "纯 CPU 版本" in text
    else:
        assert "CPU-only build" in text


def test_embedded_json_stays_english_in_a_chinese_markdown_report():
    from envdoctor.model.report import extract_embedded

    text = render(_golden_report(), "markdown", lang="zh")
    doc = json.loads(extract_embedded(text) or "{}")
    titles = [f["title"] for f in doc["findings"]]
    assert any("CPU-only" in t for t in titles)
    assert all(not re.search(r"[\u4e00-\u9fff]", t) for t in titles)


# -- the command line -----------------------------------------------------------------------------


def _run(argv: list[str], env: dict[str, str], capsys) -> tuple[int, str, str]:  # noqa: ANN001
    old = dict(os.environ)
    os.environ.update(env)
    try:
        code = main(argv)
    finally:
        os.environ.clear()
        os.environ.update(old)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_lang_on_every_command_and_help_in_chinese(capsys):
    from envdoctor.commands import COMMAND_MODULES

    for name in COMMAND_MODULES:
        command = name.removesuffix("_cmd")
        with pytest.raises(SystemExit):
            main([command, "--lang", "zh", "--help"])
        out = capsys.readouterr().out
        assert out.startswith("用法："), (command, out[:200])
        assert "--lang" in out
        assert "显示此帮助信息并退出" in out
        assert not [s for s in english_sentences(out) if "envdoctor" not in s], (command, out)


def test_lang_reaches_nested_sub_commands(capsys):
    code, out, _ = _run(["matrices", "lint", "--lang", "zh"], {}, capsys)
    assert code == 0
    assert "个矩阵" in out


def test_usage_errors_in_chinese(capsys):
    code, _, err = _run(["check", "--format", "nope", "--lang", "zh"], {}, capsys)
    assert code == 2
    assert "无效的选项" in err


def test_locale_drives_the_terminal_and_json_stays_english(capsys):
    code, out, _ = _run(["triage", str(ZH_REPORT)], {"LANG": "zh_CN.UTF-8", "LC_ALL": ""}, capsys)
    assert "纯 CPU 版本" in out
    code, out, _ = _run(
        ["triage", str(ZH_REPORT), "--json"], {"LANG": "zh_CN.UTF-8", "LC_ALL": ""}, capsys
    )
    doc = json.loads(out)
    assert all(not re.search(r"[\u4e00-\u9fff]", f["title"]) for f in doc["findings"])
    assert {f["id"] for f in doc["findings"]} >= {"torch.cpu-build-on-gpu-host"}


def test_explain_page_in_chinese(capsys):
    code, out, _ = _run(["explain", "torch.cpu-build-on-gpu-host", "--lang", "zh"], {}, capsys)
    assert code == 0
    assert "PyTorch 是纯 CPU 版本" in out
    assert not english_sentences(out.split("\n", 3)[-1])


def test_fit_output_in_chinese(capsys):
    code, out, _ = _run(
        [
            "fit",
            "--params",
            "7B",
            "--dtype",
            "bf16",
            "--task",
            "inference",
            "--vram",
            "8",
            "--lang",
            "zh",
        ],
        {},
        capsys,
    )
    assert code in (0, 1)
    assert "放不下" in out or "放得下" in out


def test_english_sentence_detector_ignores_code_and_data():
    assert english_sentences("运行 `pip install torch --index-url https://x` 然后重启") == []
    assert english_sentences('报错 "no kernel image is available for execution" 说明') == []
    assert english_sentences("NVIDIA GeForce RTX 4090 (sm_89), driver 550.54.14") == []
    assert english_sentences("Docker is installed but its daemon is not running")
    assert english_sentences("没有：no NVIDIA device on the PCI bus")


def test_chinese_report_reads_back_through_the_triage(capsys):
    """A Chinese question with English tool output: the cause is found, and the answer is in
    Chinese with the commands unchanged."""
    code, out, _ = _run(["triage", str(ZH_REPORT), "--lang", "zh"], {}, capsys)
    assert code == 1
    assert "这个 PyTorch 是纯 CPU 版本，所以用不了 GPU" in out
    # the fix chooser's command (the build for this RTX 4060 and driver), kept as written, run
    # by the ComfyUI portable build's own Python that the traceback shows (python_embeded)
    assert ".\\python_embeded\\python.exe -m pip install torch==2.5.1" in out  # its CUDA build
    # (the longer command wraps at the terminal's width between the flag and its URL)
    assert "--index-url" in out and "https://download.pytorch.org/whl/cu124" in out
    io.StringIO(out)  # rendered text, not parsed further


def test_literal_braces_around_a_name_are_text_not_a_placeholder():
    """A catalog message whose text holds literal braces around a name ("!{sys.executable}",
    written "{{sys.executable}}" in the catalog) is looked up by its text: reading the inner
    "{sys.executable}" as a placeholder first had left the notebook fix in English (found by
    round 26's corpus case en-9704)."""
    from envdoctor.i18n.templates import Matcher, literal

    msgid = "or name it: !{{sys.executable}} -m pip install ...; then restart the kernel"
    assert (
        literal(msgid)
        == "or name it: !{sys.executable} -m pip install ...; then restart the kernel"
    )
    assert literal("CUDA {m.cuda} and {{0: 1}}") == "CUDA   and {0: 1}"
    matcher = Matcher(
        {msgid: "或显式指定解释器：!{{sys.executable}} -m pip install ...；然后重启 kernel"}
    )
    assert matcher("or name it: !{sys.executable} -m pip install ...; then restart the kernel") == (
        "或显式指定解释器：!{sys.executable} -m pip install ...；然后重启 kernel"
    )
