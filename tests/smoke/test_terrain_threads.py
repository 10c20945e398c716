"""A battle's indexed terrain never crosses threads: GEOS's prepared geometries build their indexes lazily and are
not thread-safe (libgeos/geos#825), and Shapely releases the GIL while GEOS runs, so two threads asking one
prepared element at once could crash the server (a request's worker thread and a bot seat, say). Each thread
indexes a layout for itself (domain/smoke/terrain.py ``terrain_of``); within a thread it is built once."""
from __future__ import annotations

import random
import threading

from domain.smoke.content import TerrainElement, TerrainKind
from domain.smoke.geometry import Box
from domain.smoke.terrain import terrain_of

KINDS = (TerrainKind(id="rough", name="Rough", difficult=True, blocks_view=True),)
ELEMENTS = tuple(TerrainElement(id=f"T{i}", kind="rough", polygon=((i * 4, 0), (i * 4 + 3, 0.5), (i * 4 + 2.5, 3), (i * 4, 2)))
                 for i in range(6))


def test_each_thread_gets_its_own_indexed_terrain_and_keeps_it():
    mine = terrain_of(ELEMENTS, KINDS)
    assert terrain_of(ELEMENTS, KINDS) is mine
    assert terrain_of(tuple(ELEMENTS), tuple(KINDS)) is mine  # equal layouts share one index in a thread
    others: list[object] = []
    th = [threading.Thread(target=lambda: others.append(terrain_of(ELEMENTS, KINDS))) for _ in range(3)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    assert len(others) == 3 and all(o is not mine for o in others)
    assert len({id(o) for o in others}) == 3


def test_threads_asking_the_same_layout_at_once_agree_with_one_thread():
    rng = random.Random(3)
    boxes = [Box(rng.uniform(0, 24), rng.uniform(0, 3), rng.uniform(0, 360), 1.0, 0.5) for _ in range(400)]
    want = [(terrain_of(ELEMENTS, KINDS).partially_in(b, "difficult"), terrain_of(ELEMENTS, KINDS).context(b))
            for b in boxes]
    got: dict[int, list] = {}

    def ask(n: int) -> None:
        got[n] = [(terrain_of(ELEMENTS, KINDS).partially_in(b, "difficult"), terrain_of(ELEMENTS, KINDS).context(b))
                  for b in boxes]

    th = [threading.Thread(target=ask, args=(n,)) for n in range(4)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    assert sum(bool(p) for p, _ in want) > 20
    assert all(got[n] == want for n in range(4))
