"""Monte Carlo simulation: deterministic for a seed, whatever the worker count."""

from drd_cli.simulate import simulate

from tests.test_odds import RULES, SCEN


def test_simulate_deterministic(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(SCEN, encoding="utf-8")
    a = simulate(str(p), 120, seed=7, policy="exhaust", workers=1, chunk=50, rules=RULES)
    b = simulate(str(p), 120, seed=7, policy="exhaust", workers=2, chunk=50, rules=RULES)
    assert a == b
    assert a["runs"] == 120 and not a["errors"]
    assert all(v == 1.0 for v in a["success_rate"]["s1"].values())
    assert sum(a["ohrozeni"]["a"].values()) == 120
    c = simulate(str(p), 120, seed=8, policy="accept", workers=1, rules=RULES)
    assert c["success_rate"]["s1"]["d"] < 1.0 or c != a
