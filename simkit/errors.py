"""The exceptions simkit raises for input a user can fix.

Library code raises these; the CLI turns each into a one-line ``click.ClickException``.
Anything else escaping to the user is a bug in simkit, not in their input.
"""

from __future__ import annotations


class SimkitError(Exception):
    """Base class: a problem with the user's input, with a message that says how to fix it.

    ``key`` names what the problem is about when one input is to blame (a parameter, or a
    cell axis such as ``players``, ``bots``, ``slots``, ``track``), so callers that know
    where the input came from (a scenario file) can point there without parsing messages.
    """

    def __init__(self, message: str = "", *, key: str | None = None):
        super().__init__(message)
        self.key = key


class ParamError(SimkitError):
    """A variant parameter is unknown, of the wrong type, or out of bounds (``key``: its name)."""


class TrackError(SimkitError):
    """A track spec is invalid. Carries the file and the segment index (or None)."""

    def __init__(self, message: str, *, path: str | None = None, segment: int | None = None):
        self.path = path
        self.segment = segment
        where = []
        if path is not None:
            where.append(f"track '{path}'")
        if segment is not None:
            where.append(f"segment {segment}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)
        self.reason = message


class ScenarioError(SimkitError):
    """A scenario file is invalid. Carries the file and the key."""

    def __init__(self, message: str, *, path: str | None = None, key: str | None = None):
        self.path = path
        self.key = key
        where = []
        if path is not None:
            where.append(f"scenario '{path}'")
        if key is not None:
            where.append(f"key '{key}'")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message, key=key)
        self.reason = message


class SpaceError(SimkitError):
    """A tuning's search space file (``simkit tune --space``) is invalid. Carries the file
    and the key."""

    def __init__(self, message: str, *, path: str | None = None, key: str | None = None):
        where = []
        if path is not None:
            where.append(f"space '{path}'")
        if key is not None:
            where.append(f"key '{key}'")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message, key=key)
        self.path = path
        self.reason = message


class StateError(SimkitError):
    """A game-state file (for ``simkit moves``) is invalid."""


class RunError(SimkitError):
    """A run directory cannot be used as asked (exists, incomplete, mismatched)."""


class RouteError(SimkitError):
    """A route file (a board of spaces and links) is invalid. Carries the file and the space
    (or key), or None."""

    def __init__(self, message: str, path: str | None = None, where: str | None = None):
        self.path = path
        self.where = where
        parts = []
        if path is not None:
            parts.append(f"route '{path}'")
        if where is not None:
            parts.append(where)
        prefix = ", ".join(parts)
        super().__init__(f"{prefix}: {message}" if prefix else message)
        self.reason = message
