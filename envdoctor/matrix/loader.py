"""Loading and validating the compatibility matrices (TOML files, see matrices/README.md).

`load_bundled()` reads the set shipped inside the package (`envdoctor.matrices`); `load_dir()`
reads any folder. Every file is validated as it loads: a file with errors is left out of the set
and its errors are kept (`MatrixSet.errors`), each with its file and line, so one bad file never
takes the others down. `lint()` adds the cross-file checks.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from itertools import chain, repeat
from pathlib import Path
from typing import Any

from packaging.version import VERSION_PATTERN, Version

from envdoctor import __version__
from envdoctor.model import versions

SUPPORTED_SCHEMA = 1
ROW_META = {"source", "sources", "checked", "unverified", "note"}
COLUMN_TYPES = {
    "version",
    "specifier",
    "range",
    "string",
    "int",
    "float",
    "bool",
    "url",
    "list[string]",
    "list[version]",
    "list[int]",
}
_ROWS_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*rows[ \t]*\]\]", re.MULTILINE)


@dataclass(frozen=True)
class LintError:
    """A problem in a matrix file, with the line it is on (0 when the whole file)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return (
            f"{self.path}:{self.line}: {self.message}"
            if self.line
            else f"{self.path}: {self.message}"
        )


@dataclass
class Matrix:
    """One validated table. `rows` are plain dicts as TOML parses them."""

    name: str
    title: str
    schema_version: int
    columns: dict[str, str]
    key: tuple[str, ...]
    rows: list[dict[str, Any]]
    path: str
    description: str = ""
    min_envdoctor: str | None = None
    row_lines: list[int] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def newest_checked(self) -> date | None:
        """The most recent `checked` date of any row."""
        dates = [r["checked"] for r in self.rows if isinstance(r.get("checked"), date)]
        return max(dates) if dates else None

    def where(self, **conditions: Any) -> list[dict[str, Any]]:
        """Rows whose columns equal the given values."""
        return [r for r in self.rows if all(r.get(k) == v for k, v in conditions.items())]


class MissingMatrix(KeyError):
    """A table the set does not have, or whose file failed validation when it was read."""


class MatrixSet:
    """All matrices of one set (bundled, or an installed update), with load errors.

    A set made by `load_dir` reads its files lazily: `get`/`table` parse and validate only the
    file of the table asked for, so a command pays only for the tables its checks use; `tables`,
    `errors` and `names()` read every remaining file first (the full view lint and list need).
    """

    def __init__(
        self,
        tables: dict[str, Matrix] | None = None,
        errors: list[LintError] | None = None,
        origin: str = "bundled",
        pending: dict[str, Path] | None = None,
    ) -> None:
        self._tables: dict[str, Matrix] = dict(tables or {})
        self._errors: list[LintError] = list(errors or [])
        self.origin = origin
        self._pending: dict[str, Path] = dict(
            pending or {}
        )  # table name (file stem) -> file not read yet
        self._lock = threading.Lock()
        # what a user may want to know under -v: a fallback taken, a damaged cache entry ignored
        self.notes: list[str] = []

    def __repr__(self) -> str:
        return f"MatrixSet(origin={self.origin!r}, tables={sorted(self._tables)}, pending={sorted(self._pending)})"

    @property
    def tables(self) -> dict[str, Matrix]:
        """Every valid table by name (reads the files not read yet)."""
        self._load_all()
        return self._tables

    @property
    def errors(self) -> list[LintError]:
        """Every file's validation errors (reads the files not read yet)."""
        self._load_all()
        return self._errors

    def table(self, name: str) -> Matrix:
        """The table called `name`; KeyError when the set lacks it."""
        found = self.get(name)
        if found is None:
            raise MissingMatrix(f"matrix {name!r} is not in the {self.origin} set")
        return found

    def has(self, name: str) -> bool:
        """Whether the set has a table called `name`, without reading its file (one that fails
        validation is found out when `get`/`table` reads it)."""
        return name in self._tables or name in self._pending

    def get(self, name: str) -> Matrix | None:
        """The table called `name`, or None."""
        if name in self._pending:
            self._load(name)
        return self._tables.get(name)

    def names(self) -> list[str]:
        """Table names, sorted."""
        return sorted(self.tables)

    def _load(self, name: str) -> None:
        with self._lock:
            path = self._pending.pop(name, None)
            if path is None:
                return
            matrix, errors = load_file(path, self.notes)
            self._errors.extend(errors)
            if matrix is not None and not errors:
                self._tables[matrix.name] = matrix

    def _load_all(self) -> None:
        for name in sorted(self._pending):
            self._load(name)


def bundled_dir() -> Path:
    """The folder of the matrices shipped with envdoctor."""
    import envdoctor.matrices

    if envdoctor.matrices.__file__:  # a folder on disk, as pip installs it
        return Path(envdoctor.matrices.__file__).parent
    from importlib import resources  # a zip or another loader: its own way to the files

    return Path(str(resources.files("envdoctor.matrices")))


def load_bundled() -> MatrixSet:
    """The matrices shipped with this envdoctor."""
    return load_dir(bundled_dir(), origin="bundled")


def load_dir(folder: Path | str, origin: str | None = None) -> MatrixSet:
    """The set of every `*.toml` in `folder`; each file is read and validated when first used."""
    folder = Path(folder)
    return MatrixSet(
        origin=origin or str(folder),
        pending={path.stem: path for path in sorted(folder.glob("*.toml"))},
    )


def load_file(path: Path, notes: list[str] | None = None) -> tuple[Matrix | None, list[LintError]]:
    """Parse and validate one matrix file, or read it from the compiled cache when the cache holds
    this very file's table as this envdoctor validated it (`envdoctor.matrix.cache`); a cache
    entry with the right key that does not hold a valid table is noted in `notes`."""
    from envdoctor.matrix import cache as matrix_cache

    shown = path.name
    try:  # the file's status: a cached table is not read again (`files_key`)
        entry = matrix_cache.files_key([path], __version__)
    except OSError as exc:
        return None, [LintError(shown, 0, f"cannot read: {exc}")]
    fields = matrix_cache.load(path.stem, entry)
    cached = _from_cache(fields, shown)
    if cached is not None:
        return cached, []
    if fields is not None and notes is not None:
        notes.append(f"the compiled cache entry of {shown} is damaged: parsed the file again")
    try:  # a regular file only: an installed set lives in a user-writable cache folder
        text = matrix_cache.read_regular_file(path, MAX_MATRIX_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [LintError(shown, 0, f"cannot read: {exc}")]
    matrix, errors = parse_matrix(text, shown, expected_name=path.stem)
    if matrix is not None and not errors:
        matrix_cache.store(path.stem, entry, _cache_fields(matrix))
    return matrix, errors


MAX_MATRIX_BYTES = 16 * 1024 * 1024
_PEP440 = re.compile(VERSION_PATTERN, re.VERBOSE | re.IGNORECASE)
_CACHED_FIELDS = (
    "name",
    "title",
    "schema_version",
    "columns",
    "key",
    "rows",
    "description",
    "min_envdoctor",
    "row_lines",
    "meta",
)


def _cache_fields(matrix: Matrix) -> dict[str, Any]:
    return {name: getattr(matrix, name) for name in _CACHED_FIELDS}


def _from_cache(fields: dict[str, Any] | None, path: str) -> Matrix | None:
    """The Matrix of a cache entry's fields, None when they do not make one.

    The entry's key proves only that it was written for this file; its content is checked again
    (every field's type, every cell against its column's type, every row's source and date), so
    an entry damaged or forged with the right key is parsed again from the TOML instead of
    reaching a check as a list where a string belongs."""
    if fields is None or set(fields) != set(_CACHED_FIELDS) or not _cached_shape_ok(fields):
        return None
    try:
        return Matrix(**{**fields, "key": tuple(fields["key"]), "path": path})
    except TypeError:
        return None


def _cached_shape_ok(fields: dict[str, Any]) -> bool:
    """Whether a compiled-cache entry holds what `parse_matrix` would have produced."""
    columns, rows, lines = fields["columns"], fields["rows"], fields["row_lines"]
    if not (
        isinstance(fields["name"], str)
        and isinstance(fields["title"], str)
        and isinstance(fields["description"], str)
        and isinstance(fields["schema_version"], int)
        and isinstance(fields["meta"], dict)
        and (fields["min_envdoctor"] is None or isinstance(fields["min_envdoctor"], str))
        and isinstance(columns, dict)
        and all(isinstance(k, str) and v in COLUMN_TYPES for k, v in columns.items())
        and isinstance(fields["key"], list)
        and all(isinstance(k, str) and k in columns for k in fields["key"])
        and isinstance(rows, list)
        and isinstance(lines, list)
        and len(lines) == len(rows)
        and all(isinstance(n, int) for n in lines)
    ):
        return False
    if set(map(type, rows)) - {dict}:
        return False
    problems: list[str] = []
    for row in rows:
        _check_row_meta(row, "", 0, lambda _line, message: problems.append(message))
        if problems:
            return False
    if set().union(*rows) - ROW_META - set(columns):
        return False  # a cell of a column the table does not have
    return all(
        _cached_cells_ok(kind, [row[column] for row in rows if column in row])
        for column, kind in columns.items()
    )


def _cached_cells_ok(kind: str, values: list[Any]) -> bool:
    """`_cached_cell_ok` for all of a column's cells at once (its checks over the whole list:
    a table's ten thousand cells one by one were a twentieth of a short triage)."""
    types = set(map(type, values))
    if kind.startswith("list["):
        return types <= {list} and _cached_cells_ok(kind[5:-1], list(chain.from_iterable(values)))
    if kind in ("string", "specifier"):
        return types <= {str}
    if kind == "version":
        return types <= {str} and all(map(_PEP440.fullmatch, values))
    if kind == "url":
        return types <= {str} and all(map(str.startswith, values, repeat("https://")))
    if kind == "int":
        return types <= {int}
    if kind == "float":
        return types <= {int, float}
    if kind == "bool":
        return types <= {bool}
    return all(_cached_cell_ok(kind, value) for value in values)


def parse_matrix(
    text: str, shown: str, expected_name: str | None = None
) -> tuple[Matrix | None, list[LintError]]:
    """Validate a matrix file's text; returns the matrix (None if unusable) and its errors."""
    try:  # imported here: a run whose tables all come from the compiled cache never parses TOML
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = _toml_error_line(str(exc))
        return None, [LintError(shown, line, f"not valid TOML: {exc}")]
    errors: list[LintError] = []

    def err(line: int, message: str) -> None:
        errors.append(LintError(shown, line, message))

    schema = doc.get("schema_version")
    if not isinstance(schema, int):
        err(1, "schema_version (an integer) is missing")
        return None, errors
    if schema > SUPPORTED_SCHEMA:
        err(
            1,
            f"schema_version {schema} is newer than this envdoctor supports ({SUPPORTED_SCHEMA}); "
            "upgrade envdoctor",
        )
        return None, errors
    min_version = doc.get("min_envdoctor")
    if min_version is not None:
        if not isinstance(min_version, str) or not versions.is_valid(min_version):
            err(1, f"min_envdoctor {min_version!r} is not a version")
        elif Version(min_version) > Version(__version__):
            err(1, f"needs envdoctor >= {min_version} (this is {__version__})")
            return None, errors
    name = doc.get("name")
    if not isinstance(name, str) or not name:
        err(1, "name is missing")
    elif expected_name is not None and name != expected_name:
        err(1, f"name {name!r} differs from the file name {expected_name!r}")
    title = doc.get("title")
    if not isinstance(title, str) or not title:
        err(1, "title is missing")
    columns = doc.get("columns")
    if not isinstance(columns, dict) or not columns:
        err(1, "[columns] table is missing")
        return None, errors
    for column, kind in columns.items():
        if kind not in COLUMN_TYPES:
            err(1, f"column {column!r} has unknown type {kind!r}")
    key = doc.get("key", [])
    if not isinstance(key, list) or not all(isinstance(k, str) and k in columns for k in key):
        err(1, f"key {key!r} must list declared columns")
        key = []
    rows = doc.get("rows", [])
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        err(1, "rows must be an array of tables ([[rows]])")
        return None, errors
    lines = [text.count("\n", 0, m.start()) + 1 for m in _ROWS_HEADER.finditer(text)]
    lines += [0] * (len(rows) - len(lines))

    seen: dict[tuple, int] = {}
    for index, row in enumerate(rows):
        line = lines[index]
        label = _row_label(row, key) or f"row {index + 1}"
        _check_row_meta(row, label, line, err)
        for column, value in row.items():
            if column in ROW_META:
                continue
            if column not in columns:
                err(line, f"{label}: unknown column {column!r}")
                continue
            problem = _type_problem(columns[column], value)
            if problem:
                err(line, f"{label}: {column} {problem}")
        if key:
            missing = [k for k in key if k not in row]
            if missing:
                err(line, f"{label}: key column(s) {', '.join(missing)} missing")
            else:
                ident = tuple(_normal(row[k]) for k in key)
                if ident in seen:
                    err(line, f"{label}: duplicate key (first at line {seen[ident]})")
                else:
                    seen[ident] = line
    for column in doc.get("no_overlap", []):
        if columns.get(column) != "range":
            err(1, f"no_overlap column {column!r} is not a range column")
            continue
        errors.extend(_overlaps(rows, lines, key, column, shown))
    for column in doc.get("unique_normalized", []):
        if column not in columns:
            err(1, f"unique_normalized column {column!r} is not declared")
    errors.extend(_normalized_duplicates(rows, lines, doc.get("unique_normalized", []), shown))
    if errors:
        return None, errors
    meta = {
        k: v
        for k, v in doc.items()
        if k
        not in {
            "schema_version",
            "min_envdoctor",
            "name",
            "title",
            "columns",
            "key",
            "rows",
            "description",
        }
    }
    return (
        Matrix(
            name=str(name),  # validated above: an error would have returned
            title=str(title),
            schema_version=schema,
            columns=columns,
            key=tuple(key),
            rows=rows,
            path=shown,
            description=str(doc.get("description", "")),
            min_envdoctor=min_version,
            row_lines=lines[: len(rows)],
            meta=meta,
        ),
        errors,
    )


def lint(folder: Path | str | None = None) -> tuple[MatrixSet, list[LintError]]:
    """Validate a set: every file, then the cross-file `references` (column -> "table.column")."""
    ms = load_dir(folder) if folder is not None else load_bundled()
    errors = list(ms.errors)
    for matrix in ms.tables.values():
        for column, target in dict(matrix.meta.get("references", {})).items():
            table_name, _, target_column = str(target).partition(".")
            other = ms.get(table_name)
            if other is None:
                errors.append(LintError(matrix.path, 1, f"references unknown table {table_name!r}"))
                continue
            known = {_normal(v) for r in other.rows for v in _as_list(r.get(target_column))}
            for row, line in zip(matrix.rows, matrix.row_lines, strict=True):
                for value in _as_list(row.get(column)):
                    if _normal(value) not in known:
                        errors.append(
                            LintError(matrix.path, line, f"{column} {value!r} is not in {target}")
                        )
    return ms, errors


# -- helpers ------------------------------------------------------------------------------------
def _check_row_meta(row: dict, label: str, line: int, err) -> None:  # noqa: ANN001
    sources = [row["source"]] if "source" in row else []
    if "sources" in row:
        if not isinstance(row["sources"], list):
            err(line, f"{label}: sources must be a list of URLs")
        else:
            sources += row["sources"]
    if "source" not in row:
        err(line, f"{label}: no source (every row needs the URL it was read from)")
    for url in sources:
        if not isinstance(url, str) or not url.startswith("https://") or " " in url.strip():
            err(line, f"{label}: source {url!r} is not an https URL")
    checked = row.get("checked")
    if not isinstance(checked, date):
        err(line, f"{label}: no checked date (write checked = YYYY-MM-DD)")
    elif checked > date.today():
        err(line, f"{label}: checked date {checked} is in the future")
    if "unverified" in row and not isinstance(row["unverified"], bool):
        err(line, f"{label}: unverified must be true or false")
    if "note" in row and not isinstance(row["note"], str):
        err(line, f"{label}: note must be a string")


def _cached_cell_ok(kind: str, value: Any) -> bool:
    """`_type_problem` for a compiled-cache cell, cheaper: versions by the PEP 440 pattern (not
    a Version object each), specifiers as strings (a damaged one is caught when it is used)."""
    if kind == "version":
        return isinstance(value, str) and _PEP440.fullmatch(value) is not None
    if kind == "specifier":
        return isinstance(value, str)
    if kind == "range":
        return (
            isinstance(value, dict)
            and bool(value)
            and set(value) <= {"min", "max"}
            and all(isinstance(v, str) and _PEP440.fullmatch(v) for v in value.values())
        )
    if kind.startswith("list["):
        return isinstance(value, list) and all(_cached_cell_ok(kind[5:-1], v) for v in value)
    return _type_problem(kind, value) is None


def _type_problem(kind: str, value: Any) -> str | None:
    if kind == "version":
        return (
            None
            if isinstance(value, str) and versions.is_valid(value)
            else f"{value!r} is not a version"
        )
    if kind == "specifier":
        return (
            None
            if isinstance(value, str) and versions.is_valid_specifier(value)
            else f"{value!r} is not a version specifier"
        )
    if kind == "range":
        if not isinstance(value, dict) or not set(value) <= {"min", "max"} or not value:
            return 'must be { min = "…", max = "…" }'
        for bound in value.values():
            if not isinstance(bound, str) or not versions.is_valid(bound):
                return f"bound {bound!r} is not a version"
        if "min" in value and "max" in value and Version(value["min"]) >= Version(value["max"]):
            return "min must be below max"
        return None
    if kind == "string":
        return None if isinstance(value, str) else "must be a string"
    if kind == "url":
        return (
            None
            if isinstance(value, str) and value.startswith("https://")
            else "must be an https URL"
        )
    if kind == "int":
        return (
            None if isinstance(value, int) and not isinstance(value, bool) else "must be an integer"
        )
    if kind == "float":
        return (
            None
            if isinstance(value, (int, float)) and not isinstance(value, bool)
            else "must be a number"
        )
    if kind == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if kind.startswith("list["):
        if not isinstance(value, list):
            return "must be a list"
        inner = kind[5:-1]
        for item in value:
            problem = _type_problem(inner, item)
            if problem:
                return f"item {problem}"
        return None
    return f"has unknown type {kind!r}"  # pragma: no cover - columns are validated first


def _overlaps(
    rows: list[dict], lines: list[int], key: list[str], column: str, shown: str
) -> list[LintError]:
    groups: dict[tuple, list[int]] = {}
    others = [k for k in key if k != column]
    for index, row in enumerate(rows):
        if isinstance(row.get(column), dict):
            groups.setdefault(tuple(_normal(row.get(k)) for k in others), []).append(index)
    errors = []
    for members in groups.values():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                if _ranges_overlap(rows[a][column], rows[b][column]):
                    errors.append(
                        LintError(
                            shown, lines[b], f"{column} range overlaps the row at line {lines[a]}"
                        )
                    )
    return errors


def _ranges_overlap(a: dict, b: dict) -> bool:
    def low(r: dict) -> Version:
        return Version(r["min"]) if "min" in r else Version("0")

    def high(r: dict) -> Version | None:
        return Version(r["max"]) if "max" in r else None

    a_hi, b_hi = high(a), high(b)
    a_before_b = a_hi is not None and a_hi <= low(b)
    b_before_a = b_hi is not None and b_hi <= low(a)
    return not (a_before_b or b_before_a)


def normalize_name(name: str) -> str:
    """Product-name normalisation used for uniqueness and lookup: case, 'NVIDIA ', separators."""
    text = name.lower().strip()
    if text.startswith("nvidia "):
        text = text[len("nvidia ") :]
    return re.sub(r"[\s\-_]+", " ", text).strip()


def _normalized_duplicates(
    rows: list[dict], lines: list[int], columns: Iterable[str], shown: str
) -> list[LintError]:
    seen: dict[str, int] = {}
    errors = []
    for index, row in enumerate(rows):
        for column in columns:
            for value in _as_list(row.get(column)):
                if not isinstance(value, str):
                    continue
                norm = normalize_name(value)
                if norm in seen and seen[norm] != lines[index]:
                    errors.append(
                        LintError(
                            shown, lines[index], f"{value!r} repeats a name at line {seen[norm]}"
                        )
                    )
                seen.setdefault(norm, lines[index])
    return errors


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _normal(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip().lower()
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    if isinstance(value, list):
        return tuple(_normal(v) for v in value)
    return value


def _row_label(row: dict, key: list[str]) -> str:
    parts = [f"{k}={row[k]}" for k in key if k in row]
    return ", ".join(parts)


def _toml_error_line(message: str) -> int:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else 0
