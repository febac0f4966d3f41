"""After-commit events: a change says what happened; whoever cares listens.

A use case (``companion/tables/``, ``companion/scorekeeper/``) commits its transaction and
then sends one of the signals below. It imports none of its listeners: the live broker,
the kept-table cache and the bot scheduler connect to the signals when the app is built
(``create_app`` calls each feature's ``connect()``), so no module that changes a table or a
sheet needs to import the modules that react to it, and no import circle is needed to
hold them together.

The signals are Flask's own mechanism (``blinker``, a Flask dependency). A receiver runs
synchronously in the request that sent the signal, after the commit; it must not raise
for something the user cannot fix (a receiver that fails logs and carries on: the change
is stored, and the user is told it worked). Receivers are connected weakly by default in
blinker; connect module-level functions (``weak=False`` is not needed for those).

Signals and their keyword arguments:

``table_changed`` (sender: the table's code, ``str``)
    ``facts``: the table as this process now keeps it (``tables.kept.TableFacts``),
    ``with_bots``: whether a bot sits at the table (so the scheduler may wake it).

``sheet_changed`` (sender: the sheet's code, ``str``)
    ``rounds``: how many rounds the sheet now holds (what the watch page is told).
"""

from __future__ import annotations

import logging
from typing import Any

from blinker import Namespace

_signals = Namespace()

table_changed = _signals.signal("table-changed")
sheet_changed = _signals.signal("sheet-changed")

log = logging.getLogger(__name__)


def announce(signal: Any, sender: str, **facts: Any) -> None:
    """Send ``signal`` after a commit. A receiver that fails is logged, never raised: the
    change is already stored, so the request that made it still succeeds."""
    for receiver in signal.receivers_for(sender):
        try:
            receiver(sender, **facts)
        except Exception:  # a listener's failure is not the change's
            log.exception("a %s listener failed for %s", signal.name, sender)
