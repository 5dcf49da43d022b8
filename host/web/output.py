"""The live page as an output of the table's feed: each update becomes the page's "table"
value in the hub (no waiting: the server's thread sends it to the browsers)."""
from __future__ import annotations

from ..feed import TableUpdate
from .hub import Hub
from .snapshot import update_view


class WebOutput:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def update(self, u: TableUpdate) -> None:
        self.hub.put("table", update_view(u))

    def notice(self, text: str) -> None:
        pass  # notices are for the person at the keyboard, not for the room
