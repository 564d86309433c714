"""`envdoctor preflight`: the requirement language (`requirements`) and how a snapshot is judged
by it (`judge`). The command itself is `envdoctor.commands.preflight`."""

from __future__ import annotations

from envdoctor import callable_as_api

callable_as_api(__name__)  # `envdoctor.preflight(...)` still calls the API after this import
