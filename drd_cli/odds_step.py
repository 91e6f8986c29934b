"""The old name of `drd_cli.odds.step` (kept for code that imports it): the odds of one step."""

from .odds.budget import *  # noqa: F401,F403
from .odds.budget import COMBO_BUDGET, DEFAULT_BUDGET, DEFAULT_TIME, MAX_SAMPLES, STATE_BUDGET  # noqa: F401
from .odds.classes import _classes, _compress, _contest_classes, _exact_groups, _key_function, _placements  # noqa: F401
from .odds.estimate import _Agg, _estimate, summarize  # noqa: F401
from .odds.step import StepPrep, find_step, odds_for, step_odds, time_budget  # noqa: F401
