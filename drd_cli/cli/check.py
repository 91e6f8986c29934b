"""`drd check FILE...`: validate scenarios and hold those with `expect:` to their expectations."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, List, Optional

import typer

from ._common import N_, INTERNAL_ERROR_EXIT, Lang, lang_option, use_language


class Format(str, Enum):
    """How `drd check` reports."""

    text = "text"
    json = "json"
    github = "github"


@dataclass
class FileReport:
    """The outcome for one file: `ok`, `differences` (exit 1), `invalid` (exit 2) or `error` (a bug)."""

    file: str
    status: str
    problems: list = field(default_factory=list)   # drd_cli.errors.Problem
    exit: int | None = None                         # how resolving ended, when it was tried
    expected_exit: int | None = None
    checked: bool = False                           # the file has `expect:` and was compared


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _raw_expect(path: str) -> dict | None:
    """The `expect:` block of a file that failed validation, if the YAML itself still loads."""
    from ..errors import DrdError
    from ..scenario.load import load_document

    try:
        data, _ = load_document(path)
    except DrdError:
        return None
    expect = data.get("expect")
    return _plain(expect) if isinstance(expect, dict) else None


def check_file(path: str) -> FileReport:
    """Validates `path`; with `expect:` resolves it and compares (SCENARIO-FORMAT §8)."""
    from ..api import load_scenario, resolve_scenario, setup_rules
    from ..check import compare_result
    from ..errors import DrdError, Problem, RuleViolation, ScenarioError

    from ..campaign.folder import check_campaign_file, file_role

    role = file_role(path)
    if role in ("kampan", "postava", "bestie"):     # a campaign's own files (docs/kampan.md)
        try:
            check_campaign_file(path, role)
        except ScenarioError as exc:
            return FileReport(path, "invalid", list(exc.problems), exit=exc.exit_code)
        return FileReport(path, "ok")
    try:
        loaded = load_scenario(path)
        if any(getattr(st, "plugin_step", None) is not None
               for rnd in getattr(loaded.scenario, "rounds", None) or () for st in rnd.steps):
            try:
                # Plugin steps are validated against the plugins the file's own rules switch on
                # (defaults ← `rules:`), as `drd resolve FILE` would do.
                setup_rules(loaded)
            except ScenarioError:
                raise
            except DrdError:
                pass      # a rule refusing something is for resolving (`expect:`) to show
    except ScenarioError as exc:
        expect = _raw_expect(path)
        others = _error_in_other_languages(lambda: load_scenario(path)) \
            if expect is not None and "error" in expect else ()
        if expect is not None and "exit" in expect and not compare_result(
                {k: v for k, v in expect.items() if k in ("exit", "error")}, None, exc.exit_code, exc.format(),
                others):
            return FileReport(path, "ok", exit=exc.exit_code, expected_exit=expect["exit"], checked=True)
        return FileReport(path, "invalid", list(exc.problems), exit=exc.exit_code)

    raw = loaded.raw if isinstance(loaded.raw, dict) else {}
    expect = raw.get("expect")
    if not isinstance(expect, dict):
        # Valid means what `drd resolve` means (issue #13): some problems (a hero's roll without
        # `bonus_from`, R-ROLL-1) are found only while resolving. A rule refusing something (exit 1)
        # is no invalidity: without `expect:` there is nothing to hold it to.
        try:
            resolve_scenario(loaded)
        except ScenarioError as exc:
            return FileReport(path, "invalid", list(exc.problems), exit=exc.exit_code)
        except DrdError:
            pass
        return FileReport(path, "ok")
    expect = _plain(expect)
    result, code, error_text, error_problems = None, 0, "", []
    try:
        result = resolve_scenario(loaded)
    except (RuleViolation, ScenarioError, DrdError) as exc:
        code, error_text, error_problems = exc.exit_code, exc.format(), list(exc.problems)
    others = _error_in_other_languages(lambda: resolve_scenario(load_scenario(path))) \
        if code and "error" in expect else ()
    if code == 2 and expect.get("exit", 0) != 2:
        # Invalid (found while resolving: an unknown participant…) and not expected to be:
        # invalid, exit 2, as when it is found while reading (docs/cli.md, drd check).
        return FileReport(path, "invalid", error_problems, exit=code)
    diffs = compare_result(expect, result, code, error_text, others)
    report = FileReport(path, "ok", exit=code, expected_exit=expect.get("exit", 0), checked=True)
    if diffs:
        report.status = "differences"
        for diff in diffs:
            where = ("expect",) + tuple(diff.path)
            report.problems.append(Problem(diff.text, loaded.source.locate(where), path=where))
        report.problems.extend(_default_causes(loaded, result, diffs))
        if code != expect.get("exit", 0):
            # Show the refusal in full too, so the reader can see why the run did not resolve.
            report.problems.extend(error_problems)
    return report


def _default_causes(loaded: Any, result: dict | None, diffs: list) -> list:
    """A note per step where no answer in `choices` decided and the default did: the likely cause."""
    from ..check import default_steps
    from ..citations import CHOICES
    from ..errors import Problem
    from ..i18n import _

    out = []
    rounds = getattr(loaded.scenario, "rounds", None) or ()
    where = {st.id: ("rounds", ri, "steps", si) for ri, rnd in enumerate(rounds)
             for si, st in enumerate(rnd.steps) if getattr(st, "id", None)}
    for step in default_steps(result, diffs):
        who = ", ".join(_("{who} against {vs}: {answer}").format(who=d["who"], vs=d["vs"], answer=d["answer"])
                        for d in step["decisions"])
        path = where.get(step["id"], ())
        out.append(Problem(_("step {id}: no answer in `choices`, the default decided ({who}); the difference "
                             "may come from there").format(id=step["id"], who=who),
                           loaded.source.locate(path), path=path, rule=CHOICES,
                           hint=_("write the answer the expectation assumes under the step's `choices:`")))
    return out


def _error_in_other_languages(attempt: Any) -> tuple[str, ...]:
    """The error `attempt()` raises, formatted in each other catalog language.

    `expect.error` quotes a message; a file written by an English-speaking group must check the
    same way at a Czech table, so a quote in any language the messages exist in counts.
    """
    from ..errors import DrdError
    from ..i18n import LANGS, language, using

    texts = []
    for lang in LANGS:
        if lang == language():
            continue
        with using(lang):
            try:
                attempt()
            except DrdError as exc:
                texts.append(exc.format())
    return tuple(texts)


def _safe_check(path: str) -> FileReport:
    from ..errors import Location, Problem

    try:
        return check_file(path)
    except Exception as exc:  # noqa: BLE001 - one broken file must not stop the others
        if os.environ.get("DRD_DEBUG"):
            raise
        from ..i18n import _

        return FileReport(path, "error", [Problem(
            _("internal error: {kind}: {error} (a bug in drd; DRD_DEBUG=1 shows the traceback)").format(
                kind=type(exc).__name__, error=exc), Location(path))])


def _scenario_files(arg: str) -> list[str | None]:
    """`arg` itself, or for a folder every `*.yaml`/`*.yml` under it, recursively, in name order
    ([None] for a folder without any)."""
    from pathlib import Path

    folder = Path(arg)
    if not folder.is_dir():
        return [arg]
    found = sorted(str(p) for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    if found:
        from ..campaign.folder import file_role

        found = [p for p in found if file_role(p) != "kronika"]      # a campaign's chronicle: drd's own
    return list(found) or [None]


def _empty_folder(folder: str) -> FileReport:
    from ..errors import Location, Problem
    from ..i18n import _

    return FileReport(folder, "invalid", [Problem(_("{folder} is a folder without any *.yaml file").format(
        folder=folder), Location(folder))], exit=2)


def exit_code(reports: list[FileReport]) -> int:
    """2 when a file is invalid, else 3 on an internal error, else 1 on differences, else 0."""
    statuses = {r.status for r in reports}
    if "invalid" in statuses:
        return 2
    if "error" in statuses:
        return INTERNAL_ERROR_EXIT
    if "differences" in statuses:
        return 1
    return 0


def _gh_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _problem_dict(problem: Any) -> dict:
    loc = problem.location
    return {"file": loc.file, "line": loc.line or None, "col": (loc.col or 1) if loc.line else None,
            "message": problem.message, "rule": problem.rule, "hint": problem.hint,
            "path": [p if isinstance(p, (int, str)) else str(p) for p in problem.path]}


def _summary(reports: list[FileReport]) -> str:
    from ..i18n import _, ngettext

    count = {s: sum(r.status == s for r in reports) for s in ("ok", "differences", "invalid", "error")}
    # "ok" is the same word in both languages on purpose: CI logs and scripts look for it.
    parts = [f"{count['ok']} ok"]
    if count["differences"]:
        parts.append(_("{n} with differences").format(n=count["differences"]))
    if count["invalid"]:
        parts.append(_("{n} invalid").format(n=count["invalid"]))
    if count["error"]:
        parts.append(_("{n} internal error").format(n=count["error"]))
    files = ngettext("{n} file", "{n} files", len(reports)).format(n=len(reports))
    return f"{files}: " + ", ".join(parts)


def report(reports: list[FileReport], fmt: Format, out: Any) -> None:
    """Writes the reports in the chosen format to `out`."""
    if fmt is Format.json:
        doc = {"files": [{"file": r.file, "status": r.status, "exit": r.exit, "expected_exit": r.expected_exit,
                          "checked": r.checked, "problems": [_problem_dict(p) for p in r.problems]}
                         for r in reports],
               "summary": _summary(reports), "exit": exit_code(reports)}
        out.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return
    for r in reports:
        for p in r.problems:
            if fmt is Format.github:
                loc = p.location
                props = f"file={_gh_escape(loc.file, prop=True)}"
                if loc.line:
                    props += f",line={loc.line},col={loc.col or 1}"
                title = "drd check" + (f" {p.rule}" if p.rule else "")
                message = p.message + (f" [{p.rule}]" if p.rule else "") + (f" → {p.hint}" if p.hint else "")
                out.write(f"::error {props},title={_gh_escape(title, prop=True)}::{_gh_escape(message)}\n")
            else:
                out.write(p.format() + "\n")
        if fmt is Format.text:
            from ..i18n import _, ngettext

            word = {"ok": "ok", "differences": _("FAILED"), "invalid": _("INVALID"), "error": _("ERROR")}[r.status]
            detail = ""
            if r.status == "ok" and r.checked:
                detail = " " + _("(expectations met, exit {code})").format(code=r.exit)
            elif r.status == "differences":
                n = len([p for p in r.problems if p.path[:1] == ("expect",)])
                detail = " " + ngettext("({n} difference)", "({n} differences)", n).format(n=n)
            out.write(f"{r.file}: {word}{detail}\n")
    out.write(_summary(reports) + "\n")


HELP = N_("Validate scenarios (a folder: every *.yaml under it); resolve those with `expect:` and report every "
          "difference.\n\n"
          "Exit 0 all good, 1 an expectation is not met, 2 a file is not a valid scenario.")


def check(
    files: List[str] = typer.Argument(..., help=N_("Scenario files, or folders (every *.yaml under them, recursively)."),
                              metavar="FILE..."),
    fmt: Format = typer.Option(Format.text, "--format", "-f", case_sensitive=False,
                               help=N_("text (file:line:col lines), json, or github (workflow annotations).")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Validate scenarios; resolve those with `expect:` and report every difference.

    Exit 0 all good, 1 an expectation is not met, 2 a file is not a valid scenario.
    """
    use_language(lang)
    reports = [_safe_check(path) if path is not None else _empty_folder(folder)
               for folder in files for path in _scenario_files(folder)]
    report(reports, fmt, sys.stdout)
    code = exit_code(reports)
    if code:
        raise typer.Exit(code)
