"""clean_version: a version as the package reports it, from a wheel's or a web page's name."""

from __future__ import annotations

import pytest

from envdoctor.model.versions import clean_version


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1.4.0+cu101.html", "1.4.0+cu101"),  # PyG's wheel index page
        ("2.1.0+cu121-cp310-cp310-linux_x86_64.whl", "2.1.0+cu121"),  # a wheel's tags
        ("0.2.55.tar.gz", "0.2.55"),
        ("2.4.2.post117", "2.4.2.post117"),  # Paddle's CUDA suffix is part of the version
        ("2.3.1", "2.3.1"),
        ("1.13.1.", "1.13.1"),  # the end of a sentence
    ],
)
def test_clean_version(text: str, expected: str) -> None:
    assert clean_version(text) == expected
