"""tableref.link: the host's end of the board link.

    from tableref.link import BoardLink, ButtonEvent, applied_pairs, source_tag
    link = BoardLink.open("auto" | "/dev/ttyACM0" | "rfc2217://localhost:4000" | "sim://",
                          applied=applied_pairs(journal_events), on_status=print)
    link.show(snapshot)          # tableref.board_view.board_snapshot(...)
    events = link.poll()         # new ButtonEvents, exactly once; acked at the next poll()
    link.close()
"""
from tablelink.host import ButtonEvent

from .board_link import BoardLink
from .journal_keys import applied_pairs, source_tag

__all__ = ["BoardLink", "ButtonEvent", "applied_pairs", "source_tag"]
