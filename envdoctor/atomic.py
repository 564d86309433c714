"""Writing a file so that readers see the old content or the new, never half of it.

The text goes to a temporary file in the target's folder, is flushed to disk, and is renamed over
the target (`os.replace`, atomic on POSIX and Windows). On any failure the temporary file is
removed and an existing target is left exactly as it was.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_text_atomically(path: Path | str, text: str, mode: int | None = None) -> None:
    """Replace `path` with `text` (UTF-8) atomically; `mode` sets its permission bits (e.g. 0o600)."""
    import tempfile

    path = Path(path)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
