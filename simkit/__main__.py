"""``python -m simkit``: the ``simkit`` command (``simkit._entry``)."""

from simkit._entry import main

main()
