"""Importers of characters and creatures from the tools groups use (docs/kampan-import.md):
the Roll20 „Draci doupe II" sheet (VTTES JSON), Projekt Ikaros (diary / customData / bestie),
drd2-denik (its stored JSON). Each returns an `Imported` and reports, never silently, every field
it could not map and every value it clamped or guessed; a file that is not its format, is cut
short, or holds a value its own tool could not hold is refused (exit 2) and nothing is written.
"""

FORMATS = ("roll20", "ikaros", "denik")


def parser(fmt: str):  # noqa: ANN201
    if fmt == "roll20":
        from .roll20 import parse
    elif fmt == "ikaros":
        from .ikaros import parse
    else:
        from .denik import parse
    return parse
