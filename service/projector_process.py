"""The projector process that `umpire serve` starts and supervises (issue 17)."""
from __future__ import annotations

import argparse
import logging
import os
import signal
import threading
from typing import Sequence

import service.cli  # noqa: F401 -- loads the plug-ins as the serving processes do (their rulesets)
from projections.projector import tail
from projections.read_models import ReadModels
from service.settings import ENV_DATABASE_URL, ENV_REDIS_URL, redis_client
from service.store import open_store
from scenarios.content import hand_to_rulesets

from .json_logs import install, json_wanted
from .metrics import ProjectorLag

#: Seconds between two samples of the projector's lag.
LAG_SAMPLE_SECONDS = 1.0


def main(argv: Sequence[str] | None = None) -> None:
    """``UMPIRE_REDIS_URL=URL python -m service.projector_process --data-dir DIR``: the projector process
    (:func:`projections.projector.tail` over this store; it lives in the service because it opens the store).
    The Redis URL comes from the environment, never from the command line: it holds the Redis password, and
    every process's argv is readable by every local user (``ps``)."""
    ap = argparse.ArgumentParser(description="umpire's projector process: the Redis read models follow the log")
    ap.add_argument("--data-dir", required=True)
    args = ap.parse_args(argv)
    hand_to_rulesets()  # the folds of the read models need the rulesets' content (scenarios/)
    url = os.environ.get(ENV_REDIS_URL, "").strip()
    if not url:
        ap.error(f"{ENV_REDIS_URL} must name the Redis to project into (it is read from the environment only)")
    if json_wanted():  # UMPIRE_LOG_FORMAT=json: as the serving processes log
        install()
    else:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s projector: %(message)s")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    # the cluster client when the URL (or UMPIRE_REDIS_CLUSTER) says so; the store the serving nodes use
    client = redis_client(url, socket_connect_timeout=0.5, socket_timeout=2.0)
    store = open_store(args.data_dir, database_url=os.environ.get(ENV_DATABASE_URL) or "")
    # DESIGN 16: the lag (events behind the log, seconds) sampled every second into the node's metrics
    lag = ProjectorLag()
    sampler = threading.Thread(target=_sample, args=(lag, store, stop), name="umpire-projector-lag", daemon=True)
    sampler.start()
    tail(lag.projecting(ReadModels(client, store)), lag.tailing(store), stop)


def _sample(lag: ProjectorLag, store: object, stop: threading.Event) -> None:
    while not stop.wait(LAG_SAMPLE_SECONDS):
        try:
            lag.sample(store)
        except Exception as exc:  # the store unreachable for a moment: the next sample says more
            logging.getLogger("umpire.projector").debug("lag sample failed: %s", exc)


if __name__ == "__main__":
    main()
if __name__ == "__main__":
    main()
