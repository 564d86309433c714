"""Property-based tests: every reader, the triage driver and the snapshot and report loaders get
arbitrary text, bytes, truncations and mutations of real captures, huge lines and deeply nested
or enormous JSON; the only outcomes are facts or the documented input error.

- a reader's `detect` returns a bool and its `read` a list of fact groups ([] when the text is not
  its format): it never raises;
- the triage driver (`ingest_text`, and `envdoctor triage`'s own path from a file's bytes) always
  returns a pasted snapshot / a report whose JSON renders; a file it cannot read is the
  documented `UsageError` (exit 2);
- `Snapshot.from_json` / `from_dict` and `Report.from_dict` return a value or raise `ValueError`.

A bounded number of examples runs by default (the whole file stays well under a minute on two
cores); `ENVDOCTOR_HYPOTHESIS_PROFILE=long python -m pytest tests/test_properties.py` runs a
long search locally (see README, "Speed and robustness").
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
from pathlib import Path

import pytest
from conftest import REAL_CAPTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envdoctor.commands import UsageError
from envdoctor.ingest import READER_MODULES, ingest_text, iter_decoded_blocks
from envdoctor.model.report import Report
from envdoctor.model.snapshot import FactGroup, Snapshot, Status

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("ENVDOCTOR_HYPOTHESIS_PROFILE", "ci"))

READERS = [importlib.import_module(f"envdoctor.ingest.{name}") for name in READER_MODULES]


def _captures() -> list[str]:
    """Every real capture under tests/fixtures/real (text, leniently decoded)."""
    root = REAL_CAPTURES
    return [
        p.read_bytes().decode("utf-8", "replace")
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "SOURCES.md"
    ]


CAPTURES = _captures()

# Text that looks like the formats: their markers, mixed with noise.
MARKER_WORDS = [
    "NVIDIA-SMI",
    "Driver Version:",
    "CUDA Version:",
    "<?xml",
    "<nvidia_smi_log>",
    "PyTorch version:",
    "Is CUDA available:",
    "Collecting environment information...",
    "NVRM: Xid",
    "LnkSta:",
    "Server Version:",
    "Runtimes:",
    "NVRM version:",
    "nvcc: NVIDIA (R) Cuda compiler",
    "Cuda compilation tools, release 12.4",
    "libcudart.so.12 =>",
    "ROCk module",
    "Agent 1",
    "gfx1100",
    "Package",
    "Version",
    "------",
    '"schema_version": 1',
    '"groups": {',
    "envdoctor-report-json",
    "# R36 (release), REVISION: 4.3",
    "OpenGL renderer string:",
    "Traceback (most recent call last):",
    "RuntimeError: CUDA error",
    "{",
    "}",
    "[",
    "]",
    '"',
    ":",
    "\n",
    "\t",
    "  ",
    "|",
    "=",
    "\x00",
    "\ufffd",
    "显存不足",
]
marker_text = st.lists(
    st.one_of(st.sampled_from(MARKER_WORDS), st.text(max_size=30)), max_size=60
).map("".join)
any_text = st.one_of(st.text(max_size=3000), marker_text)


def mutate(text: str, data: st.DataObject) -> str:
    """One mutation of `text`: cut, slice out, repeat a slice, splice in noise or flip characters."""
    if not text:
        return text
    n = len(text)
    kind = data.draw(st.sampled_from(["truncate", "delete", "repeat", "insert", "flip", "digits"]))
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(i, min(n, i + 4000)))
    if kind == "truncate":
        return text[:i]
    if kind == "delete":
        return text[:i] + text[j:]
    if kind == "repeat":
        return text[:j] + text[i:j] * data.draw(st.integers(2, 20)) + text[j:]
    if kind == "insert":
        return text[:i] + data.draw(any_text) + text[i:]
    if kind == "flip":
        chars = list(text)
        for k in data.draw(st.lists(st.integers(0, n - 1), max_size=40)):
            chars[k] = chr((ord(chars[k]) * 7 + 13) % 0x2FFF or 1)
        return "".join(chars)
    return "".join("9" if c.isdigit() else c for c in text[:i]) + text[i:]


def assert_groups(groups: object, reader: str) -> None:
    """A reader's result: a list of well-formed fact groups."""
    assert isinstance(groups, list), reader
    for group in groups:
        assert isinstance(group, FactGroup), reader
        assert isinstance(group.name, str) and group.name, reader
        assert isinstance(group.status, Status), reader
        assert isinstance(group.data, dict), reader
        json.dumps(group.to_dict(include_raw=True))  # JSON-ready, as the renderers need


def read_all(text: str) -> None:
    """Every reader's detect and read on `text`: a bool and a list of groups, never an exception."""
    for reader in READERS:
        detected = reader.detect(text)
        assert isinstance(detected, bool), reader.__name__
        assert_groups(reader.read(text), reader.__name__)


def assert_pasted(snapshot: Snapshot) -> None:
    """The triage driver's result."""
    assert isinstance(snapshot, Snapshot) and snapshot.origin == "pasted"
    Snapshot.from_json(snapshot.to_json())  # what it built reads back


# -- readers and the triage driver --------------------------------------------------------------


@given(any_text)
def test_readers_on_arbitrary_text(text):
    read_all(text)


@given(st.binary(max_size=4000))
def test_readers_on_bytes_decoded_as_triage_decodes_them(raw):
    text = "\n".join(iter_decoded_blocks(io.BytesIO(raw)))
    read_all(text)
    assert_pasted(ingest_text(text))


@given(st.data())
def test_readers_on_mutated_real_captures(data):
    capture = data.draw(st.sampled_from(CAPTURES))
    text = mutate(capture, data)
    read_all(text)
    assert_pasted(ingest_text(text))


@given(any_text)
def test_triage_driver_on_arbitrary_text(text):
    assert_pasted(ingest_text(text))


@given(st.data())
def test_triage_command_path_on_mutated_bytes(tmp_path_factory, data):
    from envdoctor.commands import triage
    from envdoctor.render import render

    capture = data.draw(st.sampled_from(CAPTURES)).encode("utf-8")
    cut = data.draw(st.integers(0, len(capture)))
    noise = data.draw(st.binary(max_size=300))
    path = tmp_path_factory.mktemp("paste") / "paste.txt"
    path.write_bytes(noise + capture[:cut])
    try:
        report = triage.triage_blocks(triage._input_blocks(str(path)))
    except UsageError:  # the documented refusal: nothing but white space once decoded
        with path.open("rb") as handle:
            assert "".join(iter_decoded_blocks(handle)).strip() == ""
        return
    json.loads(render(report, "json"))


HUGE = {
    "one 2 MiB line": "x" * (2 * 1024 * 1024),
    "100 000 brackets": "[" * 100_000,
    "100 000 nested arrays": "[" * 100_000 + "]" * 100_000,
    "nested objects in a report": '{"schema_version": 1, "groups": '
    + '{"a":' * 50_000
    + "1"
    + "}" * 50_000
    + "}",
    "200 000 angle brackets": "<" * 200_000,
    "a 1 MiB number": "Driver Version: " + "9" * (1024 * 1024),
    "many short lines": "NVRM: Xid (PCI:0000:01:00): 31, pid=1\n" * 50_000,
    "enormous JSON list": json.dumps(
        {
            "schema_version": 1,
            "groups": {"x": {"status": "collected", "data": {"v": list(range(300_000))}}},
        }
    ),
}


@pytest.mark.parametrize("name", sorted(HUGE))
def test_readers_and_driver_on_huge_inputs(name):
    text = HUGE[name]
    read_all(text)
    assert_pasted(ingest_text(text))


# -- snapshot and report loaders ------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=30,
)


def sample_document() -> dict:
    """A real report document: this repository's golden sample."""
    return json.loads((Path(__file__).parent / "golden" / "sample.json").read_text())


def replace_somewhere(doc: object, value: object, path: list[int]) -> object:
    """`doc` with one node (chosen by `path`, indices into the keys/items met) replaced by `value`."""
    if not path or not isinstance(doc, (dict, list)) or not doc:
        return value
    if isinstance(doc, dict):
        keys = sorted(doc)
        key = keys[path[0] % len(keys)]
        return {**doc, key: replace_somewhere(doc[key], value, path[1:])}
    index = path[0] % len(doc)
    return doc[:index] + [replace_somewhere(doc[index], value, path[1:])] + doc[index + 1 :]


@given(st.text(max_size=2000))
def test_snapshot_from_json_on_arbitrary_text(text):
    with contextlib.suppress(ValueError):
        Snapshot.from_json(text)


@given(json_values, st.lists(st.integers(0, 50), max_size=6))
def test_snapshot_and_report_loaders_on_mutated_documents(value, path):
    document = replace_somewhere(sample_document(), value, path)
    for load in (
        Report.from_dict,
        lambda d: Snapshot.from_dict(
            d["snapshot"] if isinstance(d, dict) and "snapshot" in d else d
        ),
    ):
        with contextlib.suppress(ValueError):
            load(document)


@given(st.data())
def test_report_loader_on_truncated_and_mutated_json(data):
    from envdoctor.ingest import envdoctor_report

    mutated = mutate(json.dumps(sample_document(), indent=2), data)
    try:
        document = json.loads(mutated)
    except (ValueError, RecursionError):  # not JSON any more: only the reader sees it
        document = None
    if document is not None:
        with contextlib.suppress(ValueError):
            Report.from_dict(document)
    assert_groups(envdoctor_report.read(mutated), "envdoctor_report")


@pytest.mark.parametrize(
    "name", ["100 000 nested arrays", "nested objects in a report", "enormous JSON list"]
)
def test_snapshot_loader_on_huge_json(name):
    with contextlib.suppress(ValueError):
        Snapshot.from_json(HUGE[name])


@given(st.text(alphabet=st.sampled_from("aZ09-_. ~+xX"), max_size=40) | st.text(max_size=40))
def test_canonical_name_is_packagings(name):
    """envdoctor's PEP 503 spelling (model.names, which avoids importing packaging.tags) and
    packaging's canonicalize_name agree on any text."""
    from packaging.utils import canonicalize_name

    from envdoctor.model.names import canonical_name

    assert canonical_name(name) == canonicalize_name(name)
