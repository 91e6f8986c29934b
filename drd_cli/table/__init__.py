"""`drd stul`: one conflict served to the table (docs/stul.md) — applications layer.

* `game` — `drd play`'s `Session` run in a thread, asking through the pages (`Game`);
* `views` — what the GM's page, a player's page and the table screen are sent;
* `room` — the tokens and the limits;
* `server` — the Starlette app (pages, event streams, actions);
* `run` — building the game, the terminal's addresses and QR code, the server's life;
* `words` — the pages' words (the message catalogs).

Imported only by `drd stul` and `drd play --stul`: nothing here is loaded by any other command.
"""
