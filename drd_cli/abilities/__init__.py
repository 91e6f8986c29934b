"""The ability catalogue and the checks of what a scenario says about abilities (RULES.md §3.1).

* `cards` — pure: a card's own keys checked (`check_keys`), the words of the catalogue's pages;
* `catalogue` — {ability id: card} from the plugins' `drd_plugin_info()["ability"]`;
* `uses` — the checks of one scenario's use of abilities once the profile is known
  (`check_plugin_uses`: unknown abilities and keys, exit 2; `via:` an ability that is off, exit 1);
* `docs` — the generated pages (`python -m drd_cli.abilities docs|po|manifest`).

Layers (docs/architecture.md): above the plugin host, below the engine.
"""

from __future__ import annotations

from .cards import (KIND_WORDS, PARTICIPANTS, RULE_PARAMS, SCOPE_WORDS, STATUS_WORDS, activation_text, allowed_text,
                    card_params, check_keys, scope_keys, scope_text, suggest, value_text)
from .catalogue import catalogue, info_of, installed_catalogue
from .docs import (CATALOG_DOMAIN, MANIFEST_HEAD, catalog_po_path, czech_texts, dormant_manifest, render_manifest,
                   render_markdown, scenario_index, update_catalog)
from .uses import _manoeuvre_fields, _manoeuvres, check_plugin_uses, check_uses

__all__ = [
    "CATALOG_DOMAIN", "KIND_WORDS", "MANIFEST_HEAD", "PARTICIPANTS", "RULE_PARAMS", "SCOPE_WORDS", "STATUS_WORDS",
    "_manoeuvre_fields", "_manoeuvres", "activation_text", "allowed_text", "card_params", "catalog_po_path",
    "catalogue", "check_keys", "check_plugin_uses", "check_uses", "czech_texts", "dormant_manifest", "info_of",
    "installed_catalogue", "render_manifest", "render_markdown", "scenario_index", "scope_keys", "scope_text",
    "suggest", "update_catalog", "value_text",
]
