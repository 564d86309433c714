"""The torch matrices say what their sources say.

tests/data/source_quotes/torch.toml holds verbatim text from the build scripts and documents behind
matrices/torch_releases.toml, torch_arch.toml and torch_index.toml. Each test pulls the value out of
a quote the way a reader of that source would and compares it with the row, so a typo in a matrix
(or a quote pasted for the wrong row) fails CI. The files are read with tomllib directly, not
through the loader, so these checks do not depend on it.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
MATRICES = ROOT / "matrices"
QUOTES_FILE = ROOT / "tests" / "data" / "source_quotes" / "torch.toml"
OWN_TABLES = ["torch_releases", "torch_arch", "torch_index", "python_frameworks", "cudnn"]
KEY_FIELDS = ("torch", "variant", "os")


def _load(name: str) -> dict:
    return tomllib.loads((MATRICES / f"{name}.toml").read_text(encoding="utf-8"))


TABLES = {name: _load(name) for name in OWN_TABLES}
QUOTES = tomllib.loads(QUOTES_FILE.read_text(encoding="utf-8"))["quotes"]


def _row_for(quote: dict) -> dict:
    table = TABLES[quote["table"]]
    keys = {k: quote[k] for k in KEY_FIELDS if k in quote}
    hits = [r for r in table["rows"] if all(r.get(k) == v for k, v in keys.items())]
    assert len(hits) == 1, f"{quote['table']} has {len(hits)} rows for {keys}"
    return hits[0]


def _quote_id(quote: dict) -> str:
    keys = "/".join(str(quote[k]) for k in KEY_FIELDS if k in quote)
    return f"{quote['table']}:{keys}:{quote['field']}"


# -- extraction: how a reader gets the value out of each kind of source text ------------------------
def _channel_list(text: str, channel: str) -> list[str]:
    """The list of one channel in a test-infra `*_ARCHES_DICT = {...}` block."""
    match = re.search(rf'"{channel}":\s*\[([^\]]*)\]', text)
    assert match, f"no {channel!r} list in {text!r}"
    return re.findall(r'"([^"]+)"', match.group(1))


def _arches_from_arch_list(spec: str) -> list[str]:
    """TORCH_CUDA_ARCH_LIST "5.0;6.0;8.6+PTX" -> sm_XY per entry in order, then compute_XY per +PTX."""
    sass, ptx = [], []
    for entry in filter(None, (e.strip() for e in spec.split(";"))):
        code = entry.replace("+PTX", "").replace(".", "")
        sass.append(f"sm_{code}")
        if entry.endswith("+PTX"):
            ptx.append(f"compute_{code}")
    return sass + ptx


def _cuda_arches(quote: dict) -> list[str]:
    text = quote["quote"]
    if quote.get("measured") == "get_arch_list":
        # get_arch_list() printed as a list, or the CUDA_ARCH_FLAGS string it splits on whitespace
        return re.findall(r"\b(?:sm|compute)_\d+[a-z]?\b", text)
    if text.startswith("|"):
        # RELEASE.md "PyTorch CUDA Support Matrix" row: | CUDA | architectures | notes |
        cells = text.split("|")
        linux_only_ptx = "linux builds only" in cells[3]
        sass, ptx = [], []
        for major, minor, plus in re.findall(r"(\d+)\.(\d+)(\+PTX)?", cells[2]):
            sass.append(f"sm_{major}{minor}")
            if plus and (quote["os"] == "linux" or not linux_only_ptx):
                ptx.append(f"compute_{major}{minor}")
        return sass + ptx
    if '"x86_64": {' in text:
        # build_env_setup.py TORCH_CUDA_ARCH_LIST_TABLE entry; torch_cuda_arch_list() sorts the CCs
        ccs = sorted(int(c) for c in re.search(r'"x86_64": \{([^}]*)\}', text).group(1).split(","))
        ptx = {int(c) for c in re.search(r"\{([^}]*)\}", quote["quote_base"]).group(1).split(",")}
        return [f"sm_{c}" for c in ccs] + [f"compute_{c}" for c in ccs if c in ptx]
    match = re.search(r'(?:TORCH_)?CUDA_ARCH_LIST="?([0-9.;+PTX${}_A-Z]+?)"?$', text.strip())
    assert match, f"no arch list in {text!r}"
    spec = match.group(1)
    if "${TORCH_CUDA_ARCH_LIST}" in spec:
        base = re.search(r'TORCH_CUDA_ARCH_LIST="([^"]*)"', quote["quote_base"]).group(1)
        spec = spec.replace("${TORCH_CUDA_ARCH_LIST}", base)
    return _arches_from_arch_list(spec)


def _rocm_version_int(variant: str) -> int:
    """ROCM_VERSION_INT the builder script computes: major*10000 + minor*100 + patch ("rocm6.2.4" -> 60204)."""
    major, minor, patch = ([int(p) for p in variant.removeprefix("rocm").split(".")] + [0, 0])[:3]
    return major * 10000 + minor * 100 + patch


def _gfx_targets(quote: dict) -> list[str]:
    """Evaluate the quoted PYTORCH_ROCM_ARCH base line and its `-ge N` appends for the row's ROCm version."""
    arch = re.fullmatch(r'PYTORCH_ROCM_ARCH="([^"]+)"', quote["quote"].strip()).group(1).split(";")
    for step in quote.get("quote_steps", []):
        threshold = int(
            re.fullmatch(
                r"if \[\[ \$ROCM_VERSION_INT -ge (\d+) \]\]; then", step["condition"]
            ).group(1)
        )
        added = re.fullmatch(
            r'PYTORCH_ROCM_ARCH(?:\+="|="\$\{PYTORCH_ROCM_ARCH\})(;[^"]+)"', step["line"]
        ).group(1)
        if _rocm_version_int(quote["variant"]) >= threshold:
            arch += [a for a in added.split(";") if a]
    return arch


def _python_range(text: str, torch: str) -> list[str]:
    """torchvision README row `| 1.12 | 0.13 | >=3.7, <=3.10 |` -> every CPython 3 minor in the range."""
    cells = text.split("|")
    assert re.fullmatch(r"\s*`([\d.]+)`\s*", cells[1]).group(1) == torch, f"row is not for {torch}"
    low = int(re.search(r"`>=3\.(\d+)(?:\.\d+)?`", cells[3]).group(1))
    high = int(re.search(r"`<=3\.(\d+)`", cells[3]).group(1))
    return [f"3.{m}" for m in range(low, high + 1)]


def _previous_versions_variants(text: str, kind: str) -> list[str]:
    """Local tags of the torch pins in pytorch.org previous-versions pip lines, oldest first."""
    tags = re.findall(rf"\bpip3? install torch==[\d.]+\+({kind}[\d.]+)\s", text)
    assert tags, f"no {kind} pins in {text!r}"
    return sorted(
        set(tags), key=lambda t: [int(p) for p in re.findall(r"\d+", t.replace("cu", ""))]
    )


PIN_FIELDS = ("pin_patch", "pin_torchvision", "pin_torchaudio", "pip_find_links")


def _previous_versions_pin(text: str, field: str) -> str:
    """One previous-versions pip line -> the pinned patch of torch / torchvision / torchaudio, or its
    -f page with the line's own wheel variant written as '{variant}'."""
    torch, variant = re.search(r"\btorch==([\d.]+)\+(\w[\w.]*)\s", text).groups()
    if field == "pin_patch":
        return torch
    if field == "pip_find_links":
        return (
            re.search(r"\s-f (https://\S+)", text).group(1).replace(f"/{variant}/", "/{variant}/")
        )
    name = field.removeprefix("pin_")
    return re.search(rf"\b{name}==([\d.]+)", text).group(1)


def _expected(quote: dict):  # noqa: ANN202 - returns the field's value type
    field, text = quote["field"], quote["quote"]
    if field == "python" and text.startswith("|"):
        return _python_range(text, quote["torch"])
    if field in ("cuda_variants", "rocm_variants") and "pip install torch==" in text:
        return _previous_versions_variants(text, "cu" if field == "cuda_variants" else "rocm")
    if field in PIN_FIELDS:
        return _previous_versions_pin(text, field)
    if field == "python":
        values = _channel_list(text, quote["channel"])
        excluded = set(re.findall(r'"([^"]+)"', quote.get("quote_exclude", "")))
        return [v for v in values if v not in excluded]
    if field == "cuda_variants":
        return ["cu" + v.replace(".", "") for v in _channel_list(text, quote["channel"])]
    if field == "rocm_variants":
        return ["rocm" + v for v in _channel_list(text, quote["channel"])]
    if field == "pypi_default_linux_x86_64":
        if "STABLE_CUDA_VERSIONS" in text:
            version = re.search(r'"release":\s*"([\d.]+)"', text).group(1)
        else:
            version = re.search(
                r'gpu_arch_version == "([\d.]+)" and os == (?:"linux"|LINUX)', text
            ).group(1)
        return "cu" + version.replace(".", "")
    if field == "torchvision":
        torch, vision = re.match(r"\|\s*`([\d.]+)`\s*\|\s*`([\d.]+)`", text).groups()
        assert torch == quote["torch"], f"README line is for torch {torch}"
        return vision
    if field == "cudnn":
        match = re.search(r'"cudnn":\s*"(\d+)"', text) or re.search(r"(\d+\.\d+\.\d+\.\d+)", text)
        return match.group(1)
    if field == "cuda_arches":
        return _cuda_arches(quote)
    if field == "gfx_targets":
        if quote.get("measured") == "get_arch_list":
            return re.findall(r"\bgfx[0-9a-f]{3,4}\b", text)
        return _gfx_targets(quote)
    raise AssertionError(f"no extraction rule for field {field!r}")


ROW_QUOTES = [q for q in QUOTES if q.get("variant") != "*"]
MEASURED_QUOTES = [q for q in ROW_QUOTES if q.get("measured")]


def _measured_build(context: list[str]) -> tuple[str | None, str | None, str | None]:
    """(torch minor, variant, os) that a measured quote's context lines name, None where they name none."""
    torch = variant = os = None
    for line in context:
        if m := re.search(
            r"^(?:__version__ = )?'(\d+\.\d+)\.\d+\+([\w.]+)'$", line
        ):  # version.py or torch.__version__
            torch, variant = m.groups()
        elif m := re.fullmatch(r"#+ PyTorch (\d+\.\d+)(?:\.\d+)?", line):
            torch = m.group(1)
        elif m := re.fullmatch(r"#+ CUDA (\d+)\.(\d+)", line):
            variant = f"cu{m.group(1)}{m.group(2)}"
        if "manylinux" in line or line == "Linux:":
            os = "linux"
        elif "win_amd64" in line or line == "Windows:":
            os = "windows"
    if os is None and variant and variant.startswith("rocm"):
        os = "linux"  # official ROCm wheels are built for Linux only
    return torch, variant, os


RULE_QUOTES = [q for q in QUOTES if q.get("variant") == "*"]


@pytest.mark.parametrize("quote", ROW_QUOTES, ids=_quote_id)
def test_row_value_matches_quote(quote: dict) -> None:
    row = _row_for(quote)
    assert row.get(quote["field"]) == _expected(quote)


@pytest.mark.parametrize("quote", ROW_QUOTES, ids=_quote_id)
def test_quote_url_is_a_source_of_its_row(quote: dict) -> None:
    row = _row_for(quote)
    assert quote["url"] in [row["source"], *row.get("sources", [])]


@pytest.mark.parametrize("quote", MEASURED_QUOTES, ids=_quote_id)
def test_measured_quote_names_the_build_of_its_row(quote: dict) -> None:
    assert quote["measured"] == "get_arch_list" and quote["field"] in ("cuda_arches", "gfx_targets")
    assert _measured_build(quote["quote_context"]) == (
        quote["torch"],
        quote["variant"],
        quote["os"],
    )
    assert "measured" in _row_for(quote)["note"].lower(), "a measured row must say so in its note"


def test_measured_build_reads_both_context_forms() -> None:
    assert _measured_build(
        ["torch-2.7.0-cp311-cp311-manylinux_2_28_x86_64.whl", "__version__ = '2.7.0+cu126'"]
    ) == ("2.7", "cu126", "linux")
    assert _measured_build(["### PyTorch 2.7.1", "#### CUDA 12.8", "Windows:"]) == (
        "2.7",
        "cu128",
        "windows",
    )
    assert _measured_build(["### PyTorch 2.10", "Linux:"]) == ("2.10", None, "linux")
    assert _measured_build(["'2.7.1+rocm6.2.4'"]) == ("2.7", "rocm6.2.4", "linux")


def test_rocm_steps_follow_the_script_arithmetic() -> None:
    assert _rocm_version_int("rocm6.2.4") == 60204 and _rocm_version_int("rocm5.7") == 50700
    step = {
        "condition": "if [[ $ROCM_VERSION_INT -ge 60000 ]]; then",
        "line": 'PYTORCH_ROCM_ARCH+=";gfx942"',
    }
    base = {"quote": 'PYTORCH_ROCM_ARCH="gfx900;gfx1100"', "quote_steps": [step]}
    assert _gfx_targets({**base, "variant": "rocm5.7"}) == ["gfx900", "gfx1100"]
    assert _gfx_targets({**base, "variant": "rocm6.0"}) == ["gfx900", "gfx1100", "gfx942"]


def test_rocm_rows_carry_gfx_targets_only() -> None:
    for row in TABLES["torch_arch"]["rows"]:
        rocm = row["variant"].startswith("rocm")
        assert ("gfx_targets" in row) == rocm and ("cuda_arches" in row) != rocm, row
        assert not rocm or (
            row["os"] == "linux"
            and all(re.fullmatch(r"gfx[0-9a-f]{3,4}", g) for g in row["gfx_targets"])
        )


def test_index_urls_follow_the_build_matrix_rule() -> None:
    rules = {q["field"]: q for q in RULE_QUOTES}
    base = re.search(r'DOWNLOAD_URL_BASE = "([^"]+)"', rules["index_url"]["quote_base"]).group(1)
    body = rules["index_url"]["quote"]
    # release channel: <base>/whl/<desired_cuda>, CPU: <base>/whl/cpu
    assert 'f"{DOWNLOAD_URL_BASE}/{repo}"' in body
    assert "base_url_for_type if channel == RELEASE else" in body
    assert 'f"{base_url_for_type}/{desired_cuda}"' in body
    assert 'f"{base_url_for_type}/{gpu_arch_type}"' in body
    assert "cu{gpu_arch_version.replace('.', '')}" in rules["cuda"]["quote"]
    assert "rocm{gpu_arch_version}" in rules["rocm"]["quote"]
    for row in TABLES["torch_index"]["rows"]:
        assert row["index_url"] == f"{base}/whl/{row['variant']}"
        if row["kind"] == "cuda":
            assert row["variant"] == "cu" + row["cuda"].replace(".", "")
        if row["kind"] == "rocm":
            assert row["variant"] == "rocm" + row["rocm"]


def test_every_verified_arch_row_and_release_list_is_quoted() -> None:
    quoted = {
        (q["table"], q.get("torch"), q.get("variant"), q.get("os"), q["field"]) for q in ROW_QUOTES
    }
    for row in TABLES["torch_arch"]["rows"]:
        if not row.get("unverified"):
            field = "gfx_targets" if "gfx_targets" in row else "cuda_arches"
            assert ("torch_arch", row["torch"], row["variant"], row["os"], field) in quoted, row
    for row in TABLES["torch_releases"]["rows"]:
        for field in ("python", "rocm_variants"):
            assert ("torch_releases", row["torch"], None, None, field) in quoted, (
                row["torch"],
                field,
            )


def test_install_pins_of_old_releases_are_quoted() -> None:
    quoted = {(q.get("torch"), q["field"]) for q in ROW_QUOTES if q["table"] == "torch_releases"}
    for row in TABLES["torch_releases"]["rows"]:
        for field in PIN_FIELDS:
            if field in row:
                assert (row["torch"], field) in quoted, (row["torch"], field)
        if row.get("variants_complete") is False:
            assert "pin_patch" in row and (row["torch"], "cuda_variants") in quoted, row["torch"]


def test_variants_of_releases_have_an_index_and_linux_arch_rows() -> None:
    index = {r["variant"] for r in TABLES["torch_index"]["rows"]}
    arch = {(r["torch"], r["variant"]) for r in TABLES["torch_arch"]["rows"] if r["os"] == "linux"}
    for row in TABLES["torch_releases"]["rows"]:
        for variant in row["cuda_variants"] + row["rocm_variants"]:
            assert variant in index, variant
        for variant in row["cuda_variants"]:
            assert (row["torch"], variant) in arch, (row["torch"], variant)
        if "pypi_default_linux_x86_64" in row:
            assert row["pypi_default_linux_x86_64"] in row["cuda_variants"]


@pytest.mark.parametrize("name", OWN_TABLES)
def test_every_row_has_an_https_source_and_a_checked_date(name: str) -> None:
    for row in TABLES[name]["rows"]:
        assert isinstance(row.get("source"), str) and row["source"].startswith("https://"), row
        for url in row.get("sources", []):
            assert url.startswith("https://") and " " not in url, url
        assert isinstance(row.get("checked"), date), row
        if row.get("unverified"):
            assert row.get("note"), f"unverified row without a note: {row}"


@pytest.mark.parametrize("name", OWN_TABLES)
def test_sources_cite_originals_not_the_notes(name: str) -> None:
    for row in TABLES[name]["rows"]:
        for url in [row["source"], *row.get("sources", [])]:
            assert "/shared/reference" not in url and not url.startswith("file:"), url
