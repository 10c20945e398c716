"""Bad content never crashes the loader: any value at any place of a shipped file gives problems
(each naming the file, a field and a sentence) or loads; never an exception (hypothesis)."""
from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scenarios.hoth import DEFAULT_ROOT, read_catalog

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-30, 30) | st.sampled_from(
        ["", "ridge", "at_at", "imperial", "rebel", "order", "SG-1", "PROP-EMP-X", "C2-9", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["hex", "unit", "faction", "effect", "type", "id", "count", "kind", "zz"]), inner,
        max_size=3),
    max_leaves=6,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _mutate(doc, path, value, delete):
    doc = copy.deepcopy(doc)
    if not path:
        return value
    cur = doc
    for k in path[:-1]:
        cur = cur[k]
    if delete and isinstance(cur, dict):
        cur.pop(path[-1], None)
    else:
        cur[path[-1]] = value
    return doc


def _check(tmp: Path, kind: str, name: str, doc) -> None:
    (tmp / kind / name).write_text(json.dumps(doc))
    catalog, problems = read_catalog(tmp)
    for p in problems:
        assert p.file and p.message.endswith("."), p
    assert isinstance(catalog.scenarios, dict)


def _case(kind: str, name: str):
    original = json.loads((DEFAULT_ROOT / kind / name).read_text())
    paths = list(_paths(original))

    @settings(max_examples=100, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.sampled_from(paths), JSON, st.booleans())
    def run(tmp_path, path, value, delete):
        _check(tmp_path, kind, name, _mutate(original, path, value, delete))

    return run


def _tree(tmp_path: Path, kinds: tuple[str, ...]) -> Path:
    root = tmp_path / "content"
    if root.exists():
        shutil.rmtree(root)
    for k in kinds:
        shutil.copytree(DEFAULT_ROOT / k, root / k)
    return root


def test_mutated_scenario_never_crashes(tmp_path):
    root = _tree(tmp_path, ("scenarios",))
    _case("scenarios", "take-down-the-shield.json")(root)


def test_mutated_card_file_never_crashes(tmp_path):
    root = _tree(tmp_path, ("cards",))
    _case("cards", "imperial-leaders.json")(root)


def test_mutated_campaign_never_crashes(tmp_path):
    root = _tree(tmp_path, ("scenarios", "cards", "campaigns"))
    _case("campaigns", "cmp-1-assault-on-echo-base.json")(root)
