"""The template finds every message of the code (issue 28): Babel's Python extractor misses a ``msg()`` nested in
a comprehension that is itself an argument of another call, so ``ops/i18n_catalogs.py`` adds an ``ast`` pass;
every literal ``msg``/``msg_n`` of product code is in the template on disk."""
from __future__ import annotations

import io

from babel.messages.extract import extract_python
from babel.messages.pofile import read_po

import i18n_catalogs  # ops/ (tests/i18n/conftest.py puts it on the path)

NESTED = '''
rb.add("R-1", msg("{side} rolls {rolls}.", side=s,
                  rolls=joined([msg("{face} pass", face=f) if f > 3 else msg("{face} FAIL", face=f) for f in faces])))
'''


def test_the_ast_pass_finds_a_call_babel_misses(tmp_path):
    babel = {m[2] for m in extract_python(io.BytesIO(NESTED.encode()), i18n_catalogs.PY_KEYWORDS, [], {})}
    (tmp_path / "mod.py").write_text(NESTED, encoding="utf-8")
    found = {m[2] for m in i18n_catalogs.nested_messages(tmp_path)}
    assert found == {"{side} rolls {rolls}.", "{face} pass", "{face} FAIL"}
    assert found - babel, "Babel now finds nested calls: the ast pass may go"


def test_every_literal_message_of_the_code_is_in_the_template():
    pot = read_po(open(i18n_catalogs.LOCALES / "umpire.pot", "rb"))
    missing = [(d, m[0], m[2]) for d in i18n_catalogs.PY_DIRS
               for m in i18n_catalogs.nested_messages(i18n_catalogs.ROOT / d)
               if (m[2][0] if isinstance(m[2], tuple) else m[2]) not in pot]
    assert missing == []
