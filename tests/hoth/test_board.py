"""Board geometry: HOTH-BOARD-*, HOTH-COORD-* (battle-of-hoth.md section 2)."""
from collections import deque

import pytest

from domain.hoth.board import (
    ALL_PLAYABLE, CENTRE, HALF_HEXES, LEFT, PLAYABLE, RIGHT, ROWS, SECTIONS_NORTH, SECTIONS_SOUTH,
    baseline_row, distance, from_col_row, hexes_in_section, is_half_hex, is_playable, label,
    neighbours, parse_hex, sections, to_col_row, towards_baseline,
)


def test_hoth_coord_2_sixty_seven_playable_hexes_in_long_and_short_rows():
    assert ROWS == 7
    assert len(PLAYABLE) == 67
    assert len(ALL_PLAYABLE) == 67 and set(ALL_PLAYABLE) == PLAYABLE
    for r in range(ROWS):
        xs = sorted(x for x, rr in PLAYABLE if rr == r)
        if r % 2 == 0:
            assert xs == list(range(0, 19, 2)), r  # long rows: 10 hexes
        else:
            assert xs == list(range(1, 18, 2)), r  # short rows: 9 hexes
    # HOTH-COORD-3: x ≡ r (mod 2) for every playable id
    assert all((x - r) % 2 == 0 for x, r in PLAYABLE)


def test_hoth_board_6_coord_4_half_hexes_are_not_playable():
    assert HALF_HEXES == {(-1, 1), (19, 1), (-1, 3), (19, 3), (-1, 5), (19, 5)}
    assert not HALF_HEXES & PLAYABLE
    for h in HALF_HEXES:
        assert is_half_hex(h) and not is_playable(h)
    assert not is_playable([0, 0])  # a list is not a Hex; parse_hex converts
    assert is_playable((0, 0)) and not is_half_hex((0, 0))


def test_hoth_coord_5_neighbours_symmetric_playable_and_at_most_six():
    for h in PLAYABLE:
        ns = neighbours(h)
        assert 2 <= len(ns) <= 6
        assert len(set(ns)) == len(ns)
        for n in ns:
            assert n in PLAYABLE
            assert h in neighbours(n)
            assert distance(h, n) == 1
    assert set(neighbours((8, 2))) == {(10, 2), (6, 2), (9, 3), (7, 3), (9, 1), (7, 1)}
    # corner: (0,0) touches (2,0) and (1,1) only; half-hexes are never neighbours (HOTH-COORD-4)
    assert set(neighbours((0, 0))) == {(2, 0), (1, 1)}
    assert set(neighbours((1, 1))) == {(3, 1), (0, 0), (2, 0), (0, 2), (2, 2)}
    assert (-1, 1) not in neighbours((0, 2))


def test_hoth_coord_6_distance_formula_equals_bfs_for_every_pair():
    for start in PLAYABLE:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            h = queue.popleft()
            for n in neighbours(h):
                if n not in dist:
                    dist[n] = dist[h] + 1
                    queue.append(n)
        assert set(dist) == PLAYABLE  # the board is connected
        for other in PLAYABLE:
            assert distance(start, other) == dist[other], (start, other)
            assert distance(other, start) == dist[other]
    assert distance((0, 0), (18, 6)) == 12
    assert distance((0, 0), (6, 2)) == 4  # Appendix A test vector


def test_hoth_coord_8_sections_seen_from_south_with_split_hexes():
    south = {h: sections(h, True) for h in PLAYABLE}
    # long rows
    for r in (0, 2, 4, 6):
        for x in (0, 2, 4):
            assert south[(x, r)] == {LEFT}
        for x in (6, 8, 10, 12):
            assert south[(x, r)] == {CENTRE}
        for x in (14, 16, 18):
            assert south[(x, r)] == {RIGHT}
    # short rows, HOTH-BOARD-4: x=5 and x=13 are split hexes
    for r in (1, 3, 5):
        assert south[(1, r)] == south[(3, r)] == {LEFT}
        assert south[(5, r)] == {LEFT, CENTRE}
        assert south[(7, r)] == south[(9, r)] == south[(11, r)] == {CENTRE}
        assert south[(13, r)] == {CENTRE, RIGHT}
        assert south[(15, r)] == south[(17, r)] == {RIGHT}
    split = [h for h, s in south.items() if len(s) == 2]
    assert sorted(split) == [(5, 1), (5, 3), (5, 5), (13, 1), (13, 3), (13, 5)]
    assert len(hexes_in_section(LEFT, True)) == 4 * 3 + 3 * 3
    assert len(hexes_in_section(CENTRE, True)) == 4 * 4 + 3 * 5
    assert SECTIONS_SOUTH[(0, 0)] == {LEFT}


def test_hoth_board_3_gap_33_north_player_swaps_left_and_right():
    for h in PLAYABLE:
        s, n = sections(h, True), sections(h, False)
        swap = {LEFT: RIGHT, RIGHT: LEFT, CENTRE: CENTRE}
        assert n == {swap[x] for x in s}, h
    assert sections((0, 0), False) == {RIGHT}
    assert sections((5, 3), False) == {RIGHT, CENTRE}
    assert hexes_in_section(LEFT, False) == hexes_in_section(RIGHT, True)
    assert hexes_in_section(CENTRE, False) == hexes_in_section(CENTRE, True)
    assert SECTIONS_NORTH[(18, 6)] == {LEFT}
    with pytest.raises(ValueError, match="HOTH-BOARD-3"):
        hexes_in_section("middle", True)


def test_hoth_board_5_baselines():
    assert baseline_row(True) == 0
    assert baseline_row(False) == 6


def test_hoth_coord_9_towards_baseline():
    assert towards_baseline((8, 2), True) == ((7, 1), (9, 1))
    assert towards_baseline((8, 2), False) == ((7, 3), (9, 3))
    assert towards_baseline((0, 2), True) == ((1, 1),)  # (-1, 1) is a half-hex, not playable
    assert towards_baseline((18, 4), False) == ((17, 5),)
    assert towards_baseline((4, 0), True) == ()  # already on the South baseline
    assert towards_baseline((4, 6), False) == ()
    for h in PLAYABLE:
        for south in (True, False):
            for n in towards_baseline(h, south):
                assert n in neighbours(h)
                assert n[1] == h[1] + (-1 if south else 1)


def test_content_1_1_col_row_conversion():
    assert from_col_row(0, 0) == (0, 0)
    assert from_col_row(4, 3) == (9, 3)
    assert from_col_row(8, 5) == (17, 5)
    assert from_col_row(9, 6) == (18, 6)
    converted = {from_col_row(c, r) for r in range(7) for c in range(10 if r % 2 == 0 else 9)}
    assert converted == PLAYABLE
    for h in PLAYABLE:
        assert from_col_row(*to_col_row(h)) == h
    with pytest.raises(ValueError, match="HOTH-COORD-3"):
        from_col_row(9, 1)  # (9, odd) does not exist
    with pytest.raises(ValueError, match="HOTH-COORD-3"):
        from_col_row(0, 7)


def test_hoth_coord_3_labels():
    assert label((8, 2)) == "c4 r2 [8,2]"
    assert label((9, 3)) == "c4 r3 [9,3]"
    assert label((0, 0)) == "c0 r0 [0,0]"
    assert label((-1, 1)) == "half-hex c-1 r1 [-1,1]"
    assert len({label(h) for h in PLAYABLE}) == 67


def test_parse_hex_accepts_pairs_and_names_the_rule_for_bad_input():
    assert parse_hex([8, 2]) == (8, 2)
    assert parse_hex((1, 1)) == (1, 1)
    with pytest.raises(ValueError, match=r"HOTH-COORD-4: target \[-1, 3\] is a half-hex"):
        parse_hex([-1, 3], field="target")
    with pytest.raises(ValueError, match="HOTH-COORD-3.*same parity"):
        parse_hex([1, 0])
    with pytest.raises(ValueError, match="HOTH-COORD-3.*off the board"):
        parse_hex([20, 0])
    with pytest.raises(ValueError, match="HOTH-COORD-3.*row must be"):
        parse_hex([0, 8])
    for bad in (None, "0,0", [0], [0, 0, 0], [0.0, 0], [True, 1], {"x": 0}):
        with pytest.raises(ValueError, match="HOTH-COORD-3"):
            parse_hex(bad)
    for h in PLAYABLE:
        assert parse_hex(list(h)) == h


def test_functions_refuse_off_board_hexes_with_rule_id():
    with pytest.raises(ValueError, match="HOTH-COORD-4"):
        neighbours((-1, 1))
    with pytest.raises(ValueError, match="HOTH-COORD-3"):
        sections((1, 0), True)
    with pytest.raises(ValueError, match="HOTH-COORD-3"):
        towards_baseline((20, 2), True)
