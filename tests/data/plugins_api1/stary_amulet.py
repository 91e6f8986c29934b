# A plugin written against plugin API 1 (before API 2 existed), kept here as its author left it:
# no `api_version`, kind "ability", the hookimpl of drd_cli.hookspecs. Under API 1 an ability
# plugin was asked for every participant of every run, whether or not anyone listed the ability;
# it still is (docs/plugins.md "API versions"). Do not modernise this file: it is the test.
from drd_cli.hookspecs import hookimpl


@hookimpl
def drd_plugin_info():
    return {"title": "Starý amulet", "kind": "ability", "rules": ["R-ROLL-2"],
            "description": "+1 k hodu každému, kdo nese amulet"}


@hookimpl
def drd_roll_modifier(participant, action):
    if participant.has_item("amulet"):
        return 1
    return None
