import pytest

pytest_plugins = ["drd_cli.testing"]


@pytest.fixture(autouse=True)
def _only_my_plugins(monkeypatch):
    """Other installed plugins stay out; the tests pass this package's modules themselves."""
    monkeypatch.setenv("DRD_DISABLE_PLUGIN_AUTOLOAD", "1")
