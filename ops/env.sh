# Sourced by ops/serve and ops/test: make (or reuse) the project's virtualenv and
# install umpire with what it needs. Idempotent; a fresh machine needs only python3.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${UMPIRE_VENV:-$ROOT/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
stamp="$VENV/.umpire-installed"
if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT[test]"
  touch "$stamp"
fi
export PATH="$VENV/bin:$PATH"
