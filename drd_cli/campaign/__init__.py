"""A group's campaign (docs/kampan.md): a folder with `drd-kampan.yaml`, its characters
(`postavy/`), creatures (`bestiar/`), conflicts (`konflikty/`) and chronicle (`kronika/`).

Applications layer: it uses the library API (`drd_cli.api`) and the scenario layer below it;
nothing below imports it. The CLI commands (`drd kampan|postava|bestie|konflikt|kronika|import|
export`) are thin wrappers around these modules.
"""
