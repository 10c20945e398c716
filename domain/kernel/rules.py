"""The rules reference: the text behind every rule id a ruling or refusal cites (DESIGN 8).

Each ruleset carries its rules as Markdown (``domain/<ruleset>/rules.md``; the kernel's own ids,
``UMPIRE-*``, in ``domain/kernel/rules.md``), in the format of the shared rules files:

* a list item whose bold head starts with the id -- ``* **HOTH-LOS-3 (Blocking).** text``,
  ``- **SMOKE-UNIT-1. Shape.** text``, ``- **SOLO-GAME-1.** text``. The words after the id in
  the head (in parentheses, or after the full stop) are the rule's title. Indented lines and
  tables that follow belong to the rule, up to the next rule, heading or unindented paragraph;
* a table row whose first cell is the id (``| HOTH-GAP-1 | issue | sources | behaviour |``) in a
  table whose first column is headed ``ID`` (or whose id ends in a number): the second cell is
  the title, the other cells make the text, each after its column's header.

:func:`parse_rules` is pure (text in, rules out). Reading the files is the registry's job
(:func:`domain.kernel.registry.rules_of`).
"""
from __future__ import annotations

import re

import msgspec

#: A rule id: upper-case words joined by hyphens, e.g. ``HOTH-LOS-RIDGE-1``, ``UMPIRE-IDEMPOTENCY``.
RULE_ID = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+"
_ID = re.compile(rf"^{RULE_ID}$")
_ITEM = re.compile(r"^(?P<indent>\s*)[-*]\s+\*\*(?P<head>[^*]+?)\*\*\s*(?P<text>.*)$")
_HEAD = re.compile(rf"^(?P<id>{RULE_ID})(?P<rest>.*)$")
_HEADING = re.compile(r"^(?P<marks>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


class Rule(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One rule of a rules reference."""

    id: str
    text: str
    title: str | None = None
    #: The heading the rule stands under (e.g. ``6.3 Line of sight (core rule; special cases in §13)``).
    section: str | None = None


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip() for c in s.split("|")]


def _title(rest: str) -> str | None:
    """The title in a head's remainder: ``" (Factions)."`` -> ``Factions``; ``". Shape."`` -> ``Shape``."""
    t = rest.strip()
    if t.startswith("."):
        t = t[1:].strip()
    if t.endswith("."):
        t = t[:-1].strip()
    if t.startswith("(") and t.endswith(")"):
        t = t[1:-1].strip()
    return t or None


def _dedent(lines: list[str]) -> str:
    while lines and not lines[-1].strip():
        lines.pop()
    indents = [len(ln) - len(ln.lstrip()) for ln in lines[1:] if ln.strip()]
    cut = min(indents, default=0)
    out = [lines[0].strip()] + [ln[cut:].rstrip() if ln.strip() else "" for ln in lines[1:]]
    return "\n".join(out).strip()


def parse_rules(markdown: str) -> list[Rule]:
    """Every rule of a rules reference, in the order of the text (an id defined twice: the first wins)."""
    rules: list[Rule] = []
    seen: set[str] = set()
    section: str | None = None
    current: dict | None = None  # the list-item rule being read: id, title, section, lines
    header: list[str] | None = None  # the header cells of the table being read
    prev_table_line: str | None = None

    def close() -> None:
        nonlocal current
        if current is not None:
            if current["id"] not in seen:
                seen.add(current["id"])
                rules.append(Rule(id=current["id"], title=current["title"], section=current["section"],
                                  text=_dedent(current["lines"])))
            current = None

    for line in markdown.splitlines():
        stripped = line.strip()
        heading = _HEADING.match(line)
        if heading:
            close()
            section = heading.group("title")
            header = None
            prev_table_line = None
            continue
        if stripped.startswith("|"):
            if _SEPARATOR.match(stripped):
                header = _cells(prev_table_line) if prev_table_line is not None else None
                prev_table_line = stripped
                if current is not None:
                    current["lines"].append(line)
                continue
            cells = _cells(stripped)
            id_column = header is not None and header[0].strip("* ").lower() in ("id", "rule", "rule id")
            if (header is not None and cells and _ID.match(cells[0]) and prev_table_line is not None
                    and (id_column or cells[0][-1].isdigit())):
                close()
                rid = cells[0]
                title = cells[1] if len(cells) > 1 and cells[1] else None
                parts = [f"{h}: {c}" if h else c for h, c in zip(header[2:], cells[2:]) if c]
                if rid not in seen:
                    seen.add(rid)
                    rules.append(Rule(id=rid, title=title, section=section, text="\n".join(parts) or (title or "")))
                prev_table_line = stripped
                continue
            prev_table_line = stripped
            if current is not None:
                current["lines"].append(line)
            continue
        if not stripped.startswith("|"):
            if stripped:
                header = None
                prev_table_line = None
        item = _ITEM.match(line)
        head = _HEAD.match(item.group("head").strip()) if item else None
        if item and head:
            close()
            current = {"id": head.group("id"), "title": _title(head.group("rest")), "section": section,
                       "lines": [item.group("text")]}
            continue
        if current is None:
            continue
        if not stripped:
            current["lines"].append("")
        elif line[:1].isspace():
            current["lines"].append(line)
        elif stripped == "---":
            close()
        else:
            close()  # an unindented paragraph belongs to the section, not to the rule above it
    close()
    return rules


def rule_ids_in(text: str, prefixes: set[str] | frozenset[str]) -> set[str]:
    """The numbered rule ids with one of ``prefixes`` (``HOTH``, ``UMPIRE``) cited in ``text``. A wildcard
    (``HOTH-LOS-*``) cites no single rule; a range (``HOTH-MOVE-1..12``) cites its first id."""
    if not prefixes:
        return set()
    alt = "|".join(sorted(map(re.escape, prefixes), key=len, reverse=True))
    pattern = re.compile(rf"(?<![A-Za-z0-9_-])(?:{alt})(?:-[A-Z0-9]+)*-[0-9]+(?![A-Za-z0-9_])")
    return set(pattern.findall(text))




def rule_url(ruleset: str, rule_id: str) -> str:
    """Where the text of ``rule_id`` is served (DESIGN 8: every ruling and refusal links it)."""
    return f"/rulesets/{ruleset}/rules/{rule_id}"


__all__ = ["RULE_ID", "Rule", "parse_rules", "rule_ids_in", "rule_url"]
