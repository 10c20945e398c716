"""tests/i18n: ops/ is not a package; the catalog script is imported from it."""
from __future__ import annotations

import sys
from pathlib import Path

OPS = Path(__file__).resolve().parents[2] / "ops"
if str(OPS) not in sys.path:
    sys.path.insert(0, str(OPS))
