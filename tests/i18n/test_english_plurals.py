"""English plurals (issue 28, "Numbers and plurals"): a plural message's English is written ``{count} hit(s)``
(the catalogs' key, kept so that stored games still find their translations), and the reader sees ``1 hit``
or ``2 hits``, in the domain's English and in the service's rendering alike (domain/kernel/messages.py
``inflected``)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from domain.kernel.messages import inflected, msg_n
from service.i18n import render

ROOT = Path(__file__).resolve().parents[2]
#: ``{count} word(s)``: a counted word still written with its plural in brackets.
BRACKETED = r"\{%s(?::[^{}]*)?\}(?: [\w-]+){0,2} [\w-]+\((?:s|es|ies)\)"


@pytest.mark.parametrize("tpl, by, one, want", [
    ("{count} hit(s) wasted.", "count", True, "{count} hit wasted."),
    ("{count} hit(s) wasted.", "count", False, "{count} hits wasted."),
    ("{target}: {losses} loss(es)", "losses", True, "{target}: {losses} loss"),
    ("{target}: {losses} loss(es)", "losses", False, "{target}: {losses} losses"),
    ("{count} entry(ies) left", "count", True, "{count} entry left"),
    ("{count} entry(ies) left", "count", False, "{count} entries left"),
    ("{side} draws {count} support card(s).", "count", True, "{side} draws {count} support card."),
    ("{count} unit(s) are in fire contact", "count", True, "{count} unit is in fire contact"),
    ("{count} unit(s) are in fire contact", "count", False, "{count} units are in fire contact"),
    ("{count} step(s) taken count as {count} hex(es) moved", "count", True, "{count} step taken counts as {count} hex moved"),
    # another count's word stays as it is: it counts something else
    ("{count} advantage(s), {count2} disadvantage(s)", "count", True, "{count} advantage, {count2} disadvantage(s)"),
    ("{n} of {count} hex(es)", "count", False, "{n} of {count} hexes"),
])
def test_the_counted_word_is_written_in_the_form_its_number_takes(tpl, by, one, want):
    assert inflected(tpl, by, one) == want


def test_the_domain_and_the_service_write_the_same_english():
    for n, want in ((1, "E1 loses 1 figure."), (3, "E1 loses 3 figures.")):
        m = msg_n("{unit} loses {count} figure(s).", "{unit} loses {count} figure(s).", "count", unit="E1", count=n)
        assert m.english() == want
        assert render(m, "en") == want


def _plural_messages() -> list[tuple[str, str, str, str]]:
    out = []
    for root in ("domain", "service", "projections", "bots"):
        for path in sorted((ROOT / root).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "msg_n" and len(node.args) >= 3:
                    args = node.args[:3]
                    if all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
                        out.append((f"{path.relative_to(ROOT)}:{node.lineno}", *(a.value for a in args)))
    return out


def test_no_plural_message_shows_its_counted_word_in_brackets():
    found = _plural_messages()
    assert len(found) > 50  # the scan sees the code's plural messages
    bracketed = [where for where, one, other, by in found if re.search(BRACKETED % re.escape(by), one + other)]
    assert bracketed, "the code writes its English plurals in brackets (the catalogs' keys)"
    left = [(where, inflected(tpl, by, n == 1)) for where, one, other, by in found for n, tpl in ((1, one), (2, other))
            if re.search(BRACKETED % re.escape(by), inflected(tpl, by, n == 1))]
    assert left == []
