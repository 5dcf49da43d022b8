"""The one exception type that the command line turns into a single clear error line."""


class UserError(Exception):
    """Bad input from the user or the outside world (file, card code, port, image).

    The message must name what was wrong and where (file and line, port, image) so that
    the CLI can print it as one line and exit non-zero without a traceback.
    """
