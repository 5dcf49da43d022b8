"""tableref.link: the host's end of the board link (serial I/O, discovery, sim://)."""
