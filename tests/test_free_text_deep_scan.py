"""The free-text reader's deep scan (past the first PROCESS_LINES notable lines) examines each
line shape once. Its fast path (shapes found with set operations) must keep exactly the lines the
plain line-by-line loop keeps, also when the shape memory fills up (MAX_SHAPES) mid-part."""

from __future__ import annotations

import random

import pytest

from envdoctor.ingest import free_text
from envdoctor.ingest.splitting import split_lines
from envdoctor.triage_engine.loader import match_anchors

ANCHORED = [
    "RuntimeError: CUDA error: no kernel image is available for execution on the device",
    "Failed to initialize NVML: Driver/library version mismatch",
    "NCCL WARN Call to ibv_reg_mr failed",
    "ImportError: libcudart.so.12: cannot open shared object file",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    "sm_86 is not compatible with the current PyTorch installation",
    "显存不足，报错 CUDA out of memory",
]
FILLER = [
    "epoch {n} step {d} loss={f:.4f}",
    "GET /health {d} OK",
    "worker-{n} heartbeat {d}",
    "note {n}: nothing to see {d}",
]


def _reference_deep_scan(self, text, lowered, line_no):  # noqa: ANN001 - the loop as it was
    if self.anchor_selector is None:
        return
    lowered_lines = lowered.split("\n")
    lines = text.split("\n")
    shapes = lowered.encode("utf-8", "surrogatepass").translate(None, b"0123456789").split(b"\n")
    seen = self.seen_shapes
    for offset, shape in enumerate(shapes):
        key = hash(shape)
        if key in seen:
            continue
        if len(seen) < free_text.MAX_SHAPES:
            seen.add(key)
        regex = self.anchor_selector
        if regex is None:
            return
        low = lowered_lines[offset]
        if regex.search(low):
            self._line(line_no + offset + 1, lines[offset], low)


def _log(seed: int, lines: int) -> str:
    rng = random.Random(seed)
    anchors = sorted(match_anchors())
    out = []
    for n in range(lines):
        if rng.random() < 0.05:
            line = rng.choice(ANCHORED) + f" at {rng.choice('xyzw')}{n}"
        elif n > lines // 3 and rng.random() < 0.03:  # anchors the head did not see
            line = f"event {n}: {rng.choice(anchors)} ({rng.choice('pqrs')})"
        else:
            line = rng.choice(FILLER).format(n=n, d=rng.randrange(10**6), f=rng.random())
        if rng.random() < 0.3:  # a new shape now and then: a word no other line has
            line += f" tag{''.join(rng.choice('abcdefgh') for _ in range(4))}"
        out.append(line)
    return "\n".join(out)


def _read(text: str) -> dict:
    collector = free_text.collector()
    for part in split_lines(text.split("\n")):
        collector.feed(part.text)
    (group,) = collector.groups()
    state = {
        "shapes": len(collector.seen_shapes),
        "extra": collector.extra,
        "seen_anchors": collector.seen_anchors,
        "useless_hits": collector.useless_hits,
        "newly_seen": collector.newly_seen,
    }
    return {**group.data, **state}


@pytest.mark.parametrize("max_shapes", [free_text.MAX_SHAPES, 3000, 50])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_fast_path_keeps_what_the_line_loop_keeps(monkeypatch, seed, max_shapes):
    monkeypatch.setattr(free_text, "MAX_SHAPES", max_shapes)
    monkeypatch.setattr(free_text, "REBUILD_AFTER_USELESS", 20)  # rebuilds happen mid-part
    text = _log(seed, 12000)
    fast = _read(text)
    monkeypatch.setattr(free_text.Collector, "_deep_scan", _reference_deep_scan)
    slow = _read(text)
    assert fast == slow
    assert fast["notable_lines_seen"] == free_text.PROCESS_LINES  # the deep scan did run
    assert fast["shapes"] <= max_shapes
