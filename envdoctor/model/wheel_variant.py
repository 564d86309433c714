"""The variant of a wheel, read from the PEP 440 local label of its version.

torch spells its build in the label ("2.7.1+cu128", "2.3.0+rocm6.0", "2.0.0.dev+cpu-cxx11-abi");
so do the extensions built against it ("+pt25cu124", "+cu118"). torch.__version__ keeps the label
(also on a PyPI Windows wheel); pip metadata of a PyPI upload does not, so the variant is read
from torch.__version__ where there is one.
"""

from __future__ import annotations

import re
from typing import Any

_TORCH_VARIANT = re.compile(r"^(cpu|cu\d+|rocm\d+(?:\.\d+)*|xpu)")


def local_label(version: Any) -> str | None:
    """The local label, lower case: "2.7.1+cu128" -> "cu128"; no label (or an empty one) -> None."""
    text = str(version or "").strip()
    if "+" not in text:
        return None
    return text.split("+", 1)[1].strip().lower() or None


def torch_variant(version: Any) -> str | None:
    """The torch wheel variant of a version: "2.1.2+cu121" -> "cu121", "2.0.0.dev+cpu-cxx11-abi"
    -> "cpu", "2.3.0+rocm6.0" -> "rocm6.0"; a label of another form is kept as is; None without
    a label."""
    label = local_label(version)
    if label is None:
        return None
    match = _TORCH_VARIANT.match(label)
    return match.group(1) if match else label
