"""Generic content loading: JSON files into msgspec types, every problem reported.

Content is data a person edits by hand, so a mistake must come back as a
sentence that names the file and the field, and one mistake must not hide the
next one. The helpers here decode a file into a msgspec type (a syntax error
or a type error becomes one :class:`Problem`), and collect the problems of
every file and every semantic check into one list; :class:`ContentError`
carries that list when a caller wants an exception.

Ruleset-specific loaders (``scenarios/hoth``) build on these.
"""
from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")


class Problem(msgspec.Struct, frozen=True, kw_only=True, order=True):
    """One thing wrong with the content: where, which field, and a sentence."""

    file: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.field}" if self.field else self.file
        return f"{where}: {self.message}"


class ContentError(ValueError):
    """The content does not load; ``problems`` lists every problem found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = list(problems)
        lines = "\n".join(str(p) for p in self.problems)
        super().__init__(f"{len(self.problems)} content problem(s):\n{lines}")


_AT = re.compile(r"^(?P<what>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)
_MISSING = re.compile(r"Object missing required field `(?P<name>[^`]+)`")
_UNKNOWN = re.compile(r"Object contains unknown field `(?P<name>[^`]+)`")


def field_path(prefix: str, msgspec_path: str | None) -> str:
    """Join a field prefix (``cards[3]``) and a msgspec path (``$.effect.kind``)."""
    rest = (msgspec_path or "$")[1:]
    if rest.startswith("."):
        rest = rest[1:]
    if prefix and rest:
        return f"{prefix}.{rest}" if not rest.startswith("[") else prefix + rest
    return prefix or rest


_ENUM = re.compile(r"Invalid enum value (?P<value>.+)$")


def validation_problem(file: str, exc: msgspec.ValidationError | msgspec.DecodeError, prefix: str = "",
                       type_: Any = None, data: Any = None) -> Problem:
    """Turn a msgspec error into a Problem naming the field in plain words.

    With the target type and the raw data, a bad enumerated value is answered
    with the values that are allowed there.
    """
    text = str(exc)
    m = _AT.match(text)
    what = m.group("what") if m else text
    path = field_path(prefix, m.group("path") if m else None)
    missing = _MISSING.search(what)
    if missing:
        name = missing.group("name")
        return Problem(file=file, field=f"{path}.{name}" if path else name,
                       message=f"the required field `{name}` is missing.")
    unknown = _UNKNOWN.search(what)
    if unknown:
        name = unknown.group("name")
        return Problem(file=file, field=f"{path}.{name}" if path else name,
                       message=f"`{name}` is not a known field here (a typo?).")
    if not isinstance(exc, msgspec.ValidationError):  # ValidationError subclasses DecodeError
        return Problem(file=file, field=path, message=f"the file is not valid JSON ({what.rstrip('.')}).")
    enum = _ENUM.match(what.strip())
    if enum and type_ is not None:
        allowed = _allowed_values(type_, data, (m.group("path") if m else None) or "$")
        if allowed:
            return Problem(file=file, field=path, message=f"{enum.group('value')} is not allowed here; use one of: "
                                                           f"{', '.join(map(str, allowed))}.")
    what = what.strip()
    if what and what[-1] not in ".!?":
        what += "."
    return Problem(file=file, field=path, message=f"{what[0].upper()}{what[1:]}" if what else "invalid value.")


def read_json(path: Path, root: Path) -> tuple[Any, list[Problem]]:
    """The raw JSON of a file (builtins), or a problem naming the file."""
    name = rel(path, root)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(file=name, field="", message=f"cannot be read ({exc.strerror}).")]
    try:
        return msgspec.json.decode(raw), []
    except msgspec.DecodeError as exc:
        return None, [validation_problem(name, exc)]


def convert(file: str, data: Any, type_: type[T], prefix: str = "") -> tuple[T | None, list[Problem]]:
    """``msgspec.convert`` with the errors turned into Problems.

    msgspec stops at the first error; on failure the data is walked field by field and item by
    item so that every bad field of the file is reported, not only the first.
    """
    try:
        return msgspec.convert(data, type=type_), []
    except msgspec.ValidationError as exc:
        return None, _dig(file, data, type_, prefix) or [validation_problem(file, exc, prefix, type_, data)]


def _join(prefix: str, key: str) -> str:
    return f"{prefix}.{key}" if prefix else key


def _check(file: str, value: Any, tp: Any, path: str) -> list[Problem]:
    try:
        msgspec.convert(value, type=tp)
        return []
    except msgspec.ValidationError as exc:
        return _dig(file, value, tp, path) or [validation_problem(file, exc, path, tp, value)]
    except TypeError:  # not a type msgspec converts to on its own (never for content types)
        return []


def _dig(file: str, data: Any, tp: Any, prefix: str) -> list[Problem]:
    """The problems of each part of ``data`` (empty: the error is not inside a part)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and isinstance(data, dict):
        tags: dict[str, list[str]] = {}
        for member in args:
            if isinstance(member, type) and issubclass(member, msgspec.Struct):
                cfg = member.__struct_config__
                if cfg.tag_field is None:
                    continue
                if data.get(cfg.tag_field) == cfg.tag:
                    return _dig(file, data, member, prefix)
                tags.setdefault(cfg.tag_field, []).append(str(cfg.tag))
        for tag_field, known in tags.items():
            value = data.get(tag_field)
            what = f"`{value}` is not a known `{tag_field}`" if value is not None else f"`{tag_field}` is missing"
            return [Problem(file=file, field=_join(prefix, tag_field),
                            message=f"{what} here; use one of: {', '.join(known)}.")]
        return []
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct) and isinstance(data, dict):
        hints = typing.get_type_hints(tp)
        out: list[Problem] = []
        for f in msgspec.structs.fields(tp):
            if f.encode_name not in data:
                if f.required:
                    out.append(Problem(file=file, field=_join(prefix, f.encode_name),
                                       message=f"the required field `{f.encode_name}` is missing."))
                continue
            out += _check(file, data[f.encode_name], hints[f.name], _join(prefix, f.encode_name))
        return out
    if origin in (list, tuple) and isinstance(data, list) and args:
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return []  # a fixed-size tuple (a hex) is one value
        out = []
        for i, item in enumerate(data):
            out += _check(file, item, args[0], f"{prefix}[{i}]")
        return out
    if origin is dict and isinstance(data, dict) and len(args) == 2:
        out = []
        for k, v in data.items():
            out += _check(file, v, args[1], _join(prefix, str(k)))
        return out
    return []


def rel(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _struct_for(info: Any, data: Any) -> Any:
    """The struct type of a union member that ``data`` (a dict) decodes as, if any."""
    structs = [t for t in info.types if isinstance(t, msgspec.inspect.StructType)]
    if not structs:
        return None
    tagged = [t for t in structs if t.tag_field is not None]
    if tagged and isinstance(data, dict):
        for t in tagged:
            if data.get(t.tag_field) == t.tag:
                return t
        return None
    return structs[0] if len(structs) == 1 else None


def _walk_unknown(info: Any, data: Any, path: str, out: list[tuple[str, str]]) -> None:
    I = msgspec.inspect
    if isinstance(info, I.UnionType):
        if isinstance(data, dict):
            t = _struct_for(info, data)
            if t is not None:
                _walk_unknown(t, data, path, out)
        elif isinstance(data, list):
            for t in info.types:
                if isinstance(t, (I.ListType, I.VarTupleType, I.TupleType, I.SetType, I.FrozenSetType)):
                    _walk_unknown(t, data, path, out)
                    break
        return
    if isinstance(info, I.StructType):
        if not isinstance(data, dict):
            return
        known = {f.encode_name: f for f in info.fields}
        for key, value in data.items():
            if key == info.tag_field:
                continue
            f = known.get(key)
            if f is None:
                out.append((f"{path}.{key}" if path else key, key))
            else:
                _walk_unknown(f.type, value, f"{path}.{key}" if path else key, out)
        return
    if isinstance(info, (I.ListType, I.VarTupleType, I.SetType, I.FrozenSetType)) and isinstance(data, list):
        for i, item in enumerate(data):
            _walk_unknown(info.item_type, item, f"{path}[{i}]", out)
        return
    if isinstance(info, I.TupleType) and isinstance(data, list):
        for i, (t, item) in enumerate(zip(info.item_types, data)):
            _walk_unknown(t, item, f"{path}[{i}]", out)
        return
    if isinstance(info, I.DictType) and isinstance(data, dict):
        for k, v in data.items():
            _walk_unknown(info.value_type, v, f"{path}.{k}" if path else str(k), out)


@functools.lru_cache(maxsize=64)
def _type_info(type_: Any) -> Any:
    return msgspec.inspect.type_info(type_)


def unknown_fields(file: str, data: Any, type_: Any, prefix: str = "") -> list[Problem]:
    """Fields in ``data`` that ``type_`` does not have (msgspec ignores them silently).

    Content types accept unknown fields so that they can grow; a typo in a
    content file must still be caught, so the loader walks the raw data
    alongside the type and names every field it does not know.
    """
    out: list[tuple[str, str]] = []
    _walk_unknown(_type_info(type_), data, prefix, out)
    return [Problem(file=file, field=path, message=f"`{key}` is not a known field here (a typo?).")
            for path, key in out]


_TOKEN = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _allowed_values(type_: Any, data: Any, path: str) -> tuple[Any, ...]:
    """The literal values allowed at a msgspec error path (``$.units[1].unit``), if it names a Literal."""
    I = msgspec.inspect
    info: Any = _type_info(type_)
    for name, index in _TOKEN.findall(path[1:]):
        if isinstance(info, I.UnionType):
            info = _struct_for(info, data) if isinstance(data, dict) else next(
                (t for t in info.types if not isinstance(t, I.NoneType)), None)
        if info is None:
            return ()
        if name:
            if isinstance(info, I.StructType) and isinstance(data, dict):
                f = next((f for f in info.fields if f.encode_name == name), None)
                if f is None:
                    return ()
                info, data = f.type, data.get(name)
            elif isinstance(info, I.DictType) and isinstance(data, dict):
                info, data = info.value_type, data.get(name)
            else:
                return ()
        else:
            i = int(index)
            if isinstance(info, (I.ListType, I.VarTupleType, I.SetType, I.FrozenSetType)) and isinstance(data, list):
                info, data = info.item_type, data[i] if i < len(data) else None
            elif isinstance(info, I.TupleType) and isinstance(data, list) and i < len(info.item_types):
                info, data = info.item_types[i], data[i] if i < len(data) else None
            else:
                return ()
    if isinstance(info, I.UnionType):
        lits = [t for t in info.types if isinstance(t, I.LiteralType)]
        return tuple(v for t in lits for v in t.values)
    if isinstance(info, I.LiteralType):
        return tuple(info.values)
    return ()
