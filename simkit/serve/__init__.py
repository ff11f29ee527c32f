"""``simkit serve``: a live page where a designer changes a rule or a corner and watches the
answer settle, baseline A beside change B on the same race keys (issue 36, docs/serve.md).

:mod:`~simkit.serve.study` turns the page's inputs into a checked scenario and plays it in
rounds with the runner; :mod:`~simkit.serve.answer` reads each round's answer with the
analysis; :mod:`~simkit.serve.sequential` is the stopping rule valid under repeated looks;
:mod:`~simkit.serve.pages` queues the pages' rounds; :mod:`~simkit.serve.app` is the ASGI app.
"""
