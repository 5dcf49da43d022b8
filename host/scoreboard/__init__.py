"""`tableref scoreboard mqtt://BROKER/VENUE`: every table of a venue on one live page, and the
standings of the evening, rebuilt from the tables' journal records and kept in SQLite."""
