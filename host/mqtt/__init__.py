"""MQTT: a table publishes itself to a venue's broker (--publish); the scoreboard subscribes to the venue."""
