from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scenarios.hoth import DEFAULT_ROOT

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixture_dir(tmp_path: Path):
    """The content directory of a malformed-content fixture.

    Campaign fixtures hold only ``campaigns/``; the shipped scenarios and cards
    are copied beside them so that only the campaign is at fault.
    """

    def make(case: str) -> Path:
        src = FIXTURES / case
        assert src.is_dir(), case
        if (src / "campaigns").is_dir() and not (src / "scenarios").exists():
            dst = tmp_path / case
            shutil.copytree(src, dst)
            shutil.copytree(DEFAULT_ROOT / "scenarios", dst / "scenarios")
            shutil.copytree(DEFAULT_ROOT / "cards", dst / "cards")
            return dst
        return src

    return make
