"""Czech messages speak in one voice, vykání (docs/i18n.md): no tykání form in the Czech catalog
— play's prompts, Dakara's answers, errors and help alike."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

CATALOG = Path(__file__).resolve().parents[2] / "drd_cli" / "locale" / "cs" / "LC_MESSAGES" / "drd.po"

# Second person singular: imperatives and present-tense forms a message could address the user with.
TYKANI = re.compile(
    r"\b(napiš|použij|zadej|vyber|uveď|zapiš|zruš|vynech|aktivuj|hraj|pošli|zkus|stiskni|zvol|nech|dej|piš|"
    r"přidej|oprav|odpověz|spusť|zapni|vypni|otevři|ulož|vrať|nejsi|jsi|máš|nemáš|chceš|můžeš|nemůžeš|musíš|"
    r"víš|nevíš|necháš|zvládneš|budeš|uvidíš|zadáš|tvůj|tvoje|tvé|tvého|tvým|tvou|tobě|tebe)\b",
    re.IGNORECASE)


def _texts():
    with CATALOG.open("rb") as fh:
        catalog = read_po(fh, locale="cs")
    for message in catalog:
        if not message.id:
            continue
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for text in strings:
            yield message.id, text


def test_the_czech_catalog_uses_vykani_only():
    found = [(msgid, text) for msgid, text in _texts() if TYKANI.search(text)]
    assert not found, "\n".join(f"{TYKANI.search(t).group(0)!r}: {t}" for _m, t in found)


def test_the_check_sees_tykani():
    assert TYKANI.search("  ✗ napiš číslo 1–3")
    assert TYKANI.search("úspěchem si nejsi jistý")
    assert not TYKANI.search("napište číslo; nejste-li si jistí, zvolte Enter")


def test_the_game_master_is_called_as_each_game_calls_him():
    """DrD II calls the game master Průvodce (Dakara: Vypravěč); `Pán jeskyně` is another game's word."""
    wrong = [(msgid, text) for msgid, text in _texts() if re.search(r"\bP[áa]n[au]? jeskyně\b", text)]
    assert not wrong, wrong[:5]
    dakara_only = [(msgid, text) for msgid, text in _texts()
                   if "Vypravěč" in text and not re.search(r"Dakara|dovednost|riziko|obtížnost|Narrator|kostk|SK-",
                                                            msgid + text, re.IGNORECASE)]
    assert not dakara_only, dakara_only[:5]


# A gender or number hedge — "využil(a)", "manévr(y)", "mrtvý/á" — means the sentence did not know
# whom it spoke of; the Czech messages are phrased so they need none (docs/i18n.md).
HEDGE = re.compile(r"\w\((?:a|y|i|o|e|é|á|ý)\)|\w/(?:a|á|é|ý)\b")


def test_the_czech_catalog_hedges_no_gender_or_number():
    found = [(msgid, text) for msgid, text in _texts() if HEDGE.search(text)]
    assert not found, "\n".join(f"{HEDGE.search(t).group(0)!r}: {t}" for _m, t in found)


def test_the_hedge_check_sees_hedges():
    assert HEDGE.search("už v kole 1 využil(a) akci")
    assert HEDGE.search("platí 2 manévr(y)")
    assert HEDGE.search("je mrtvý/á")
    assert not HEDGE.search("akce z iniciativy už byla využita (from: obrana)")


def test_the_ability_cards_use_vykani_only():
    """The cards' Czech is written in plugins/drd_plugins/*.py, not in the catalog: `drd abilities`
    shows it as it is, so it speaks in the same voice."""
    import json

    from drd_cli import i18n
    from drd_cli.abilities import installed_catalogue

    with i18n.using("cs"):
        cards = installed_catalogue()
    found = {aid: TYKANI.search(json.dumps(card, ensure_ascii=False)).group(0)
             for aid, card in cards.items() if TYKANI.search(json.dumps(card, ensure_ascii=False))}
    assert not found, found


# A count followed by a genitive plural (`{n} bodů`, `{n} manévrů`) reads wrong for 1–4 (`1 bodů`):
# a message with a counted noun uses ngettext (1 bod / 2 body / 5 bodů) or is phrased around the number.
COUNTED = re.compile(r"\{(?:n|count|k|cost|number)\} [a-zěščřžýáíéůúňťď]+ů\b")


def test_a_count_is_never_glued_to_one_plural_form():
    with CATALOG.open("rb") as fh:
        catalog = read_po(fh, locale="cs")
    found = [m.string for m in catalog if m.id and isinstance(m.string, str) and COUNTED.search(m.string)]
    assert not found, found


def test_the_count_check_sees_a_fixed_plural():
    assert COUNTED.search("vyléčení jedné Jizvy stojí {n} bodů")
    assert COUNTED.search("{name} používá {n} manévrů")
    assert not COUNTED.search("{name}: počet manévrů {n}")
