"""Benchmark the cost of speaking a language beside English (issue 28), in process, in one run.

    .venv/bin/python ops/bench_i18n.py [--commands 120] [--json]

For a seeded random Emperor game, a Hoth game and a Clouds of Smoke game (all speak messages: summaries,
refusals, labels, rulings): at each decision, the time to build the seat's view (English) and to put its
content's printed words in the language (``service.i18n.printed_view``), the time to
make the ``legal-commands`` answer's words (``words.described``) and then to localize that body in
the language of the game's rulebook (uk; ru for Smoke; ``service.i18n.localize``), and for every step the time to localize its timeline entry
and its ruling. English is the domain's own text (no work at the edge), so the localize figures
are the whole added cost. Also the size the web catalogs add to the page's first load (the JSON of
``GET /languages/{lang}/catalog`` and web/js/i18n.js, raw and gzip) and the time to load all five
catalogs from their .po files. Median, 95th percentile and maximum in ms.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from domain.kernel import registry, words  # noqa: E402
from domain.kernel.runner import Game  # noqa: E402
from projections.views import timeline_entry  # noqa: E402
from scenarios.content import hand_to_rulesets  # noqa: E402

#: (ruleset, scenario, the language it is read in beside English: its rulebook's)
CASES = (("emperor", "SETUP-AKHENA-VS-REBEL", "uk"), ("hoth", "SCN-TAKE-DOWN-THE-SHIELD", "uk"),
         ("smoke", "BTL-CROSSROADS", "ru"))


def _stats(xs: list[float]) -> dict[str, float]:
    s = sorted(xs) or [0.0]
    return {"median_ms": round(statistics.median(s) * 1e3, 4), "p95_ms": round(s[int(0.95 * (len(s) - 1))] * 1e3, 4),
            "max_ms": round(s[-1] * 1e3, 4)}


class _Stored:
    """Enough of a stored event for ``timeline_entry``."""

    def __init__(self, seq: int, payload: bytes, actor: str | None):
        self.seq, self.payload, self.actor, self.turn, self.type = seq, payload, actor, 0, ""


def main(argv: list[str] | None = None) -> int:
    hand_to_rulesets()  # this script is a composition root: the rulesets get their content (scenarios/)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commands", type=int, default=120)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    from service import i18n
    from service.language import SUPPORTED

    for lang in SUPPORTED:
        i18n.translations(lang)
    load_ms = round((time.perf_counter() - t0) * 1e3, 1)
    out: dict[str, object] = {"catalogs_load_ms": load_ms}
    for rid, scenario, lang in CASES:
        rs = registry.get(rid)
        g = Game(rs, scenario, seed=a.seed.to_bytes(32, "big"))
        rng = random.Random(a.seed)
        words_t, uk_t, view_t, printed_t = [], [], [], []
        while not g.over and g.commands < a.commands:
            seat = g.to_act()
            cmds = g.legal(seat)
            t1 = time.perf_counter()
            view = {"ruleset": rid, "state": rs.view(g.state, seat)}
            t2 = time.perf_counter()
            i18n.printed_view(view, lang)  # the content's printed words of GET /games/{id} (domain/kernel/printed.py)
            t3 = time.perf_counter()
            view_t.append(t2 - t1)
            printed_t.append(t3 - t2)
            built = [msgspec.to_builtins(c) for c in cmds]
            t1 = time.perf_counter()
            body = {"described": words.described(rs, g.state, seat, built)}
            t2 = time.perf_counter()
            i18n.localize(body, lang, words.names_of(rs, g.state))
            t3 = time.perf_counter()
            words_t.append(t2 - t1)
            uk_t.append(t3 - t2)
            g.do(seat, rng.choice(cmds))
        names = words.names_of(rs, g.state)
        tl_t, ruling_t = [], []
        enc = msgspec.json.Encoder()
        for seq, em in enumerate(g.emitted, 1):
            entry = timeline_entry(_Stored(seq, enc.encode(em.event), None), rs, undone=False, names=names)
            ruling = msgspec.to_builtins(em.ruling) if em.ruling is not None else {}
            t1 = time.perf_counter()
            i18n.localize(entry, lang, names)
            t2 = time.perf_counter()
            i18n.localize({"ruling": ruling}, lang, names)
            t3 = time.perf_counter()
            tl_t.append(t2 - t1)
            ruling_t.append(t3 - t2)
        out[rid] = {"language": lang, "decisions": len(words_t), "legal_commands_words_en": _stats(words_t),
                    "legal_commands_localize": _stats(uk_t), "view_en": _stats(view_t),
                    "view_printed_words": _stats(printed_t), "steps": len(tl_t),
                    "timeline_entry_localize": _stats(tl_t), "ruling_localize": _stats(ruling_t)}
    js = (ROOT / "web" / "js" / "i18n.js").read_bytes()
    size = {}
    for lang in SUPPORTED:
        raw = json.dumps(i18n.web_catalog(lang), ensure_ascii=False).encode()
        size[lang] = {"catalog_bytes": len(raw), "catalog_gzip_bytes": len(gzip.compress(raw))}
    out["first_load"] = {"i18n_js_bytes": len(js), "i18n_js_gzip_bytes": len(gzip.compress(js)), "catalogs": size}
    if a.json:
        print(json.dumps(out))
    else:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
