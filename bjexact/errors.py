"""The one exception type that the command line reports as a one-line error."""


class BjexactError(ValueError):
    """Bad input or an impossible request: unknown cards, impossible shoes, conflicting rules.

    The command line prints the message on one line and exits with status 2;
    library users catch it like any ``ValueError``.
    """
