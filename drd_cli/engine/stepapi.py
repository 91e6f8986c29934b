"""The engine handle a plugin's step type (`drd_step_types`) or contest resolver
(`drd_resolve_contest`) gets: the core resolutions and effects (docs/plugins.md "The engine handle")."""

from __future__ import annotations

from typing import Any

from ..errors import DocPath, Message
from ..i18n import N_
from . import steps as core_steps
from .context import Ctx, StepRecord, violation
from .contest import resolve_contest
from .state import Working


class StepAPI:
    """What a plugin's step or contest resolver may use: the core resolutions and effects."""

    def __init__(self, ctx: Ctx, w: Working, rec: StepRecord):
        self.ctx, self.w, self.rec = ctx, w, rec
        # Actors whose test through this handle spent their initiative: they may try again
        # (`test(..., spends_initiative=False)`).
        self._tried: set[str] = set()

    def participant(self, pid: str) -> Any:
        return self.w.peek(pid)

    def log(self, rule: str, text: str) -> None:
        self.rec.log(rule, text)

    def test(self, spec: Any, choices: Any, path: DocPath, *, spends_initiative: bool = True) -> None:
        """The core test (R-TEST) of `spec`'s actor(s). It is their action: it spends each actor's
        initiative action of the round (R-RND-1; exit 1 if already spent), and pays its manoeuvres,
        náročnost and activations. `spends_initiative=False` (API 3) is a further try of the same
        action in this step: allowed only for an actor whose earlier test through this handle spent
        its initiative (else exit 1, R-RND-1); it spends nothing more of the round, but pays its
        own manoeuvres, náročnost and activations again, rolls again and asks its own decisions."""
        actors = list(spec.actors) if getattr(spec, "actors", None) else [spec.actor]
        if spends_initiative:
            core_steps.resolve_test(self.ctx, self.w, self.rec, spec, choices, path)
            self._tried.update(actors)
            return
        for i, pid in enumerate(actors):
            if pid not in self._tried:
                raise violation(Message(N_("{name} tries again, but has not made the first try of this action in "
                                           "this step: the first try is the one that spends the initiative"),
                                        name=self.w.peek(pid).name), "R-RND-1",
                    path + (("actors", i) if getattr(spec, "actors", None) else ("actor",)))
        used = self.ctx.round.used
        back = {pid for pid in actors if pid in used}
        used.difference_update(back)
        try:
            core_steps.resolve_test(self.ctx, self.w, self.rec, spec, choices, path)
        finally:
            used.update(back)

    def contest(self, spec: Any, choices: Any, path: DocPath) -> None:
        resolve_contest(self.ctx, self.w, self.rec, spec, choices, path)

    def challenge(self, spec: Any, choices: Any, path: DocPath, affects: Any = None, *,
                  charge_narocnost: bool = False) -> Any:
        """The core výzva. `charge_narocnost=True` lets the core charge the výzva's náročnost (R-NAR)
        to each participant who undergoes it; the default keeps the older contract, where a plugin
        that passes `demanding` has already charged it itself (plugin `ukryvani`)."""
        return core_steps.resolve_challenge(self.ctx, self.w, self.rec, spec, choices, path, affects=affects,
                                            charge_narocnost=charge_narocnost)

    def apply(self, effect: Any, to: Any, *, actor: str | None = None, rule: str = "§1.5",
              source: Any = "") -> Any:
        from .actions import apply_effects

        return apply_effects(self.ctx, self.w, self.rec, effect, to, actor=actor, rule=rule, source=source)

    def exhaust(self, **kwargs: Any) -> Any:
        from .actions import exhaust

        return exhaust(self.ctx, self.w, self.rec, **kwargs)
