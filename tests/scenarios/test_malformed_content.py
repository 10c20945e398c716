"""Each malformed fixture is refused with the right message: the file, the field and a sentence."""
from __future__ import annotations

import pytest

from scenarios.hoth import ContentError, load_catalog, read_catalog

#: case -> (file name the problem names, field, words the sentence must hold)
CASES = {
    "unknown-unit-type": ("scenarios/bad.json", "units[1].unit", ["'wampa' is not allowed", "snowtroopers"]),
    "hex-off-board": ("scenarios/bad.json", "units[0].hex", ["HOTH-COORD-3", "[20, 0]", "off the board"]),
    "half-hex": ("scenarios/bad.json", "units[0].hex", ["HOTH-COORD-4", "half-hex"]),
    "two-units-one-hex": ("scenarios/bad.json", "units[1].hex", ["two units on one hex", "HOTH-MOVE-6"]),
    "terrain-on-structure": ("scenarios/bad.json", "structures[0].hex", ["terrain on a structure", "serac"]),
    "victory-missing": ("scenarios/bad.json", "imperial.victory_medals", ["victory condition is missing",
                                                                          "HOTH-WIN-1"]),
    "unknown-field": ("scenarios/bad.json", "units[2].bagde", ["not a known field"]),
    "unit-on-structure": ("scenarios/bad.json", "units[2].hex", ["structure", "HOTH-STRUCT-2"]),
    "badge-not-eligible": ("scenarios/bad.json", "units[1].badge", ["snowspeeders only", "HOTH-SPECIAL-3"]),
    "wrong-faction": ("scenarios/bad.json", "units[0].faction", ["imperial units", "HOTH-FORCE-1"]),
    "sudden-death-unknown-structure": ("scenarios/bad.json", "objectives[0].condition.structures[0]",
                                       ["`SG-9` is not a structure"]),
    "missing-provenance": ("scenarios/bad.json", "provenance", ["source", "proposed"]),
    "at-at-on-ridge": ("scenarios/bad.json", "units[1].hex", ["ridge", "HOTH-UNIT-ATAT-2"]),
    "proposed-id-status": ("scenarios/bad.json", "status", ["PROP-", "\"proposed\""]),
    "duplicate-scenario-id": ("scenarios/b.json", "id", ["duplicate scenario id", "a.json"]),
    "invalid-json": ("scenarios/bad.json", "", ["not valid JSON"]),
    "unknown-card-effect": ("cards/imperial-leaders.json", "cards[0].effects[1].effect",
                            ["`force_choke` is not a card effect the engine knows", "extra_dice"]),
    "duplicate-card-id": ("cards/rebel-standard.json", "cards[10].id", ["duplicate card id `REB-BLITZ`"]),
    "card-not-faction-prefixed": ("cards/imperial-standard.json", "cards[0].id",
                                  ["not faction-prefixed", "EMP-"]),
    "leader-of-other-faction": ("cards/imperial-leaders.json", "cards[1].leader",
                                ["`luke` is not an imperial leader", "HOTH-LEADER-1"]),
    "bad-effect-field": ("cards/rebel-leaders.json", "cards[0].effects[1].dice", ["Expected `int`"]),
    "card-orders-enemy-units": ("cards/imperial-leaders.json", "cards[3].effects[0].groups[0].unit_types",
                                ["snowspeeders are rebel units", "HOTH-GLOSS-4"]),
    "deck-too-small": ("deck-too-small", "cards.rebel", ["15 cards", "HOTH-COMP-7"]),
    "campaign-next-node-missing": ("campaigns/bad.json", "nodes.C2-1.outcomes.rebel.next",
                                   ["`C2-9` is not a node"]),
    "campaign-unknown-scenario": ("campaigns/bad.json", "nodes.C2-2.scenario", ["`SCN-NOWHERE`"]),
    "campaign-end-without-winner": ("campaigns/bad.json", "nodes.C2-3.outcomes.rebel.campaign_winner",
                                    ["name its winner"]),
    "campaign-remove-missing-unit": ("campaigns/bad.json", "nodes.C2-1.outcomes.imperial.effects[2].hex",
                                     ["has no rebel echo_troopers at [0, 0]"]),
    "campaign-wrong-leader": ("campaigns/bad.json", "nodes.C2-1.outcomes.rebel.effects[1].leader",
                              ["`vader` is not a rebel leader"]),
    "campaign-cycle": ("campaigns/bad.json", "nodes", ["cycle"]),
    "campaign-unknown-effect": ("campaigns/bad.json", "nodes.C2-1.outcomes.rebel.effects[2].effect",
                                ["`add_medal` is not a known `effect`", "draw_support"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_fixture_is_refused_with_file_field_and_sentence(case, fixture_dir):
    path = fixture_dir(case)
    file, field, words = CASES[case]
    with pytest.raises(ContentError) as err:
        load_catalog(path)
    matching = [p for p in err.value.problems if p.file.endswith(file) and p.field == field]
    assert matching, [str(p) for p in err.value.problems]
    assert any(all(w in p.message for w in words) for p in matching), [str(p) for p in matching]
    # A sentence: starts with a word and ends with a full stop.
    assert all(p.message.rstrip().endswith(".") for p in err.value.problems)
    # The exception text names the same problem (file: field: sentence).
    assert str(matching[0]) in str(err.value)


def test_every_problem_of_every_file_is_reported(fixture_dir):
    _catalog, problems = read_catalog(fixture_dir("many-problems"))
    got = {(p.file.rsplit("/", 1)[-1], p.field) for p in problems}
    assert got == {("one.json", "units[0].hex"), ("one.json", "units[3].hex"),
                   ("two.json", "rebel.victory_medals")}


def test_every_bad_field_of_one_file_is_reported(fixture_dir):
    """msgspec stops at the first error; the loader walks on and names all of them."""
    _catalog, problems = read_catalog(fixture_dir("several-errors-one-file"))
    assert {p.field: p.message for p in problems} == {
        "rebel.hand_size": "Expected `int`, got `str`.",
        "terrain[1].terrain": "'lava' is not allowed here; use one of: buildings, crevasse, ridge, rocks, serac, "
                              "trench.",
        "units[0].unit": "'tauntaun' is not allowed here; use one of: at_at, echo_troopers, probe_droids, "
                         "rebel_artillery, snowspeeders, snowtroopers.",
        "units[2].faction": "'jawa' is not allowed here; use one of: imperial, rebel.",
    }


def test_unaffected_content_still_loads_next_to_a_bad_file(fixture_dir):
    catalog, problems = read_catalog(fixture_dir("campaign-unknown-scenario"))
    assert problems
    assert len(catalog.scenarios) >= 8 and len(catalog.cards) == 60


def test_missing_directory_is_one_problem(tmp_path):
    _c, problems = read_catalog(tmp_path / "nowhere")
    assert len(problems) == 1 and "not a content directory" in problems[0].message
