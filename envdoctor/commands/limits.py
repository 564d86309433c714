"""Validators shared by the commands' numeric and path options: finite, in range, existing.

A number that is not finite (`nan`, `inf`, `1e309`) or out of range is a usage error (exit 2)
that names the option and the value, never a deadline that silently disappears or a traceback
further in. The ranges are the widest a real use needs, not tuning knobs.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable

# Seconds: a deadline longer than a day is a typo, and nothing envdoctor runs takes that long.
TIMEOUT_MAX_S = 86_400.0
FLEET_JOBS_MAX = 1024


def finite_number(
    flag: str, value: object, low: float, high: float, low_open: bool = True
) -> float:
    """`value` (a number or its text) as a float in (low, high] (or [low, high] with
    `low_open=False`); ValueError with a one-line reason naming `flag` otherwise."""
    if isinstance(value, bool):
        raise ValueError(f"{flag} {value!r}: not a number")
    try:
        number = float(str(value).strip()) if isinstance(value, str) else float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{flag} {str(value)!r}: not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{flag} {str(value)!r}: must be a finite number")
    below = number <= low if low_open else number < low
    if below or number > high:
        if low_open and low == 0:
            raise ValueError(f"{flag} {str(value)!r}: must be positive and at most {high:g}")
        bracket = "(" if low_open else "["
        raise ValueError(f"{flag} {str(value)!r}: must be in {bracket}{low:g}, {high:g}]")
    return number


def whole_number(flag: str, value: object, low: int, high: int) -> int:
    """`value` as an int in [low, high]; ValueError naming `flag` otherwise."""
    text = str(value).strip()
    try:
        number = int(text)
    except ValueError:
        raise ValueError(f"{flag} {text!r}: not a whole number") from None
    if not low <= number <= high:
        raise ValueError(f"{flag} {text!r}: must be from {low} to {high}")
    return number


def seconds_type(flag: str) -> Callable[[str], float]:
    """An argparse `type` for a deadline in seconds: finite, above 0, at most a day."""

    def parse(text: str) -> float:
        try:
            return finite_number(flag, text, 0.0, TIMEOUT_MAX_S)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(_without_flag(str(exc), flag)) from None

    parse.__name__ = "seconds"
    return parse


def whole_type(flag: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse `type` for a whole number in [low, high]."""

    def parse(text: str) -> int:
        try:
            return whole_number(flag, text, low, high)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(_without_flag(str(exc), flag)) from None

    parse.__name__ = "whole number"
    return parse


def output_path(text: str) -> str:
    """An argparse `type` for a file to write: any path but an empty one (which had silently
    meant the default file or stdout)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path: give a file name, or - for stdout")
    return text


def existing_path(flag: str, path: str | None, want: str) -> None:
    """Raise ValueError naming `path` unless it exists as `want` ("file", "dir", "executable")."""
    if path is None:
        return
    if want == "dir":
        ok = os.path.isdir(path)
        what = "no such folder"
    elif want == "executable" and os.sep not in path:  # a name looked up on PATH
        import shutil

        ok = shutil.which(path) is not None
        what = "not found on PATH"
    elif want == "executable":
        ok = os.path.isfile(path) and os.access(path, os.X_OK)
        what = "no such file" if not os.path.exists(path) else "not an executable file"
    else:
        ok = os.path.isfile(path)
        what = "no such file"
    if not ok:
        raise ValueError(f"{flag} {path}: {what}")


def _without_flag(message: str, flag: str) -> str:
    """argparse prefixes 'argument --flag:' itself."""
    return message.removeprefix(f"{flag} ")
