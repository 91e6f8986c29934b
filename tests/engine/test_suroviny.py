"""Suroviny (issue #11, crafting): a participant's `suroviny`, activations priced in Suroviny by variant
(Neobvyklé jedy, Čarovné stráže), improvised Suroviny at 1 Duše each (Něco z ničeho, Umění
improvizace, Dar tvoření) and who may pay what (R-ABIL-ACT, R-ABIL-SHARE; docs/rules.md "Suroviny")."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.errors import DrdError
from drd_cli.plugin import hookimpl
from drd_cli.testing import resolve_text, step

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("english")

DOC = """\
format: drd/1
participants:
  alena: {name: Alena, pools: {telo: 3, duse: 4, vliv: 3}, zone: dílna%s, abilities: %s}
  vendelin: {name: Vendelín, pools: {telo: 3, duse: 5, vliv: 3}, zone: dílna, abilities: [mysticky-kruh]}
rounds:
  - steps:
      - test: {actor: alena, pool: duse, means: magic, roll: 10, note: "%s", activate: %s%s}
"""


def doc(activate: str, abilities: str = "[neobvykle-jedy, umeni-improvizace]", suroviny: int | None = 3,
        note: str = "jed do vína", extra: str = "") -> str:
    held = "" if suroviny is None else f", suroviny: {suroviny}"
    return DOC % (held, abilities, note, activate, extra)


def run(text: str, **kw) -> dict:
    return resolve_text(text, **kw)


def error(text: str, **kw) -> DrdError:
    with pytest.raises(DrdError) as err:
        resolve_text(text, **kw)
    return err.value


# --------------------------------------------------------------------------- paying

@pytest.mark.parametrize("variant,cost", [("rychly", 1), ("dvoufazovy", 1), ("dlouhy", 3)])
def test_neobvykle_jedy_pays_its_variant_in_suroviny(variant, cost):
    r = run(doc(f"[{{id: neobvykle-jedy, variant: {variant}}}]"))
    assert r["final"]["alena"]["suroviny"] == 3 - cost
    assert r["final"]["alena"]["duse"] == 4                       # no pool point paid
    assert step(r, "1.1")["activations"] == [{"by": "alena", "ability": "neobvykle-jedy", "cost": cost,
                                              "pool": "suroviny", "options": {"variant": variant}}]


@pytest.mark.parametrize("variant,cost", [("chytry", 1), ("trvaly", 3)])
def test_carovne_straze_pays_its_variant_in_suroviny(variant, cost):
    r = run(doc(f"[{{id: carovne-straze, variant: {variant}}}]", abilities="[carovne-straze]"))
    assert r["final"]["alena"]["suroviny"] == 3 - cost


def test_the_variant_of_the_abilities_entry_is_the_usual_choice_and_the_item_decides_over_it():
    usual = "[{id: neobvykle-jedy, variant: dlouhy}]"
    assert run(doc("[neobvykle-jedy]", abilities=usual))["final"]["alena"]["suroviny"] == 0
    assert run(doc("[{id: neobvykle-jedy, variant: rychly}]", abilities=usual))["final"]["alena"]["suroviny"] == 2


def test_the_transcript_says_it_in_czech_words_and_notes_what_was_made():
    r = run(doc("[{id: neobvykle-jedy, variant: dlouhy}]", suroviny=3), lang="cs")
    texts = [e["text"] for e in step(r, "1.1")["log"]]
    assert "Alena aktivuje schopnost Neobvyklé jedy: 3 Suroviny" in texts
    assert "Alena stanovuje: velmi dlouho působící jed, který tlumí nějaká přirozená činnost — jed do vína" in texts
    assert "Alena spotřebuje na schopnost Neobvyklé jedy: 3 Suroviny" in texts
    assert "Alena: zbývá 0 Surovin" in texts
    r = run(doc("[{id: neobvykle-jedy, variant: rychly}]", suroviny=2), lang="cs")
    assert "Alena: zbývá 1 Surovina" in [e["text"] for e in step(r, "1.1")["log"]]


def test_the_text_transcript_and_the_final_table(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(doc("[{id: neobvykle-jedy, variant: dlouhy}, "
                                         "{id: umeni-improvizace, improvised: 1, base: false}]"), encoding="utf-8")
    out = CliRunner().invoke(app, ["resolve", "s.yaml", "--lang", "cs"]).output
    assert "Alena aktivuje schopnost Neobvyklé jedy: 3 Suroviny (z toho improvizované: 1)" in out
    assert "Alena aktivuje schopnost Umění improvizace: 1 Duše (improvizuje: 1 Surovina)" in out
    assert "Tělo 3, Duše 3, Vliv 3, Suroviny 1" in out            # the final table: 3 − 2 held
    assert "Duše 5, Vliv 3, Suroviny" not in out                  # Vendelín has none: no Suroviny shown


def test_without_suroviny_the_result_has_no_new_key():
    r = run(doc("[umeni-improvizace]", suroviny=None))
    assert "suroviny" not in r["final"]["alena"] and "suroviny" not in r["final"]["vendelin"]
    assert step(r, "1.1")["activations"] == [{"by": "alena", "ability": "umeni-improvizace", "cost": 1,
                                              "pool": "duse"}]


# --------------------------------------------------------------------------- unaffordable

def test_too_few_suroviny_is_exit_1_saying_how_many_are_missing():
    e = error(doc("[{id: neobvykle-jedy, variant: dlouhy}]", suroviny=1))
    text = e.format()
    assert e.exit_code == 1 and "[R-ABIL-ACT]" in text
    assert "cannot pay 3 Suroviny for the activation: has 1, missing 2" in text
    assert "a Jizva or a sacrificed item cannot replace them" in text and "improvised: N" in text
    e = error(doc("[{id: neobvykle-jedy, variant: rychly}]", suroviny=None))
    assert e.exit_code == 1 and "has 0, missing 1" in e.format()


def test_a_jizva_does_not_pay_suroviny():
    gain = ", gain: {jizva: {name: Popálené prsty, pool: duse, gain: 3}}"
    e = error(doc("[{id: neobvykle-jedy, variant: dlouhy}]", suroviny=1, extra=gain))
    assert e.exit_code == 1 and "missing 2" in e.format()


def test_the_error_points_at_the_activate_item(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(doc("\n          [{id: neobvykle-jedy, variant: dlouhy}]", suroviny=0),
                                     encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml", "--lang", "cs"])
    assert r.exit_code == 1 and "s.yaml:8:12:" in r.output
    assert "nemůže za aktivaci zaplatit 3 Suroviny: má 0, chybí 3" in r.output and "Traceback" not in r.output


# --------------------------------------------------------------------------- variants and keys (exit 2)

def test_a_missing_variant_is_exit_2_at_the_item_with_the_variants(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(doc("[carovne-straze]", abilities="[carovne-straze]"), encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml", "--lang", "en"])
    assert r.exit_code == 2
    assert "s.yaml:7:" in r.output and "activating Čarovné stráže needs its key 'variant'" in r.output
    assert "chytry: 1 Surovina; trvaly: 3 Suroviny" in r.output


def test_an_unknown_variant_or_key_is_exit_2_at_the_key_with_did_you_mean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(doc("[{id: neobvykle-jedy, variant: dlouhi}]"), encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml", "--lang", "en"])
    assert r.exit_code == 2 and "Neobvyklé jedy cannot have variant: 'dlouhi'" in r.output
    assert "did you mean 'dlouhy'?" in r.output and "s.yaml:7:" in r.output
    (tmp_path / "s.yaml").write_text(doc("[{id: neobvykle-jedy, varaint: dlouhy}]"), encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml", "--lang", "en"])
    assert r.exit_code == 2 and "has no key 'varaint'" in r.output and "did you mean 'variant'?" in r.output
    (tmp_path / "s.yaml").write_text(doc("[{id: umeni-improvizace, improvised: dva}]"), encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml", "--lang", "en"])
    assert r.exit_code == 2 and "improvised must be a whole number" in r.output
    (tmp_path / "s.yaml").write_text(doc("[{id: umeni-improvizace, base: ne}]"), encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml", "--lang", "en"])
    assert r.exit_code == 2 and "base must be true or false" in r.output
    (tmp_path / "s.yaml").write_text(doc("[{id: neobvykle-jedy, variant: dlouhy, paid_bz: vendelin}]"),
                                     encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml", "--lang", "en"])
    assert r.exit_code == 2 and "did you mean 'paid_by'?" in r.output and "Traceback" not in r.output


def test_negative_suroviny_is_exit_2():
    e = error(doc("[]", suroviny=-1))
    assert e.exit_code == 2 and "<test>.yaml:3:83: must be at least 0, got -1" in e.format()


# --------------------------------------------------------------------------- improvised Suroviny

def test_improvised_suroviny_cost_a_duse_each_besides_the_base():
    r = run(doc("[{id: umeni-improvizace, improvised: 2}]"))
    assert r["final"]["alena"]["duse"] == 1 and r["final"]["alena"]["suroviny"] == 3
    assert step(r, "1.1")["activations"][0] == {"by": "alena", "ability": "umeni-improvizace", "cost": 3,
                                                "pool": "duse", "improvised": 2, "options": {"improvised": 2}}
    assert run(doc("[{id: umeni-improvizace, improvised: 2, base: false}]"))["final"]["alena"]["duse"] == 2


def test_improvised_suroviny_pay_the_same_actions_suroviny_first():
    act = "[{id: neobvykle-jedy, variant: dlouhy}, {id: umeni-improvizace, improvised: 2, base: false}]"
    r = run(doc(act, suroviny=1))
    assert (r["final"]["alena"]["suroviny"], r["final"]["alena"]["duse"]) == (0, 2)
    jed, improvizace = step(r, "1.1")["activations"]
    assert jed["from_improvised"] == 2 and improvizace["improvised"] == 2
    # the order of the items does not matter; without a single Surovina held, improvised ones do it all
    act = "[{id: umeni-improvizace, improvised: 3, base: false}, {id: neobvykle-jedy, variant: dlouhy}]"
    r = run(doc(act, suroviny=None))
    assert "suroviny" not in r["final"]["alena"] and r["final"]["alena"]["duse"] == 1


def test_improvised_suroviny_of_another_kind_do_not_pay():
    """Něco z ničeho improvises for a trap: it cannot pay a poison's Suroviny."""
    act = "[{id: neobvykle-jedy, variant: dlouhy}, {id: neco-z-niceho, improvised: 3, base: false}]"
    e = error(doc(act, abilities="[neobvykle-jedy, neco-z-niceho]", suroviny=0))
    assert e.exit_code == 1 and "missing 3" in e.format()
    act = "[{id: carovne-straze, variant: trvaly}, {id: dar-tvoreni, improvised: 3}]"
    r = run(doc(act, abilities="[carovne-straze, dar-tvoreni]", suroviny=0))
    assert r["final"]["alena"]["duse"] == 1                       # symbols pay symbols
    act = "[{id: carovne-straze, variant: trvaly}, {id: dar-tvoreni, variant: predmet, improvised: 3}]"
    e = error(doc(act, abilities="[carovne-straze, dar-tvoreni]", suroviny=0))
    assert e.exit_code == 1                                       # the ritual item's are not the ward's


def test_dar_tvoreni_needs_its_count_and_charges_the_ritual_item_for_free():
    e = error(doc("[dar-tvoreni]", abilities="[dar-tvoreni]"))
    assert e.exit_code == 2 and "needs its key 'improvised'" in e.format()
    r = run(doc("[{id: dar-tvoreni, variant: predmet, improvised: 4}]", abilities="[dar-tvoreni]"))
    assert r["final"]["alena"]["duse"] == 4
    assert step(r, "1.1")["activations"][0]["cost"] == 0
    assert run(doc("[{id: dar-tvoreni, improvised: 2}]", abilities="[dar-tvoreni]"))["final"]["alena"]["duse"] == 2


def test_the_duse_of_improvised_suroviny_is_an_activation_a_jizva_may_supply():
    act = "[{id: umeni-improvizace, improvised: 5}]"
    e = error(doc(act))
    assert e.exit_code == 1 and "[R-ABIL-ACT]" in e.format() and "missing 2" in e.format()
    assert "a Jizva or a sacrificed item" in e.format()
    r = run(doc(act, extra=", gain: {jizva: {name: Popálené prsty, pool: duse, gain: 3}}"))
    assert r["final"]["alena"]["jizvy"] == ["Popálené prsty"]


# --------------------------------------------------------------------------- paid_by (R-ABIL-SHARE)

def test_nobody_pays_anothers_suroviny():
    e = error(doc("[{id: neobvykle-jedy, variant: dlouhy, paid_by: vendelin}]"))
    text = e.format()
    assert e.exit_code == 1 and "[R-ABIL-SHARE]" in text
    assert "Vendelín cannot pay Alena's Suroviny (Neobvyklé jedy)" in text and "suroviny:" in text


def test_paid_by_an_unknown_participant_is_exit_2():
    e = error(doc("[{id: neobvykle-jedy, variant: dlouhy, paid_by: nikdo}]"))
    assert e.exit_code == 2 and "unknown participant 'nikdo'" in e.format()


def test_a_sharing_ability_may_pay_the_duse_of_improvised_suroviny():
    act = "[{id: carovne-straze, variant: trvaly}, {id: dar-tvoreni, improvised: 2, paid_by: vendelin}]"
    r = run(doc(act, abilities="[carovne-straze, dar-tvoreni]", suroviny=1))
    assert r["final"]["alena"]["duse"] == 4 and r["final"]["vendelin"]["duse"] == 3
    assert r["final"]["alena"]["suroviny"] == 0
    # not a magic action: Mystický kruh does not allow it
    e = error(doc(act, abilities="[carovne-straze, dar-tvoreni]", suroviny=1).replace("means: magic", "means: other"))
    assert e.exit_code == 1 and "[R-ABIL-SHARE]" in e.format()


# --------------------------------------------------------------------------- the API, the views, the docs

def test_a_third_party_crafting_ability_declares_a_suroviny_cost():
    seen = {}

    class Lektvar:
        @hookimpl
        def drd_plugin_info(self):
            return {"title": "Lektvar mlhy", "kind": "ability", "ability": {
                "name": "Lektvar mlhy", "keys": {"variant": {"choices": ["ridka", "husta"], "per_use": True}}}}

        @hookimpl
        def drd_activation(self, participant, ability, action, options):
            if ability != "lektvar-mlhy":
                return None
            seen["held"], seen["options"] = participant.suroviny, dict(options)
            return {"cost": 3 if options["variant"] == "husta" else 1, "pool": "suroviny", "crafts": "lektvar",
                    "fact": "lahvička mlhy"}

    text = doc("[{id: lektvar-mlhy, variant: husta}]", abilities="[lektvar-mlhy]", note="")
    r = resolve_text(text, plugins={"lektvar-mlhy": Lektvar()})
    assert r["final"]["alena"]["suroviny"] == 0 and seen == {"held": 3, "options": {"variant": "husta"}}
    assert any(e["text"].endswith("lahvička mlhy") for e in step(r, "1.1")["log"])
    with pytest.raises(DrdError) as err:                          # its per-use key, checked from its card
        resolve_text(doc("[lektvar-mlhy]", abilities="[lektvar-mlhy]"), plugins={"lektvar-mlhy": Lektvar()})
    assert err.value.exit_code == 2 and "needs its key 'variant'" in err.value.format()


def test_a_secret_crafters_suroviny_are_hidden_from_the_players():
    from drd_cli.render.view import player_view
    from drd_cli.testing import load_text_scenario

    text = doc("[{id: neobvykle-jedy, variant: rychly}]").replace("zone: dílna,", "zone: dílna, secret: true,", 1)
    r = run(text)
    shown = player_view(r, load_text_scenario(text).scenario)
    assert shown["final"]["alena"]["suroviny"] == "?"
    assert all("?" in e["text"] for e in step(shown, "1.1")["log"] if "Surovin" in e["text"])


def test_the_card_example_runs(tmp_path, monkeypatch):
    from drd_cli.cli.abilities_cmd import example

    cards = __import__("drd_cli.abilities", fromlist=["installed_catalogue"]).installed_catalogue()
    for aid in ("neobvykle-jedy", "carovne-straze", "dar-tvoreni", "umeni-improvizace", "neco-z-niceho"):
        lines = example(aid, cards[aid])
        hero, act = lines[1].strip(), lines[3].strip()
        text = ("format: drd/1\nparticipants:\n  " + hero + "\nrounds:\n  - steps:\n    " + act + "\n")
        r = resolve_text(text)
        assert r["steps"][0]["activations"][0]["ability"] == aid, aid


@pytest.mark.parametrize("aid", ["neobvykle-jedy", "carovne-straze", "umeni-improvizace", "dar-tvoreni",
                                 "neco-z-niceho", "mysticky-kruh"])
def test_the_scenario_holds_and_fails_without_each_ability(aid):
    from tests.abilities.test_abilities_scenarios import _outcome

    path = ROOT / "scenarios" / "schopnosti-suroviny.yaml"
    assert not _outcome(path)
    assert _outcome(path, disable=(aid,))
