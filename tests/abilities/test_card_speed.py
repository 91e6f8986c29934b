"""`drd abilities ID` reads one card without importing the whole catalogue or parsing every shipped
scenario (it used to take 2.5–3 s: all ability modules and ruamel over 98 files)."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys, time
from unittest import mock
import ruamel.yaml
parsed = []
real = ruamel.yaml.YAML.load
def load(self, stream):
    parsed.append(1)
    return real(self, stream)
with mock.patch.object(ruamel.yaml.YAML, "load", load):
    from drd_cli.cli.app import main
    try:
        main(["abilities", sys.argv[1]])
    except SystemExit:
        pass
mods = sorted(m for m in sys.modules if m.startswith("drd_plugins."))
print(len(parsed), " ".join(mods), file=sys.stderr)
"""


@pytest.mark.parametrize("name", ["gladiator", "Gladiátor"])     # by its id, or by its Czech name
def test_one_card_imports_only_its_plugin_and_parses_only_the_scenarios_that_name_it(name):
    out = subprocess.run([sys.executable, "-c", PROBE, name], capture_output=True, text=True, timeout=60,
                         env={"DRD_DISABLE_PLUGIN_AUTOLOAD": "1", "LANG": "C.UTF-8", "PATH": ""})
    assert "Gladiátor (gladiator)" in out.stdout, out.stderr
    parsed, _, mods = out.stderr.strip().splitlines()[-1].partition(" ")
    assert int(parsed) <= 5
    assert "drd_plugins.zbehlost" in mods.split()
    for other in ("ochrana", "sdileni", "narativni", "mimo_konflikt", "vnimani", "zisk", "jizvy"):
        assert f"drd_plugins.{other}" not in mods.split()
