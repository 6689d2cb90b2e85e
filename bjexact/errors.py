"""The one exception type that the command line reports as a one-line error."""


class BjexactError(ValueError):
    """Bad input or an impossible request: unknown cards, impossible shoes, conflicting rules.

    The command line prints the message on one line and exits with status 2;
    library users catch it like any ``ValueError``.
    """


class OutOfTime(BaseException):  # noqa: N818 - a signal to stop, not an error
    """The run's time is up: raised by a time guard through the user's code (so that no handler of
    ``Exception`` in it swallows it); the check that catches it reports on the rounds done."""
