"""``ruledsl serve``: a card table in the browser for any rule file (the optional extra ``ruledsl[serve]``).

``tables.py`` plays one game per table, ``frames.py`` builds what each connection is sent
from its seat's observation alone, ``app.py`` is the Starlette app, ``limits.py`` its bounds
and the checks of every request, ``transport.py`` the bounds below HTTP, and ``static/`` the page.
"""
