"""`drd play FILE`: resolve a scenario at the table — rolls and decisions asked for, a replay written."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from ._common import use_option
from ._common import (N_, Lang, attach_digest, disable_option, enable_option, group_option, guarded, lang_option,
                      make_console, parse_params, replay_option, set_option, use_language, write_atomic)
from ._asking import INTERRUPTED_EXIT, _say_err, require_terminal, resolve_asking  # noqa: F401
from .resolve import View, refuse_player_json, view_option


def _refuse_replay_onto_input(target: str | None, file: str, group: str | None) -> None:
    """DrdError (exit 2, nothing written) when the replay would overwrite an input — the
    scenario or the group profile (and what it extends), however spelled — as for `-o`. A replay
    being resumed may be rewritten in place (its default)."""
    if not target:
        return
    from ..i18n import _
    from ..play.replay import default_replay_path
    from ..safefiles import overwritten_input, same_file
    from ._common import input_files

    inputs = [f for f in input_files(file, group=group)
              if not (f == file and default_replay_path(file) == file and same_file(target, file))]
    hit = overwritten_input(target, inputs)
    if hit is not None:
        from ..errors import DrdError, Location

        raise DrdError(_("the replay would overwrite the input file {input}; nothing was written").format(
                           input=hit), Location(target), hint=_("choose another --replay file"))


HELP = N_("Play a scenario at the table: type your dice (4 3), a total (9) or Enter; choose at each decision.\n\n"
          "Before each roll drd shows who rolls what for and the exact odds; each decision is offered with its "
          "exact cost. At the end the transcript (or --json), and a replay file that `drd resolve` reproduces.")


def play(
    file: str = typer.Argument(..., help=N_("The scenario YAML file (a skeleton: rolls and choices may be left out)."),
                               metavar="FILE"),
    json_out: bool = typer.Option(False, "--json", help=N_("Print the result as JSON at the end (prompts go to stderr).")),
    seed: Optional[int] = typer.Option(None, "--seed", help=N_("Seed for the rolls you leave to drd (Enter) "
                                       "(default: the file's `seed`, else a fresh one).")),
    set_: Optional[List[str]] = set_option(),
    enable: Optional[List[str]] = enable_option(),
    disable: Optional[List[str]] = disable_option(), use: Optional[List[str]] = use_option(),
    group: Optional[str] = group_option(),
    replay: Optional[str] = replay_option(),
    no_replay: bool = typer.Option(False, "--no-replay", help=N_("Do not write a replay file.")),
    from_step: Optional[str] = typer.Option(None, "--from", metavar="STEP",
                                            help=N_("Resume a replay at this step: its rolls and answers from the "
                                                    "step on are kept for redo (r) until something else is entered.")),
    reroll: bool = typer.Option(False, "--reroll", help=N_("Leave the file's rolls open: every roll is asked at the "
                                                          "table (type the dice, or Enter for drd to roll). The "
                                                          "file's choices stay; the file itself is not changed.")),
    lang: Optional[Lang] = lang_option(),
    view: View = view_option(),
    stul: bool = typer.Option(False, "--stul", help=N_("Serve the game to the table's phones and screen instead "
                                                      "of asking here (drd stul, docs/stul.md).")),
    zapsat: bool = typer.Option(False, "--zapsat", help=N_("In a campaign: write the outcome into the characters "
                                                          "without asking (docs/kampan.md).")),
) -> None:
    """Play a scenario at the table: type your dice (4 3), a total (9) or Enter; choose at each decision.

    Before each roll drd shows who rolls what for and the exact odds; each decision is offered with
    its exact cost. At the end the transcript (or --json), and a replay file that `drd resolve`
    reproduces exactly. Ctrl-C: exit 130, the replay holds what was entered so far.
    """
    use_language(lang)
    from ..i18n import _

    params = parse_params(set_)
    if stul:
        from .stul import DEFAULT_PORT, run_table

        run_table(file, lan=False, host=None, port=DEFAULT_PORT, resume=False, seed=seed, params=params,
                  enable=enable, disable=disable, group=group, replay=replay, qr=True, lang=getattr(lang, "value", lang))
        return
    if view is View.player and json_out:
        refuse_player_json()
    out = sys.stderr if json_out else sys.stdout
    from ._streams import CLOSED_AT_START

    if sys.stdout is None or out is None or "stdout" in CLOSED_AT_START:
        # Nothing could show the questions or the result: refuse before anything is asked (docs/play.md).
        _say_err(_("drd play: standard output is closed, so neither the questions nor the result can be shown"))
        raise typer.Exit(2)
    with guarded():
        from ..play.replay import default_replay_path

        game = _Game.load(file, seed, dict(params=params, enable=tuple(enable or ()), disable=tuple(disable or ()),
                                           group=group), from_step, reroll)
        target = None if no_replay else (replay or default_replay_path(file))
        _refuse_replay_onto_input(target, file, group)
        table, session, result = _play_game(game, out, target)
        _finish(game, table, session, result, target, json_out=json_out, view=view, out=out, zapsat=zapsat)


class _Game:
    """The scenario as played: loaded (shortened by --from, its rolls opened by --reroll), its text
    (the replay is written from it), the seed and the command line's rules options."""

    def __init__(self, file: str, loaded, text: str, seed: int, opts: dict, redo: list,  # noqa: ANN001
                 from_step: Optional[str], opened: Optional[int]):
        from ..play import replay_rules

        self.file, self.loaded, self.text, self.seed, self.opts = file, loaded, text, seed, opts
        self.redo, self.from_step, self.opened = redo, from_step, opened
        self.notes: list[str] = []     # what --reroll says it decided
        # The replay carries the session's rules itself (group inlined), so it replays with no options.
        self.rules, self.rule_dirs = replay_rules(loaded, **opts)

    @classmethod
    def load(cls, file: str, seed: Optional[int], opts: dict, from_step: Optional[str], reroll: bool) -> "_Game":
        from ..api import load_scenario
        from ..dice import new_seed
        from ..errors import ScenarioError
        from ..i18n import _

        loaded = load_scenario(file)
        if loaded.system != "drd2":
            raise ScenarioError(_("drd play plays DrD II scenarios (system: drd2); a Dakara file is resolved by "
                                  "drd resolve, a quick Dakara test by drd dakara"), path=("system",))
        used_seed = seed if seed is not None else loaded.scenario.seed if loaded.scenario.seed is not None \
            else new_seed()
        with open(file, encoding="utf-8-sig") as handle:
            text = handle.read()
        opened: int | None = None
        notes: list[str] = []
        if reroll:
            from ..play.resume import open_rolls

            loaded, text, opened, notes = open_rolls(loaded, text)
        redo: list = []
        if from_step is not None:
            from ..api import resolve_scenario
            from ..play.resume import resume_at

            loaded, text, redo = resume_at(
                loaded, text, from_step,
                lambda scen: (lambda **kw: resolve_scenario(scen, seed=used_seed, **opts, **kw)), used_seed)
        game = cls(file, loaded, text, used_seed, opts, redo, from_step, opened)
        game.notes = notes
        return game

    def resolve(self, scenario=None, **kw) -> dict:  # noqa: ANN001
        from ..api import resolve_scenario

        return resolve_scenario(scenario or self.loaded, seed=self.seed, **self.opts, **kw)

    def replay_text(self, session) -> str:  # noqa: ANN001
        return session.replay_text(self.text, self.rules)


def _play_game(game: _Game, out, target: Optional[str]):  # noqa: ANN001, ANN202
    """Asks the game at the table; (table, session, result). Ctrl-C, the input's or the output's end
    stop it early: what was answered so far is kept in the replay (atomically)."""
    from ..i18n import _, ngettext
    from ..play import Session, Table
    from ..play.previews import game_so_far
    from ..play.reading import OutputGone

    table = Table(sys.stdin, out)
    session = Session(game.loaded, table, game.seed, game.resolve, redo=game.redo)
    session.so_far = lambda: game_so_far(game.replay_text(session), game.file)
    session.so_far_group = game.opts["group"]

    def stop(why: str, code: int) -> typer.Exit:
        saved = ""
        if target and session.answered:
            write_atomic(target, game.replay_text(session))
            saved = _("; the rolls and choices entered are in {file} (drd play {file} continues)").format(
                file=target)
        _say_err(f"\ndrd play: {why}{saved}")
        return typer.Exit(code)

    try:
        table.say(_("drd play: {title} (seed {seed})").format(title=game.loaded.scenario.title or game.file,
                                                             seed=game.seed))
        for line in _start_notes(game.loaded, game.resolve, opened=game.opened) + game.notes:
            table.say(line)
        if game.from_step is not None:
            table.say(ngettext("from step {step}: {n} later entry of the replay is kept for redo (r)",
                               "from step {step}: {n} later entries of the replay are kept for redo (r)",
                               len(game.redo)).format(step=game.from_step, n=len(game.redo)))
        result = session.run()
    except KeyboardInterrupt:
        raise stop(_("interrupted (Ctrl-C)"), INTERRUPTED_EXIT) from None
    except EOFError:
        if not table.read:
            # Not one answer could be read: a usage problem, not an interrupted game (docs/play.md).
            raise stop(_("no answer on standard input before the first question (it is empty or closed)")
                       + "\n  → " + _("play on a terminal, or pipe the answers in, one per line "
                                       "(docs/play.md, Scripted play)"), 2) from None
        raise stop(_("the input ended in the middle of the game"), INTERRUPTED_EXIT) from None
    except OutputGone as exc:
        raise stop(_("cannot write to standard output: {reason}").format(reason=exc.reason), 2) from None
    return table, session, result


def _finish(game: _Game, table, session, result: dict, target: Optional[str], *, json_out: bool,  # noqa: ANN001
            view: View, out, zapsat: bool) -> None:  # noqa: ANN001
    """The replay file, the transcript (or JSON), a campaign's offer and the replay's command line."""
    from ..i18n import _

    if target:
        write_atomic(target, game.replay_text(session))
    result["digest"] = _replay_digest(game.replay_text(session), target or None, game.file, game.resolve)
    full = result
    if json_out:
        from ..render.jsonout import dumps

        sys.stdout.write(dumps(result))
    else:
        from ..render.terminal import render

        out.write("\n")
        if view is View.player:
            result = _players_transcript(result, game.loaded, target, game.resolve)
        render(result, make_console())
    if game.loaded.campaign:
        from ..campaign.session import offer_in_play

        offer_in_play(game.loaded, full, game.file, table.ask, _say_err, always=zapsat, replay=target)
    if target:
        # A group's plugin folders cannot go into a scenario: the command names them.
        again = " ".join(["drd"] + [f"--plugins-dir {d}" for d in game.rule_dirs] + ["resolve", target])
        _say_err(_("Game record: {file}  (replay: {again})").format(file=target, again=again))


def _start_notes(loaded, probe, opened: Optional[int] = None) -> list[str]:  # noqa: ANN001
    """What the GM should know before the first question: that every roll is in the file (so drd
    asks no dice; `--reroll` opens them) or that --reroll opened the file's rolls, and that sides
    are missing (so exhausting for others is offered only between those who do not act against each
    other, CS-FOR-1)."""
    from ..errors import DrdError
    from ..i18n import _, ngettext

    notes = []
    if opened:
        notes.append(ngettext("--reroll: the file's {n} roll entry is left open, so drd asks for every roll "
                              "(the file itself is not changed).",
                              "--reroll: the file's {n} roll entries are left open, so drd asks for every roll "
                              "(the file itself is not changed).", opened).format(n=opened))
    try:
        result = None if opened is not None else probe()
    except DrdError:
        result = None
    rolls = [r for step in (result or {}).get("steps", []) for r in (step.get("rolls") or {}).values()]
    if result and rolls and all(r.get("source") == "given" for r in rolls):
        open_decisions = any(step.get("decisions") for step in result["steps"])
        notes.append(_("Every roll is written in the file, so drd asks for no dice{only}. To roll them at the "
                       "table, play with --reroll (drd asks for every roll; the file is not changed).").format(
                           only=_(", only the decisions the file leaves open") if open_decisions else
                           _(" and every decision is answered too: the game below is the file's own")))
    participants = getattr(loaded.scenario, "participants", None) or {}
    if len(participants) > 1 and any(getattr(p, "side", None) is None for p in participants.values()):
        notes.append(_("Note for the GM: not every participant has `side:`; exhausting for others is offered only "
                       "between those who do not act against each other in the step (CS-FOR-1). Give each "
                       "participant a `side:` to say who stands with whom."))
    return notes


def _replay_digest(replay_text: str, target: Optional[str], file: str, resolve) -> str:  # noqa: ANN001
    """The footer hash of the game: the replay's own (every roll written), so `drd resolve REPLAY
    --verify TRANSCRIPT` checks it. Without a replay file the replay is made in a temporary folder
    beside the scenario (a campaign's characters are found from there), else in the system's."""
    import tempfile
    from pathlib import Path

    from ..api import load_scenario

    try:
        holder = tempfile.TemporaryDirectory(prefix=".drd-play-", dir=str(Path(file).resolve().parent))
    except OSError:
        holder = tempfile.TemporaryDirectory()
    with holder as folder:
        path = target
        if not path:
            path = str(Path(folder) / "game.replay.yaml")
            Path(path).write_text(replay_text, encoding="utf-8")
        replayed = load_scenario(path)
        return attach_digest(resolve(replayed), replayed)


def _players_transcript(result: dict, loaded, target: Optional[str], resolve) -> dict:  # noqa: ANN001
    """`--view player`: the players' view of the game. With a replay written, it is the replay's own
    resolution (the same game, every roll `given`), so its footer hash verifies against the GM's
    `drd resolve REPLAY --verify` (docs/play.md)."""
    from ..render.view import player_view

    if target:
        from ..api import load_scenario

        replayed = load_scenario(target)
        result = resolve(replayed)
        attach_digest(result, replayed)
    return player_view(result, loaded.scenario)


__all__ = ["play", "require_terminal", "resolve_asking", "INTERRUPTED_EXIT"]
