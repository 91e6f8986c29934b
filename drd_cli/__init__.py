"""drd — resolve Dračí doupě II conflicts from YAML scenarios.

Kept tiny on purpose: `drd --version` imports only this module.
"""

__version__ = "0.1.0"
