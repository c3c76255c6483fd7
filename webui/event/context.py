"""The blueprints' way to the running EventHub: apart from the app factory (webui/event/app.py), so
no blueprint imports the module that registers it."""

from __future__ import annotations

from flask import current_app


def hub():
    """The running EventHub of the current app."""
    return current_app.config["HUB"]
