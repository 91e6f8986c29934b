"""The replay file of a `drd play` session: the scenario with every roll and answer entered
written where the format has a place for it (the rest under `extra_dice`), the session's seed
and its rules inlined, so that `drd resolve REPLAY` reproduces the session exactly.
"""

from __future__ import annotations

from typing import Any

from ..engine.context import Answer

CORE_KINDS = ("test", "contest", "race", "challenge")


def place_of(scenario: Any, path: tuple, pid: str) -> tuple | None:
    """("direct", path, pid) → `roll`/`dice` on that action; ("per", path, pid) → `rolls`/`dice`
    keyed by the participant; None → no place in the format (`extra_dice`)."""
    if not path or path[0] != "rounds":
        return None
    if len(path) >= 5 and path[2] == "steps" and path[4] not in CORE_KINDS:
        return None          # a plugin's step (hide): its specs are built, not written
    node = scenario
    for part in path:
        try:
            node = node[part] if isinstance(part, int) else getattr(node, part)
        except (IndexError, AttributeError, KeyError, TypeError):
            return None
        if node is None:
            return None
    if getattr(node, "actor", None) == pid and not getattr(node, "actors", None):
        return ("direct", path, pid)
    if hasattr(node, "rolls"):
        return ("per", path, pid)
    return None


def replay_text(scenario: Any, text: str, places: list, calls: list, decided: list, seed: int,
                rules: dict | None = None) -> str:
    """The scenario `text` with what was entered filled in (ruamel round trip, comments kept).

    `places[i]` (from `place_of`) says where dice call `calls[i]` goes; `decided` holds
    (choices path, who, vs, answer, round) of every answer given; `seed` becomes the file's `seed`.

    `rules` ({enable, disable, params}, from `replay_rules`) is the session's effective rules
    block: the group's and the command line's settings merged over the file's own `rules:`.
    """
    from io import StringIO

    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    yaml = YAML(typ="rt")
    # Never fold a line: a flow mapping broken mid-value (`effect: {ohrozeni:⏎ 2}`) reads badly.
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)     # the style of the book scenarios
    yaml.preserve_quotes = True
    doc = yaml.load(text)

    def flow(values: list) -> CommentedSeq:
        seq = CommentedSeq(values)
        seq.fa.set_flow_style()
        return seq

    extra: list[int] = []
    for place, got in zip(places, calls):
        if place is None:
            extra += list(got) if isinstance(got, list) else []
            continue
        how, path, pid = place
        node = _walk(doc, scenario, path)
        if node is None:
            extra += list(got) if isinstance(got, list) else []
            continue
        target, model = node
        if how == "direct":
            if isinstance(got, list):
                target[_key(target, model, "dice")] = flow(got)
            else:
                target[_key(target, model, "roll")] = got
        else:
            field = "dice" if isinstance(got, list) else "rolls"
            key = _key(target, model, field)
            if not isinstance(target.get(key), dict):
                m = CommentedMap()
                m.fa.set_flow_style()
                target[key] = m
            target[key][pid] = flow(got) if isinstance(got, list) else got
    if extra:
        doc["extra_dice"] = flow(extra)
    elif "extra_dice" in doc:
        del doc["extra_dice"]
    if "seed" in doc:
        doc["seed"] = seed
    else:
        doc.insert(1, "seed", seed)
    if rules is not None:
        _write_rules(doc, scenario, rules)
    for cpath, who, vs, answer, rnd in decided:
        holder = _choices_holder(doc, scenario, cpath, rnd)
        if holder is None:
            continue
        key = next((k for k in ("choices", "volby") if k in holder), "choices")
        if not isinstance(holder.get(key), dict):
            holder[key] = CommentedMap()
        mine = holder[key].get(who)
        if not isinstance(mine, dict) or set(mine) <= {"exhaust", "deny", "jizva", "sacrifice", "accept"}:
            mine = CommentedMap()
            mine.fa.set_flow_style()
            holder[key][who] = mine
        mine[vs] = _answer_yaml(answer)
    out = StringIO()
    yaml.dump(doc, out)
    return out.getvalue()



def replay_rules(loaded: Any, *, group: str | None = None, params: dict | None = None,
                 enable: tuple[str, ...] = (), disable: tuple[str, ...] = ()) -> tuple[dict | None, list[str]]:
    """The `rules:` block that makes a replay resolve under the session's rules without options.

    `drd play --group/--set/--enable/--disable` layer over the file's `rules:` exactly as for
    `drd resolve` (SCENARIO-FORMAT §6: defaults ← group ← scenario ← command line). A scenario
    cannot name a group, so its settings are inlined: the layers group, scenario, command line are
    merged in that order (a later layer's enable/disable of an id replaces an earlier one's; within
    a layer disable wins, as in `rules.build_profile`), and with the defaults underneath the block
    gives the same profile. Parameter values are the checked ones (`--set sacrifice_gain=2` → 2).

    Returns (block or None when there are no options, the group's plugin folders): those cannot go
    into a scenario, so the command that replays it must name them (`drd --plugins-dir D resolve`).
    Bad options raise ScenarioError, as `drd resolve` would.
    """
    if not (group or params or enable or disable):
        return None, []
    from ..api import setup_rules
    from ..groups import group_layer

    # Checks every id and value (and gives the parsed values) before anything is written.
    profile = setup_rules(loaded, params=params, enable=enable, disable=disable, group=group).profile
    layers: list[tuple[list, list, dict]] = []
    dirs: list[str] = []
    if group:
        glayer, dirs = group_layer(group)
        layers.append((glayer.enable, glayer.disable, glayer.params))
    r = loaded.scenario.rules
    layers.append((list(r.enable), list(r.disable), dict(r.params)))
    layers.append((list(enable), list(disable), dict(params or {})))
    on: list[str] = []
    off: list[str] = []
    merged: dict[str, Any] = {}
    for en, dis, ps in layers:
        for pid in en:
            off = [x for x in off if x != pid]
            on = on if pid in on else on + [pid]
        for pid in dis:
            on = [x for x in on if x != pid]
            off = off if pid in off else off + [pid]
        merged.update(ps)
    values = {**profile.inactive, **profile.params}
    return {"enable": on, "disable": off, "params": {k: values.get(k, v) for k, v in merged.items()}}, dirs


def _write_rules(doc: Any, scenario: Any, rules: dict) -> None:
    """Puts `rules` into the document's `rules:` (or `pravidla:`), editing the existing block in
    place so its comments and the order of its entries stay; a new block goes before `participants`."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    key = _key(doc, scenario, "rules")
    node = doc.get(key)
    if not isinstance(node, dict):
        if not (rules["enable"] or rules["disable"] or rules["params"]):
            return
        node = CommentedMap()
        at = list(doc).index(_key(doc, scenario, "participants")) if _key(doc, scenario, "participants") in doc \
            else len(doc)
        doc.insert(at, key, node)
    for field in ("enable", "disable"):
        want = rules[field]
        seq = node.get(field)
        if isinstance(seq, list):
            for i in reversed(range(len(seq))):
                if seq[i] not in want:
                    del seq[i]
            seq.extend(x for x in want if x not in seq)
        elif want:
            seq = CommentedSeq(want)
            seq.fa.set_flow_style()
            # In the order of SCENARIO-FORMAT §6 (enable, disable, params), before a later key.
            later = [k for k in ("disable", "params") if k in node and k != field]
            node.insert(list(node).index(later[0]) if later else len(node), field, seq)
    if rules["params"]:
        ps = node.get("params")
        if not isinstance(ps, dict):
            ps = CommentedMap()
            ps.fa.set_flow_style()
            node["params"] = ps
        for name, value in rules["params"].items():
            ps[name] = value


def _answer_yaml(a: Answer) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    plain_ex = a.exhaust and a.exhaust_for is None and not a.jizva and not a.sacrifice
    if not a.exhaust and not a.deny:
        return "accept"
    if plain_ex and not a.deny:
        return "exhaust"
    if a.deny and not a.exhaust and not a.jizva and not a.sacrifice:
        return "deny"
    m = CommentedMap()
    if a.exhaust:
        if a.exhaust_for is not None:
            seq = CommentedSeq(a.exhaust_for)
            seq.fa.set_flow_style()
            m["exhaust"] = seq
        else:
            m["exhaust"] = True
    if a.deny:
        m["deny"] = True
    if a.jizva:
        j = CommentedMap(a.jizva)
        j.fa.set_flow_style()
        m["jizva"] = j
    if a.sacrifice:
        m["sacrifice"] = a.sacrifice
    m.fa.set_flow_style()
    return m


def _aliases(model: Any, field: str) -> list[str]:
    info = type(model).model_fields.get(field) if hasattr(type(model), "model_fields") else None
    names = [field]
    alias = getattr(info, "validation_alias", None) if info else None
    for choice in getattr(alias, "choices", []) or []:
        if isinstance(choice, str) and choice not in names:
            names.append(choice)
    if field == "from_":
        names.append("from")
    return names


def _key(mapping: Any, model: Any, field: str) -> str:
    """The key `field` has in `mapping` (its Czech alias if the file uses it), else `field`."""
    for name in _aliases(model, field):
        if name in mapping:
            return name
    return field


def _walk(doc: Any, model: Any, path: tuple) -> tuple[Any, Any] | None:
    """(the ruamel node, the model) at a model path, following Czech aliases; None if absent."""
    node = doc
    for part in path:
        if isinstance(part, int):
            if not isinstance(node, list) or part >= len(node):
                return None
            node, model = node[part], model[part]
            continue
        if not isinstance(node, dict):
            return None
        key = _key(node, model, part)
        if key not in node:
            return None
        node, model = node[key], getattr(model, part)
    return node, model


def _choices_holder(doc: Any, scenario: Any, cpath: tuple, rnd: int) -> Any:
    """The mapping whose `choices` the answer goes into. A file-level environment entry repeats
    every round, so its answers go into this round's entry with the same id (prostredi merges it)."""
    holder_path = cpath[:-1]
    if holder_path and holder_path[0] == "environment":
        entry = scenario.environment[holder_path[1]]
        if entry.id is None:
            got = _walk(doc, scenario, holder_path)
            return got[0] if got else None
        from ruamel.yaml.comments import CommentedMap

        rounds = doc[_key(doc, scenario, "rounds")]
        rdoc = rounds[rnd - 1]
        rmodel = scenario.rounds[rnd - 1]
        ekey = _key(rdoc, rmodel, "environment")
        if ekey not in rdoc:
            rdoc[ekey] = []
        for e in rdoc[ekey]:
            if isinstance(e, dict) and e.get("id") == entry.id:
                return e
        new = CommentedMap()
        new["id"] = entry.id
        rdoc[ekey].append(new)
        return new
    got = _walk(doc, scenario, holder_path)
    return got[0] if got else None


def default_replay_path(file: str) -> str:
    """`boj.yaml` → `boj.replay.yaml` beside it; a replay being resumed is rewritten in place."""
    if file.endswith(".replay.yaml"):
        return file
    stem = file[:-5] if file.endswith(".yaml") else file[:-4] if file.endswith(".yml") else file
    return stem + ".replay.yaml"
