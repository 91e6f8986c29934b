"""`collector_paused()`: no cyclic garbage collection while a large acyclic structure is built.

Reading, validating and resolving a large scenario (a 5,000-step battle: a document of hundreds of
thousands of nodes, thousands of models, a result of hundreds of thousands of mappings and lists)
allocate many containers and almost no cycles. The collector's passes over the young generations
meanwhile, and the pass just after that walks everything built, cost about a tenth of resolving
such a battle. So inside `with collector_paused():` the collector is off, and on leaving, what was
built is handed to the oldest generation as it is (`gc.freeze()` + `gc.unfreeze()`: two list
splices, nothing walked), where it is looked at only by the rare full collections. Nothing is lost:
a cycle made meanwhile is collected by the next full collection (or `gc.collect()`).

The previous state comes back on leaving (also on an error); nested pauses act once, at the
outermost. When the process has frozen objects of its own (`gc.get_freeze_count()`), they are left
frozen: the young objects then stay where they are. Standard library only, for start-up speed.
"""

from __future__ import annotations

import gc


class collector_paused:  # noqa: N801 - used like a function: `with collector_paused():`
    """Context manager: `gc` disabled inside, restored to what it was on leaving."""

    __slots__ = ("_was",)

    def __enter__(self) -> None:
        self._was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was:
            if not gc.get_freeze_count():
                gc.freeze()          # every tracked object into the permanent generation…
                gc.unfreeze()        # …and from there into the oldest one
            gc.enable()
