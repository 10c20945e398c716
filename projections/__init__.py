"""Redis read models built from the event log (DESIGN section 7).

``ReadModels`` is the object the service holds: ``project`` after each
command, the queries (``game_view``, ``state_at``, ``timeline``, ``lobby``,
``read_feed``) answer None whenever the service must answer from the log.
``Projector`` projects the events each command hands over, off the command path;
``CatchUp`` repairs the models in the background; ``rebuild`` rebuilds them all.
"""
from .catch_up import CATCH_UP_INTERVAL_S, CatchUp
from .projector import Projector
from .read_models import FEED_MAXLEN, ProjectionError, ReadModels, decode_feed_event
from .snapshots import SNAPSHOT_EVERY

__all__ = [
    "CATCH_UP_INTERVAL_S", "CatchUp", "FEED_MAXLEN", "ProjectionError", "Projector", "ReadModels",
    "SNAPSHOT_EVERY", "decode_feed_event",
]
