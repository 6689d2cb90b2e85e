"""The web application: an exact blackjack calculator in the browser, and an HTTP API for simulators.

``bjexact serve`` starts it. Its parts, each a module:

- :mod:`~bjexact.web.queries`: the rules of a request's query string, and the page's shareable link;
- :mod:`~bjexact.web.answers`: what is answered, as the text the command line writes;
- :mod:`~bjexact.web.service`: worker processes, one solve per question, answers kept;
- :mod:`~bjexact.web.app`: the page and the routes under ``/api/`` (FastAPI);
- ``static/``: the page, its script and its style, shipped with the package.

It needs the ``web`` extra: ``pip install 'bjexact[web]'``.
"""
