"""Which log positions are final on PostgreSQL: a tail that never steps over an event still to come.

On PostgreSQL an event's position (``events.gpos``, an identity column) is taken when the row is inserted,
not when its transaction commits. Two commands of two games in flight at once can therefore become visible
out of order: the one holding position 100 commits after the one holding 101. A reader that had read up to
101 and then asked for ``gpos > 101`` would never see 100 (the projector's tail, and its resume checkpoint
``{lobby}:projected-upto``, would skip it for good). SQLite has one writer at a time, so its positions
(rowids) become visible in order and this module is not needed there.

A *gap* (a position missing below one that is visible) is either an event of a transaction still running
or a position that will never be filled (a transaction rolled back after it took it, e.g. a version
conflict). :class:`Horizon` tells them apart without a column of its own, with PostgreSQL's snapshots:

- every writer of events takes its transaction id before it takes a position (the store's game lock
  statement calls ``pg_current_xact_id()``), so whoever holds a gap below a position ``top`` that a read
  saw had its transaction id before that read;
- a snapshot taken after the read has ``xmax`` above every id handed out before it; once a later snapshot's
  ``xmin`` (the oldest transaction still running) reaches that ``xmax``, every transaction that could hold a
  gap below ``top`` has ended: each position up to ``top`` is *final* -- committed and visible, or never.

A reader then yields events in position order and stops before the first gap above the final horizon; it
reads again a moment later. A gap costs the duration of the transactions running when it was seen
(milliseconds on the command path); nothing is skipped.
"""
from __future__ import annotations

import threading

#: One statement: the statement's own snapshot (under which its rows are read) as two integers.
SNAPSHOT_COLUMNS = ("pg_snapshot_xmin(pg_current_snapshot())::text::bigint, "
                    "pg_snapshot_xmax(pg_current_snapshot())::text::bigint")

#: Observations kept while a long transaction holds ``xmin`` back.
WATCH_MAX = 64


class Horizon:
    """What is known of the final positions of one PostgreSQL log (shared by the readers of one store).

    Call :meth:`snapshot` with the ``xmin``/``xmax`` of the snapshot a read runs under (it returns the final
    horizon valid for that read), then :meth:`seen` with the highest position the read returned."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: Every position up to here is final.
        self.final = 0
        self._unstamped = 0  # the highest position seen since the last snapshot (it needs a later xmax)
        self._watch: list[tuple[int, int]] = []  # (top, xmax): every position <= top is final once xmin >= xmax

    def snapshot(self, xmin: int, xmax: int) -> int:
        """The final horizon for a read made under a snapshot with these ``xmin`` and ``xmax``."""
        with self._lock:
            if self._unstamped > self.final:
                # this snapshot was taken after the read that saw ``_unstamped``
                self._watch.append((self._unstamped, xmax))
                self._unstamped = 0
            keep = []
            for top, after in self._watch:
                if after <= xmin:
                    self.final = max(self.final, top)
                else:
                    keep.append((top, after))
            self._watch = keep[-WATCH_MAX:]  # dropping the oldest only delays finality (a later one covers more)
            return self.final

    def seen(self, top: int, xmin: int, xmax: int) -> None:
        """A read under the snapshot ``(xmin, xmax)`` returned positions up to ``top``."""
        with self._lock:
            if xmin >= xmax:  # no transaction was running: whoever took a position below ``top`` had ended
                self.final = max(self.final, top)
            elif top > self.final:
                self._unstamped = max(self._unstamped, top)


__all__ = ["SNAPSHOT_COLUMNS", "WATCH_MAX", "Horizon"]
