"""`drd kronika export`: the players' view leaves the GM's secrets out, the GM's Discord view puts
them in spoiler tags, long sessions split into messages of at most 2,000 characters at step
boundaries, and `--lang en` speaks English."""

from __future__ import annotations

import json

from campaign_support import ok, write, new_campaign

HERO = "format: drd-postava/1\nname: Jarík\npools: {telo: 8, duse: 6, vliv: 5}\nmax: {telo: 8, duse: 6, vliv: 5}\n"
WOLF = "format: drd-bestie/1\nname: Vlk\nsudba: 40\n"


def _conflict(steps: int, secret_step: int | None = None) -> str:
    out = ["format: drd/1", "title: Vlčí noc", "participants:", "  jarik: {postava: jarik, ohrozeni: 0}",
           "  vlk: {bestie: vlk}", "rounds:"]
    for s in range(steps):
        out += ["  - initiative: [vlk]", "    steps:", f"      - id: tajny-krok-{s}" if s == secret_step
                else f"      - id: krok-{s}"]
        if s == secret_step:
            out.append("        secret: true")
        label = f"tajny-lov-{s}" if s == secret_step else f"lov-{s}"     # the transcript names a step by it
        out += ["        contest:",
                f"          action: {{actor: vlk, label: {label}, pool: telo, targets: [jarik], roll: 10,"
                " effect: {ohrozeni: 1}}",
                "          counters: [{actor: jarik, kind: harm, pool: telo, roll: 8}]",
                "        choices: {jarik: accept}"]
    return "\n".join(out) + "\n"


def _campaign(tmp_path, steps: int, secret_step: int | None = None):
    root = new_campaign(tmp_path)
    write(root / "postavy" / "jarik.yaml", HERO)
    write(root / "bestiar" / "vlk.yaml", WOLF)
    write(root / "konflikty" / "noc.yaml", _conflict(steps, secret_step))
    ok("resolve", "konflikty/noc.yaml", "--zapsat", cwd=root)
    return root


def test_the_players_view_leaves_secret_steps_out_and_the_gm_view_hides_them_in_spoilers(tmp_path):
    root = _campaign(tmp_path, 3, secret_step=1)
    player = json.loads(ok("kronika", "export", "--od", "1", "--format", "discord", "--view", "player", "--json",
                           cwd=root).stdout)
    text = "\n".join(player)
    assert "tajny-lov-1" not in text and "lov-0" in text and "||" not in text
    gm = "\n".join(json.loads(ok("kronika", "export", "--od", "1", "--format", "discord", "--json",
                                 cwd=root).stdout))
    assert "||" in gm and "tajny-lov-1" in gm.split("||")[1]


def test_a_long_session_splits_at_step_boundaries(tmp_path):
    root = _campaign(tmp_path, 30)
    messages = json.loads(ok("kronika", "export", "--od", "1", "--format", "discord", "--json", cwd=root).stdout)
    assert len(messages) > 1 and all(len(m) <= 2000 for m in messages)
    for m in messages:
        assert m.count("```") % 2 == 0                        # no step's block is cut between messages
    assert sum(m.count("lov-") for m in messages) >= 30


def test_markdown_in_english(tmp_path):
    root = _campaign(tmp_path, 2)
    md = ok("kronika", "export", "--od", "1", "--format", "md", "--lang", "en", cwd=root).stdout
    assert "# Chronicle: Dobrodruzi" in md and "Vlčí noc" in md
    cs = ok("kronika", "export", "--od", "1", "--format", "md", cwd=root).stdout
    assert "# Kronika: Dobrodruzi" in cs
