"""Built-in drd plugins: one module per plugin id, registered as entry points."""
