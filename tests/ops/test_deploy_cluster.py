"""ops/deploy/compose.cluster.yaml (N nodes, PostgreSQL, a 3-master Redis Cluster, nginx) cannot be run here;
read it against the code: the nodes' settings are accepted by ``Settings.from_env`` and name the cluster and
the database the file starts, every UMPIRE_* variable in it is one the service reads, the secrets are
required (no default), the Redis nodes are cluster nodes whose slots the init job assigns, and the load
balancer spreads over the umpire service's port without buffering the feeds."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import yaml

from service.settings import Settings

from .test_deploy_files import DEPLOY, VAR, read_vars

FILE = DEPLOY / "compose.cluster.yaml"
REQUIRED = re.compile(r"\$\{([A-Z_]+):\?[^}]*\}")
DEFAULTED = re.compile(r"\$\{([A-Z_]+):-([^}]*)\}")


def _doc() -> dict:
    return yaml.safe_load(FILE.read_text())


def _resolve(value: str, secrets: dict[str, str]) -> str:
    value = REQUIRED.sub(lambda m: secrets[m.group(1)], value)
    return DEFAULTED.sub(lambda m: m.group(2), value)


SECRETS = {"UMPIRE_SIGNING_KEY": "ab" * 32, "POSTGRES_PASSWORD": "pg-secret", "REDIS_PASSWORD": "redis-secret"}


def test_every_umpire_variable_in_the_file_is_read_by_the_code():
    assert set(VAR.findall(FILE.read_text())) - read_vars() == set()


def test_the_nodes_settings_name_the_database_and_the_cluster_of_the_file():
    doc = _doc()
    services = doc["services"]
    env = {k: _resolve(str(v), SECRETS) for k, v in services["umpire"]["environment"].items()}
    s = Settings.from_env(env)
    assert s.redis_cluster is True and s.port == 8000 and s.host == "0.0.0.0"
    db = urlsplit(s.database_url)
    assert db.hostname == "postgres" and db.hostname in services and db.password == SECRETS["POSTGRES_PASSWORD"]
    assert db.path.lstrip("/") == services["postgres"]["environment"]["POSTGRES_DB"]
    assert db.username == services["postgres"]["environment"]["POSTGRES_USER"]
    redis_url = urlsplit(s.redis_url)
    assert redis_url.scheme == "redis+cluster" and redis_url.hostname in services
    assert redis_url.password == SECRETS["REDIS_PASSWORD"]
    from service.receipts import load_or_create

    assert load_or_create("/nonexistent", env)  # the shared key is a valid Ed25519 key, read from the env
    # the secrets are required: compose refuses to start without them
    raw = services["umpire"]["environment"]
    for name in ("UMPIRE_SIGNING_KEY",):
        assert REQUIRED.fullmatch(raw[name]), f"{name} must be required (${{{name}:?...}})"
    assert "POSTGRES_PASSWORD:?" in raw["UMPIRE_DATABASE_URL"] and "REDIS_PASSWORD:?" in raw["UMPIRE_REDIS_URL"]
    assert "replicas" in services["umpire"]["deploy"]


def test_three_cluster_masters_and_an_init_job_that_names_them_all():
    services = _doc()["services"]
    masters = [n for n in services if re.fullmatch(r"redis-\d+", n)]
    assert len(masters) == 3
    for n in masters:
        cmd = services[n]["command"]
        opts = dict(zip(cmd[1::2], cmd[2::2]))
        assert opts["--cluster-enabled"] == "yes"
        assert opts["--cluster-require-full-coverage"] == "no"  # a dead master fails only its own slots
        assert opts["--save"] == "" and opts["--appendonly"] == "no"  # projections: rebuilt from the log
        assert REQUIRED.fullmatch(opts["--requirepass"])
    init = " ".join(services["redis-init"]["command"])
    for n in masters:
        assert f"getent hosts {n} " in init
    assert "--cluster-replicas 0" in init
    assert set(services["umpire"]["depends_on"]) == {"postgres", "redis-init"}


def test_the_load_balancer_spreads_over_the_nodes_without_buffering_feeds():
    doc = _doc()
    conf = doc["configs"]["nginx"]["content"]
    port = doc["services"]["umpire"]["environment"]["UMPIRE_PORT"]
    assert re.search(rf"server umpire:{port}\b", conf)
    assert "proxy_buffering off;" in conf and "proxy_pass http://umpire;" in conf
    assert "non_idempotent" not in conf  # nginx never replays a POST on another node
    assert doc["services"]["lb"]["configs"][0]["target"] == "/etc/nginx/conf.d/default.conf"
