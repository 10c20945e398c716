"""The deployment files (ops/deploy) cannot be run here; read them against the code instead.

- every UMPIRE_* variable the service reads (the ``ENV_*`` names of
  service/settings.py and any other ``UMPIRE_*`` name in service/ and
  projections/) is documented in .env.example and set or defaulted in
  compose.yaml;
- every UMPIRE_* variable in those files (and the Dockerfile) is one the service reads;
- the values they give are accepted by ``Settings.from_env``;
- the Dockerfile's CMD uses only options ``umpire serve --help`` really has.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import service.settings as settings_mod
from service.cli import main as cli_main
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "ops" / "deploy"
VAR = re.compile(r"\bUMPIRE_[A-Z][A-Z0-9_]*\b")
DEFAULTED = re.compile(r"^\$\{(UMPIRE_[A-Z0-9_]+):-(.*)\}$")


def read_vars() -> set[str]:
    """Every UMPIRE_* name the service's code reads."""
    names = {v for k, v in vars(settings_mod).items() if k.startswith("ENV_") and isinstance(v, str)}
    for pkg in ("service", "projections"):
        for py in (ROOT / pkg).rglob("*.py"):
            names |= set(VAR.findall(py.read_text()))
    return names


def env_example() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in (DEPLOY / ".env.example").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        assert "=" in line, f".env.example: {line!r} is not NAME=value"
        k, v = line.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def compose_env() -> dict[str, str]:
    env = compose()["services"]["umpire"]["environment"]
    assert isinstance(env, dict), "compose.yaml: services.umpire.environment must be a mapping"
    return {k: str(v) for k, v in env.items()}


def dockerfile_cmd() -> list[str]:
    cmds = [line for line in (DEPLOY / "Dockerfile").read_text().splitlines() if line.startswith("CMD ")]
    assert len(cmds) == 1, "Dockerfile: exactly one CMD"
    return json.loads(cmds[0][4:])


def test_the_code_reads_the_settings_variables():
    names = read_vars()
    assert {"UMPIRE_DATA_DIR", "UMPIRE_REDIS_URL", "UMPIRE_HOST", "UMPIRE_PORT"} <= names


def test_every_variable_read_is_documented_and_set_in_compose():
    names = read_vars()
    documented = env_example()
    assert names - set(documented) == set(), "read by the code, missing from .env.example"
    text = (DEPLOY / ".env.example").read_text()
    for n in names:  # each has a comment right above it
        lines = text.splitlines()
        i = next(i for i, line in enumerate(lines) if line.startswith(n + "="))
        assert lines[i - 1].startswith("#"), f".env.example: {n} has no comment saying what it is"
    assert names - set(compose_env()) == set(), "read by the code, not set or defaulted in compose.yaml"


def test_every_variable_in_the_files_is_read_by_the_code():
    names = read_vars()
    for f in ("Dockerfile", "compose.yaml", ".env.example"):
        found = set(VAR.findall((DEPLOY / f).read_text()))
        assert found - names == set(), f"{f} names variables the code never reads"


def test_compose_values_default_to_the_example_and_are_valid():
    example = env_example()
    resolved: dict[str, str] = {}
    for k, v in compose_env().items():
        m = DEFAULTED.match(v)
        assert m and m.group(1) == k, f"compose.yaml: {k} should be ${{{k}:-default}}, is {v!r}"
        assert m.group(2) == example[k], f"compose default of {k} differs from .env.example"
        resolved[k] = m.group(2)
    s = Settings.from_env(resolved)
    assert s.redis_url == "redis://redis:6379/0"
    assert s.port == 8000 and s.host == "0.0.0.0"
    # compose's Redis service is the one the URL names
    assert "redis" in compose()["services"]
    assert compose()["services"]["umpire"]["volumes"][0].endswith("${UMPIRE_DATA_DIR:-/var/lib/umpire/data}")


def test_dockerfile_cmd_uses_real_serve_options():
    cmd = dockerfile_cmd()
    assert cmd[:2] == ["umpire", "serve"]
    help_text = CliRunner().invoke(cli_main, ["serve", "--help"]).output
    flags = [a for a in cmd if a.startswith("--")]
    assert "--host" in flags
    for flag in flags:
        assert re.search(rf"(^|\s){re.escape(flag)}\b", help_text), f"umpire serve has no {flag}"
    assert cmd[cmd.index("--host") + 1] == "0.0.0.0"
    # the host compose documents is the one the CMD binds (a CLI option wins over the environment)
    assert DEFAULTED.match(compose_env()["UMPIRE_HOST"]).group(2) == "0.0.0.0"


def test_dockerfile_shape():
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.M)
    assert re.search(r"^RUN pip install \.", text, re.M)
    user = re.search(r"^USER (\S+)", text, re.M)
    assert user and user.group(1) not in ("root", "0")
    data = re.search(r"UMPIRE_DATA_DIR=(\S+)", text).group(1)
    assert f'VOLUME ["{data}"]' in text
    for src in re.findall(r"^COPY (\S+) ", text, re.M):
        assert (ROOT / src).exists(), f"Dockerfile copies {src}, which is not in the repository"
    # every package pyproject installs is copied in
    for pkg in ("domain", "service", "projections", "scenarios"):
        assert f"COPY {pkg} ./{pkg}" in text


@pytest.mark.parametrize("name,field", [("UMPIRE_DATA_DIR", "data_dir"), ("UMPIRE_REDIS_URL", "redis_url"),
                                        ("UMPIRE_HOST", "host"), ("UMPIRE_PORT", "port")])
def test_example_value_is_the_setting_it_documents(name, field):
    value = env_example()[name]
    s = Settings.from_env({name: value})
    assert str(getattr(s, field)) == value
