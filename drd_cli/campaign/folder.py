"""The campaign folder: finding it, reading its files, and changing them safely.

Every change goes through `Campaign.changing()`: an exclusive `fcntl` lock on
`.drd-kampan.lock` (two writers take turns, so no update is lost) and a `Transaction` that writes
every new file beside its target first, records the renames in `.drd-kampan.journal`, then
renames them. A process killed half-way leaves each file as it was or as it is meant to be, and the
next change (or read under the lock) finishes the journal, so the set of files is never half-applied.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterator
from typing import Any

from ..errors import DrdError, Location, ScenarioError
from ..i18n import _
from ..scenario.references import CAMPAIGN_FILE, FOLDERS, find_campaign, read_entity, shown_path

LOCK_FILE = ".drd-kampan.lock"
JOURNAL_FILE = ".drd-kampan.journal"
SUBFOLDERS = ("postavy", "bestiar", "konflikty", "kronika")
_TMP_PREFIX = ".kampan-"


class Campaign:
    """An opened campaign: its root folder and its validated `drd-kampan.yaml`."""

    def __init__(self, root: str, config: Any):
        self.root = root
        self.config = config

    # ------------------------------------------------------------------ finding

    @classmethod
    def open(cls, explicit: str | None = None, start: str | None = None) -> "Campaign":
        """`--kampan DIR`, else the campaign holding `start` (default: the current folder)."""
        if explicit is not None:
            root = os.path.abspath(explicit)
            if not os.path.isfile(os.path.join(root, CAMPAIGN_FILE)):
                raise ScenarioError(_("{folder} is not a campaign: it has no {file}").format(
                    folder=explicit, file=CAMPAIGN_FILE), Location(explicit),
                    hint=_("create one with `drd kampan new NAME` (docs/kampan.md)"))
        else:
            found = find_campaign(start or os.getcwd())
            if found is None:
                raise ScenarioError(_("not inside a campaign: no {file} in this folder or above").format(
                    file=CAMPAIGN_FILE), Location(),
                    hint=_("go into the campaign's folder, name it with --kampan DIR, or create one with "
                           "`drd kampan new NAME`"))
            root = found
        return cls(root, read_config(root))

    def path(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)

    def rel(self, path: str) -> str:
        return os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")

    @property
    def params(self) -> Any:
        return self.config.params

    # ------------------------------------------------------------------ characters and creatures

    def ids(self, kind: str) -> list[str]:
        folder = self.path(FOLDERS[kind])
        try:
            names = os.listdir(folder)
        except OSError:
            return []
        return sorted(n[:-5] for n in names if n.endswith(".yaml") and not n.startswith("."))

    def entity_path(self, kind: str, ident: str) -> str:
        return self.path(FOLDERS[kind], f"{ident}.yaml")

    def read(self, kind: str, ident: str) -> Any:
        """The validated model of a character (`postava`) or creature (`bestie`); exit 2 if unknown."""
        file = self.entity_path(kind, ident)
        if not valid_id(ident) or not os.path.isfile(file):
            raise unknown(kind, ident, self.ids(kind))
        model, _data, _source = read_entity(shown_path(file), kind)
        return model

    # ------------------------------------------------------------------ changing

    @contextlib.contextmanager
    def changing(self) -> Iterator["Transaction"]:
        """Holds the campaign's lock; yields a Transaction committed when the block ends without error."""
        with self.locked():
            tx = Transaction(self)
            yield tx
            tx.commit()

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        import fcntl

        fd = os.open(self.path(LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            recover(self.root)
            _clean_temps(self.root)
            yield
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)


ROLES = {"postavy": "postava", "bestiar": "bestie", "kronika": "kronika"}


def file_role(path: str) -> str | None:
    """What a file of a campaign is (`drd check FOLDER`): "kampan" (drd-kampan.yaml), "postava",
    "bestie", "kronika" (written by drd), or None (a scenario, or no campaign at all)."""
    root = find_campaign(os.path.dirname(os.path.abspath(path)))
    if root is None:
        return None
    parts = os.path.relpath(os.path.abspath(path), root).split(os.sep)
    if parts == [CAMPAIGN_FILE]:
        return "kampan"
    return ROLES.get(parts[0]) if len(parts) > 1 else None


def check_campaign_file(path: str, role: str) -> None:
    """Validates a character, creature or campaign file as what it is; ScenarioError at its line."""
    if role == "kampan":
        read_config(os.path.dirname(os.path.abspath(path)))
    else:
        read_entity(path, role)


def valid_id(ident: str) -> bool:
    return bool(ident) and "/" not in ident and "\\" not in ident and not ident.startswith(".")


def unknown(kind: str, ident: str, ids: list[str]) -> DrdError:
    import difflib

    close = difflib.get_close_matches(ident, ids, n=1, cutoff=0.5)
    message = (_("no character {id!r} in the campaign ({folder})") if kind == "postava"
               else _("no creature {id!r} in the campaign's bestiary ({folder})")).format(
        id=ident, folder=FOLDERS[kind] + "/")
    hint = (_("did you mean {option}?").format(option=repr(close[0])) if close
            else _("known: {ids}").format(ids=", ".join(ids)) if ids else None)
    return ScenarioError(message, Location(ident), hint=hint)


def read_config(root: str) -> Any:
    from ..scenario.character import CampaignFile
    from ..scenario.load import load_document
    from ..scenario.validate import validate_model

    file = shown_path(os.path.join(root, CAMPAIGN_FILE))
    data, source = load_document(file)
    return validate_model(CampaignFile, data, source, file)


class Transaction:
    """Files to write together: all of them or (after `recover`) none is half-written."""

    def __init__(self, campaign: Campaign):
        self.campaign = campaign
        self.writes: dict[str, str] = {}
        self.removes: list[str] = []

    def write(self, path: str, text: str) -> None:
        self.writes[os.path.abspath(path)] = text

    def remove(self, path: str) -> None:
        self.removes.append(os.path.abspath(path))

    def commit(self) -> None:
        if not self.writes and not self.removes:
            return
        pairs: list = []
        try:
            for target, text in self.writes.items():
                os.makedirs(os.path.dirname(target), exist_ok=True)
                tmp = os.path.join(os.path.dirname(target),
                                   f"{_TMP_PREFIX}{os.getpid()}-{secrets.token_hex(6)}.tmp")
                with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
                pairs.append((tmp, target))
        except BaseException:
            for tmp, _target in pairs:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            raise
        root = self.campaign.root
        journal = os.path.join(root, JOURNAL_FILE)
        tmp_journal = journal + f".{os.getpid()}.tmp"
        with open(tmp_journal, "w", encoding="utf-8") as handle:
            json.dump([[os.path.relpath(t, root), os.path.relpath(g, root)] for t, g in pairs]
                      + [[None, os.path.relpath(g, root)] for g in self.removes], handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_journal, journal)      # from here on the change is decided
        _sync(root)
        recover(root)


def recover(root: str) -> None:
    """Finishes a change whose journal was written (its process was killed while renaming)."""
    journal = os.path.join(root, JOURNAL_FILE)
    try:
        with open(journal, encoding="utf-8") as handle:
            pairs = json.load(handle)
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        pairs = []            # a journal is written whole (renamed into place): unreadable = nothing to do
    folders = set()
    for tmp, target in pairs:
        target = os.path.join(root, target)
        if tmp is None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(target)
        elif os.path.exists(os.path.join(root, tmp)):
            os.replace(os.path.join(root, tmp), target)
        folders.add(os.path.dirname(target))
    for folder in folders:
        _sync(folder)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(journal)
    _sync(root)


def _clean_temps(root: str) -> None:
    """Removes the temp files of a change whose process died before its journal was written."""
    import re

    from ..safefiles import _pid_alive

    pattern = re.compile(r"^\.kampan-(\d+)-[0-9a-f]+\.tmp$")
    for sub in SUBFOLDERS[:2] + SUBFOLDERS[3:]:
        folder = os.path.join(root, sub)
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            m = pattern.match(name)
            if m and not _pid_alive(int(m.group(1))):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(folder, name))


def _sync(folder: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def new_campaign(name: str, *, here: bool, language: str = "cs") -> str:
    """Creates a campaign: the folder `name/` (or the current one with `here`); returns its root."""
    root = os.getcwd() if here else os.path.abspath(name)
    if os.path.exists(os.path.join(root, CAMPAIGN_FILE)):
        message = (_("this folder is a campaign already ({file} exists)") if here
                   else _("{folder} is a campaign already ({file} exists)"))
        raise DrdError(message.format(folder=shown_path(root), file=CAMPAIGN_FILE),
                       Location(shown_path(os.path.join(root, CAMPAIGN_FILE))))
    if not here and os.path.exists(root) and os.listdir(root):
        raise DrdError(_("the folder {folder} exists and is not empty").format(folder=name), Location(name),
                       hint=_("to make it a campaign, go into it and use `drd kampan new --zde NAME`"))
    for sub in SUBFOLDERS:
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    from ..safefiles import replace_atomically

    replace_atomically(os.path.join(root, CAMPAIGN_FILE), campaign_text(name, language))
    return root


def campaign_text(name: str, language: str) -> str:
    quoted = json.dumps(name, ensure_ascii=False)
    head = _("A drd campaign (docs/kampan.md).")
    spoken = _("the language of the chronicle's export (drd kronika export): cs | en")
    group = _("the group profile its conflicts use (drd group)")
    carry = _("what carries to the next conflict besides pools: ohrozeni, vyhody")
    cost = _("points healing one Jizva costs")
    pool = _("paid from: jizva (the Jizva own pool), telo, duse, vliv")
    lowers = _("a Jizva of known size lowers its pool maximum by it")
    return (f"# {head}\n"
            "format: drd-kampan/1\n"
            f"name: {quoted}\n"
            f"{'language: ' + language:<30}# {spoken}\n"
            f"# group: ctvrtek              # {group}\n"
            "params:\n"
            f"  carry: []                   # {carry}\n"
            f"  heal_cost: 5                # {cost}\n"
            f"  heal_pool: jizva            # {pool}\n"
            f"  jizva_lowers_max: true      # {lowers}\n")
