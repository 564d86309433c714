"""What PyTorch's out-of-memory message says about where the GPU's memory went.

The message gives the card's total, what is free and what this process's PyTorch holds:

- before torch 2.1: "(GPU 0; 47.54 GiB total capacity; 194.45 MiB already allocated; 4.88 MiB
  free; 686.00 MiB reserved in total by PyTorch)";
- from 2.1: "GPU 0 has a total capacity of 23.64 GiB of which 11.06 MiB is free. Including
  non-PyTorch memory, this process has 1.20 GiB memory in use." (or, without that sentence, what
  PyTorch allocated and reserved: "Of the allocated memory 7.13 GiB is allocated by PyTorch, and
  127.09 MiB is reserved by PyTorch but unallocated");
- older releases: "...; 340.00 MiB free; 551.04 MiB cached)" (reserved = allocated + cached).

What is neither free nor this process's is held elsewhere: another process (an earlier run, a
notebook, another user's job) or a library in this process outside PyTorch's allocator (JAX and
TensorFlow reserve most of a GPU by default). When that is most of the card, no batch size helps:
the fix is to free it or use another GPU. Sizes are whole GiB (rounded down for what is held
elsewhere) and a share in percent, so conditions compare them as numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

FACT_NAMES = ("memory.total_gib", "memory.elsewhere_gib", "memory.elsewhere_share")

# a size as PyTorch prints it: "4.88 MiB", "47.54 GiB", "0 bytes" (two groups: number, unit)
_S = r"(\d+(?:\.\d+)?) ([KMG]iB|bytes)"
# before 2.1: "(GPU 0; T total capacity; A already allocated; F free; R reserved in total by
# PyTorch)", older still "...; F free; C cached)" (reserved = allocated + cached)
_OLD = re.compile(
    rf"\(GPU \d+; {_S} total capacity; {_S} already allocated; {_S} free; {_S} "
    r"(reserved in total by PyTorch|cached)"
)
_NEW_TOTAL = re.compile(rf"total capacity of {_S} of which {_S} is free")
_NEW_THIS = re.compile(rf"this process has {_S} memory in use")
_NEW_PYTORCH = re.compile(
    rf"Of the allocated memory {_S} is allocated by PyTorch, and {_S} is reserved by PyTorch"
)
_UNIT = {"KiB": 1 / 2**20, "MiB": 1 / 2**10, "GiB": 1.0, "bytes": 1 / 2**30}


def _gib(number: str, unit: str) -> float:
    return float(number) * _UNIT[unit]


def memory_facts(lines: Iterable[str]) -> dict[str, Any]:
    """The card's total GiB, and the GiB and share of it held outside this process's PyTorch,
    from the first out-of-memory message that states them (empty when none does)."""
    for line in lines:
        if "total capacity" not in line:
            continue
        old = _OLD.search(line)
        if old:
            g = old.groups()
            total, allocated, free, held = (
                _gib(g[0], g[1]),
                _gib(g[2], g[3]),
                _gib(g[4], g[5]),
                _gib(g[6], g[7]),
            )
            mine = held if g[8].startswith("reserved") else allocated + held
            return _facts(total, total - free - mine)
        new = _NEW_TOTAL.search(line)
        if new is None:
            continue
        total, free = _gib(*new.groups()[0:2]), _gib(*new.groups()[2:4])
        this, pytorch = _NEW_THIS.search(line), _NEW_PYTORCH.search(line)
        if this:
            return _facts(total, total - free - _gib(*this.groups()))
        if pytorch:
            g = pytorch.groups()
            return _facts(total, total - free - _gib(g[0], g[1]) - _gib(g[2], g[3]))
    return {}


def _facts(total: float, elsewhere: float) -> dict[str, Any]:
    if total <= 0:
        return {}
    elsewhere = max(0.0, elsewhere)
    return {
        "memory.total_gib": round(total),
        "memory.elsewhere_gib": int(elsewhere),
        "memory.elsewhere_share": int(100 * elsewhere / total),
    }
