"""Extraction: every user-facing English message, from the code and the data files, into the
catalog template (`envdoctor.pot`) and each language's `.po`.

    python -m envdoctor.i18n update      # extract, merge into the .po files, compile, list gaps

Python sources are read with `ast`, not imported. A message is a string literal or an f-string
that reads as English prose (two or more words, not a command, a path, a regular expression or
an id) and is not a docstring, a dict key, a comparison operand, a subscript, or an argument of
a call that takes patterns, commands, paths or ids. An f-string becomes a template whose
placeholders are named after their expressions (`{driver_version}` for `ctx.driver_version`),
so the translator sees the sentence and the values it carries. A check's docstring is its
`explain` page and is extracted whole. The signature files give their titles, details, fix
summaries and default texts; `{{fact}}` there becomes `{fact}`.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import tomllib

from envdoctor.i18n import extract_vocabulary as vocabulary
from envdoctor.i18n.audit import FUNCTION_WORDS

PACKAGE_DIR = Path(__file__).resolve().parent.parent
# the checks live in the repository's checks/ (installed as envdoctor.checks)
CHECKS_DIR = (
    PACKAGE_DIR / "checks" if (PACKAGE_DIR / "checks").is_dir() else PACKAGE_DIR.parent / "checks"
)
# modules whose strings are facts or protocol, not sentences for people
SKIP_DIRS = ("i18n", "matrices")
MATRICES_DIR = (
    PACKAGE_DIR / "matrices"
    if (PACKAGE_DIR / "matrices" / "apps.toml").exists()
    else PACKAGE_DIR.parent / "matrices"
)
# matrix -> the row fields that checks put in front of people
MATRIX_TEXT: dict[str, tuple[str, ...]] = {"apps": ("text",)}
# the system-facing modules: only their summaries and reasons are for people
STRICT_DIRS = ("probes", "ingest")
SKIP_FILES = ("render/json_format.py", "render/prometheus.py", "__main__.py")

# argparse's own words (it translates them through the stdlib gettext domain "argparse")
ARGPARSE_MESSAGES = (
    "usage: ",
    "positional arguments",
    "options",
    "optional arguments",
    "show this help message and exit",
    "show program's version number and exit",
    "the following arguments are required: {names}",
    "argument {argument}: invalid choice: {value} (choose from {choices})",
    "argument {argument}: expected one argument",
    "argument {argument}: invalid {type} value: {value}",
    "unrecognized arguments: {arguments}",
    "argument {argument}: not allowed with argument {other}",
    "ambiguous option: {option} could match {matches}",
    "argument {argument}: {message}",
)

_PROSE_WORD = re.compile(r"^[(\"'`“]?[A-Za-z][a-z]+[,.;:!?)\"'`”]*$")
_REGEX_HINT = re.compile(r"\\[sdwSbB]|\(\?|\[\^|\.\*|\.\+|\\\.|\$$|^\^")
PLACEHOLDER_SIMPLE = re.compile(r"[^A-Za-z0-9_]+")


@dataclass
class Message:
    """One extracted message with where it comes from."""

    msgid: str
    references: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)

    @property
    def is_template(self) -> bool:
        return bool(re.search(r"(?<!\{)\{[A-Za-z_][\w.]*\}(?!\})", self.msgid))


def is_prose(text: str) -> bool:
    """Whether a string's fixed text reads as English words for people (not code or data)."""
    plain = re.sub(r"\{[A-Za-z_][\w.]*\}", " ", text).strip()
    if not plain or plain.startswith(("http://", "https://", "$ ")):
        return False
    if plain.startswith(("/", "-")) and " " not in plain:  # a path or a flag
        return False
    tokens = plain.split()
    if _REGEX_HINT.search(plain) and sum(t.lower() in FUNCTION_WORDS for t in tokens) < 3:
        return False  # a pattern; a sentence that mentions "torch 2.6.*" has function words
    function_words = sum(t.lower().strip(",.;:()") in FUNCTION_WORDS for t in tokens)
    if tokens and tokens[0] in vocabulary.COMMAND_WORDS and function_words < 2:
        return False  # a command ("pip install torch"), not "pip finds no wheel for this Python"
    if all(t in vocabulary.STYLE_WORDS for t in tokens):  # a rich style ("bold red"), not words
        return False
    words = [t for t in tokens if _PROSE_WORD.match(t)]
    return len(words) >= 2


def _placeholder_name(node: ast.expr) -> str:
    """A readable name for an f-string value: `ctx.driver_version` -> driver_version."""
    if isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Attribute):
        name = node.attr
    elif isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "join" and node.args:
            return _placeholder_name(node.args[0])
        if (
            isinstance(func, (ast.Name, ast.Attribute))
            and (
                (func.id if isinstance(func, ast.Name) else func.attr)
                in ("str", "len", "repr", "sorted", "list", "tuple", "int", "float", "_show")
            )
            and node.args
        ):
            inner = _placeholder_name(node.args[0])
            return ("n_" + inner) if getattr(func, "id", "") == "len" else inner
        name = (
            func.id
            if isinstance(func, ast.Name)
            else (func.attr if isinstance(func, ast.Attribute) else "value")
        )
    elif isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            name = key.value
        else:
            name = _placeholder_name(node.value)
    elif isinstance(node, (ast.GeneratorExp, ast.ListComp)):
        name = "items"
    elif isinstance(node, ast.IfExp):
        name = _placeholder_name(node.body)
    elif isinstance(node, ast.BinOp):
        name = _placeholder_name(node.left)
    else:
        name = "value"
    name = PLACEHOLDER_SIMPLE.sub("_", name).strip("_").lower() or "value"
    if name[0].isdigit():
        name = "v" + name
    return name


def fstring_template(node: ast.JoinedStr) -> tuple[str, list[str]]:
    """(template, notes) for an f-string: literal braces doubled, each value a named field."""
    parts: list[str] = []
    notes: list[str] = []
    used: dict[str, int] = {}
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(value.value.replace("{", "{{").replace("}", "}}"))
        elif isinstance(value, ast.FormattedValue):
            base = _placeholder_name(value.value)
            source = ast.unparse(value.value)
            seen = used.get(base)
            if seen is None:
                used[base] = 1
                name = base
            else:
                used[base] = seen + 1
                name = f"{base}_{seen + 1}"
            parts.append("{" + name + "}")
            if name != source:
                notes.append(f"{{{name}}} = {source}")
    return "".join(parts), notes


def _concat_parts(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _concat_parts(node.left) + _concat_parts(node.right)
    return [node]


def concat_template(node: ast.BinOp) -> tuple[str, list[str]] | None:
    """A sentence built with `+` ("The module " + (f"{m} " if m else "") + "differs") as one
    template: literal parts stay, anything else becomes a placeholder. None when it is not a
    string concatenation (no literal text in it)."""
    parts = _concat_parts(node)
    literal = [p for p in parts if isinstance(p, (ast.JoinedStr, ast.Constant))]
    if len(parts) < 2 or not literal:
        return None
    if any(isinstance(p, ast.Constant) and not isinstance(p.value, str) for p in parts):
        return None
    out: list[str] = []
    notes: list[str] = []
    used: dict[str, int] = {}
    for part in parts:
        if isinstance(part, ast.Constant):
            out.append(str(part.value).replace("{", "{{").replace("}", "}}"))
        elif isinstance(part, ast.JoinedStr):
            text, more = fstring_template(part)
            out.append(text)
            notes += more
        else:
            base = _placeholder_name(part)
            count = used.get(base, 0) + 1
            used[base] = count
            name = base if count == 1 else f"{base}_{count}"
            out.append("{" + name + "}")
            notes.append(f"{{{name}}} = {ast.unparse(part)}")
    return _distinct_names("".join(out)), notes


def _distinct_names(template: str) -> str:
    """Rename repeated placeholders ({value} ... {value} -> {value} ... {value_2}): in a
    concatenation each part names its values on its own."""
    seen: dict[str, int] = {}

    def one(m: re.Match[str]) -> str:
        if m.group(0) in ("{{", "}}"):
            return m.group(0)
        name = m.group(1)
        count = seen.get(name, 0) + 1
        seen[name] = count
        new = name if count == 1 else f"{name}_{count}"
        while count > 1 and new in seen:
            count += 1
            new = f"{name}_{count}"
        seen.setdefault(new, 1)
        return "{" + new + "}"

    return re.sub(r"\{\{|\}\}|\{([A-Za-z_][\w.]*)\}", one, template)


def _constant_template(value: str) -> str:
    """A plain string as a template: a str.format template stays as it is; otherwise braces are
    literal, except "{{name}}", a slot the code fills with str.replace."""
    if re.search(r"(?<!\{)\{[A-Za-z_]\w*\}(?!\})", value):
        return value  # a str.format template already: "{app}" is a value, "{{" a brace
    pieces = _SLOT.split(value)  # text, name, text, name, ...
    out = []
    for i, piece in enumerate(pieces):
        out.append("{" + piece + "}" if i % 2 else piece.replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _excluded_nodes(tree: ast.AST) -> set[int]:
    """String nodes that are data by their position: keys, operands, pattern/command args."""
    skip: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is None:
            return
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Constant, ast.JoinedStr)):
                skip.add(id(sub))

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            mark(node.left)
            for c in node.comparators:
                mark(c)
        elif isinstance(node, ast.Subscript):
            mark(node.slice)
        elif isinstance(node, ast.Dict):
            for k in node.keys:
                mark(k)
        elif isinstance(node, ast.Call):
            func = node.func
            fname = (
                func.attr
                if isinstance(func, ast.Attribute)
                else func.id
                if isinstance(func, ast.Name)
                else ""
            )
            if fname in vocabulary.NOT_TEXT_CALLS:
                if fname in ("collected", "absent", "failed"):  # name, source; then words
                    for arg in node.args[:2]:
                        mark(arg)
                elif fname == "Evidence":
                    mark(node.args[0] if node.args else None)
                    if len(node.args) > 1:
                        mark(node.args[1])
                elif fname == "join":
                    pass
                else:
                    for a in node.args:
                        mark(a)
            if fname == "Fix" and len(node.args) > 1:
                mark(node.args[1])
            for kw in node.keywords:
                if kw.arg in vocabulary.NOT_TEXT_KEYWORDS or (
                    fname == "Evidence" and kw.arg == "actual"
                ):
                    mark(kw.value)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Name)
                    and target.id.isupper()
                    and set(target.id.strip("_").split("_")) & vocabulary.DATA_NAME_WORDS
                ):
                    mark(node.value)
    return skip


def _is_check_function(node: ast.AST) -> bool:
    if not isinstance(node, ast.FunctionDef):
        return False
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        if isinstance(target, ast.Name) and target.id == "check":
            return True
    return False


_SPOKEN_NAME = re.compile(r"summary|reason|why|describe")
_LEADING_STOP = re.compile(r"^[,;:.]\s+")
_SLOT = re.compile(r"\{\{([A-Za-z_][\w.]*)\}\}")


def _spoken_nodes(tree: ast.AST) -> set[int]:
    """In probes and readers, the strings people read: group summaries and reasons (the
    `summary=` / `reason=` arguments, the reason of `absent` / `failed`, values assigned to a
    `summary`/`reason`/`why` variable or returned by a function so named). Their other strings
    are patterns and keys of the text they read."""
    found: set[int] = set()

    def take(node: ast.AST | None) -> None:
        if node is not None:
            found.update(id(sub) for sub in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            fname = getattr(func, "attr", None) or getattr(func, "id", "")
            if fname in ("absent", "failed"):
                for arg in node.args[2:]:
                    take(arg)
            for kw in node.keywords:
                if kw.arg and _SPOKEN_NAME.search(kw.arg):
                    take(kw.value)
            target = func.value if isinstance(func, ast.Attribute) else None
            if (
                fname in ("append", "extend", "insert")
                and isinstance(target, ast.Name)
                and _SPOKEN_NAME.search(target.id)
            ):
                for arg in node.args:
                    take(arg)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in ("error", "reason", "summary"):
                    take(value)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and _SPOKEN_NAME.search(t.id) for t in targets):
                take(node.value)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _SPOKEN_NAME.search(
            node.name
        ):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Return):
                    take(sub.value)
    return found


def from_python(path: Path, ref: str, strict: bool = False) -> Iterator[Message]:
    """The messages of one Python source file (`strict`: only summaries and reasons)."""
    notes: list[str]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstring_nodes(tree)
    skip = _excluded_nodes(tree)
    spoken = _spoken_nodes(tree) if strict else None
    inside_fstring: set[int] = set()
    inside_concat: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for side in (node.left, node.right):
                if isinstance(side, ast.BinOp):
                    inside_concat.add(id(side))
        if isinstance(node, ast.JoinedStr):  # its literal parts; not strings in its values
            for part in node.values:
                inside_fstring.add(id(part))
                if isinstance(part, ast.FormattedValue) and part.format_spec is not None:
                    inside_fstring.update(id(sub) for sub in ast.walk(part.format_spec))
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and id(node) not in inside_concat:
            found = concat_template(node)
            wanted = spoken is None or id(node) in spoken
            if found is not None and id(node) not in skip and wanted and is_prose(found[0]):
                text = _LEADING_STOP.sub("", found[0].strip())
                yield Message(text, [f"{ref}:{node.lineno}"], found[1])
            continue
        if _is_check_function(node):
            doc = ast.get_docstring(node, clean=False)  # type: ignore[arg-type]
            if doc:
                yield Message(
                    inspect.cleandoc(doc),
                    [f"{ref}:{node.lineno}"],  # type: ignore[attr-defined]
                    ["explain page (the check's docstring)"],
                )
            continue
        if id(node) in skip or id(node) in docstrings or id(node) in inside_fstring:
            continue
        if spoken is not None and id(node) not in spoken:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            # "{{app}}" in a plain string is a placeholder the code fills with str.replace
            text = _constant_template(node.value)
            notes = []
        elif isinstance(node, ast.JoinedStr):
            text, notes = fstring_template(node)
        else:
            continue
        text = _LEADING_STOP.sub("", text.strip())  # "; --warn-only ..." reads as a clause
        if is_prose(text):
            yield Message(text, [f"{ref}:{node.lineno}"], notes)


def from_signatures(path: Path, ref: str) -> Iterator[Message]:
    """Titles, details, fix summaries and default texts of a signature file."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))

    def message(text: object, where: str) -> Iterator[Message]:
        # a signature's title, detail and fix summary are words for people by definition
        if isinstance(text, str) and re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", text):
            plain = text.replace("{", "{{").replace("}", "}}")
            plain = re.sub(r"\{\{\{\{\s*([\w.]+)\s*\}\}\}\}", r"{\1}", plain)
            yield Message(plain.strip(), [f"{ref}:{where}"])

    for sig in data.get("signature", []):
        key = sig.get("key", sig.get("id", "?"))
        for name in ("title", "detail"):
            yield from message(sig.get(name), f"{key}.{name}")
        for number, fix in enumerate(sig.get("fix", []), start=1):
            yield from message(fix.get("summary"), f"{key}.fix{number}")
        # a remedy's reason and summary are shown inside the chooser's fix ("driver 570 or
        # newer (Blackwell GPUs need the open kernel module)")
        for number, remedy in enumerate(sig.get("remedy", []), start=1):
            for name in ("reason", "summary"):
                yield from message(remedy.get(name), f"{key}.remedy{number}.{name}")
        # a signature's own defaults fill its placeholders when the log does not say
        # ("the build needs driver {torch.min_driver}"), so they are words people read too
        for name, value in (sig.get("defaults") or {}).items():
            yield from message(value, f"{key}.defaults.{name}")
    for name, value in (data.get("defaults") or {}).items():
        yield from message(value, f"defaults.{name}")
    for section in ("no_match", "no-match"):
        table = data.get(section) or {}
        # its own words, and those for a report in prose without an error line
        for label, words in ((section, table), (f"{section}.prose", table.get("prose") or {})):
            for name in ("title", "detail"):
                yield from message(words.get(name), f"{label}.{name}")
            for number, fix in enumerate(words.get("fix", []) or [], start=1):
                yield from message(fix.get("summary"), f"{label}.fix{number}")


def from_matrix(path: Path, ref: str, fields: tuple[str, ...]) -> Iterator[Message]:
    """The fields of a matrix's rows that checks show people (documentation quoted in a
    finding's detail)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for number, row in enumerate(data.get("rows", []), start=1):
        for field_name in fields:
            text = row.get(field_name)
            if isinstance(text, str) and re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", text):
                plain = text.replace("{", "{{").replace("}", "}}").strip()
                yield Message(
                    plain, [f"{ref}:row{number}.{field_name}"], ["quoted from the row's source"]
                )


def python_sources() -> Iterator[tuple[Path, str]]:
    """(path, reference) for every Python file whose strings people read."""
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR).as_posix()
        if rel.split("/")[0] in SKIP_DIRS or rel in SKIP_FILES:
            continue
        yield path, f"envdoctor/{rel}"
    if CHECKS_DIR != PACKAGE_DIR / "checks":
        for path in sorted(CHECKS_DIR.glob("*.py")):
            if path.name != "__main__.py":
                yield path, f"checks/{path.name}"


def extract() -> list[Message]:
    """Every message, each once, in source order."""
    found: dict[str, Message] = {}

    def add(msg: Message) -> None:
        if msg.msgid in found:
            found[msg.msgid].references.extend(msg.references)
            for c in msg.comments:
                if c not in found[msg.msgid].comments:
                    found[msg.msgid].comments.append(c)
        else:
            found[msg.msgid] = msg

    for path, ref in python_sources():
        strict = ref.split("/")[1] in STRICT_DIRS
        for msg in from_python(path, ref, strict):
            add(msg)
    for path in sorted((CHECKS_DIR / "signatures").glob("*.toml")):
        for msg in from_signatures(path, f"checks/signatures/{path.name}"):
            add(msg)
    for path in sorted(MATRICES_DIR.glob("*.toml")):  # every table's title (matrices list)
        title = tomllib.loads(path.read_text(encoding="utf-8")).get("title")
        if isinstance(title, str):
            add(
                Message(
                    title.replace("{", "{{").replace("}", "}}"), [f"matrices/{path.name}:title"]
                )
            )
    for name, fields in MATRIX_TEXT.items():
        path = MATRICES_DIR / f"{name}.toml"
        if path.exists():
            for msg in from_matrix(path, f"matrices/{path.name}", fields):
                add(msg)
    words = PACKAGE_DIR / "i18n" / "words.py"
    for node in ast.walk(ast.parse(words.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.lineno > 5:
            add(Message(node.value, [f"envdoctor/i18n/words.py:{node.lineno}"]))
    for text in ARGPARSE_MESSAGES:
        add(Message(text, ["argparse"], ["argparse's own words"]))
    return list(found.values())
