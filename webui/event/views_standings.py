"""Spectator pages of the tournament: `/standings` and the call list `/calls` (BAL-T: who plays
next at which table, called ten minutes before), and their JSON."""

from __future__ import annotations

import time

from flask import Blueprint, jsonify, render_template

from webui.event.context import hub

bp = Blueprint("standings", __name__)


@bp.get("/standings")
def standings_page():
    return render_template("event_standings.html", event=hub().event, t=hub().tournament(),
                           calls=hub().call_list(), now=time.time())


@bp.get("/calls")
def calls_page():
    return render_template("event_calls.html", event=hub().event, calls=hub().call_list(), now=time.time())


@bp.get("/api/event/standings")
def standings():
    return jsonify(event=hub().event, tournament=hub().tournament())


@bp.get("/api/event/calls")
def calls():
    return jsonify(event=hub().event, calls=hub().call_list(), now=time.time())
