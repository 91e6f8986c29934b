pytest_plugins = ["drd_cli.testing"]
