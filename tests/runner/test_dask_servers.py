"""--dask ADDR where something other than a Dask scheduler listens is one line, in bounded
time (issue 37): a server that speaks first in another protocol, one that accepts and stays
silent (bench/attacks.toml plays these and one that closes at once, end to end). Every
server here listens on 127.0.0.1 only."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from simkit.errors import RunError
from simkit.runner import backends

pytest.importorskip("distributed")


def _serve(answer: bytes | None) -> Iterator[int]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    held: list[socket.socket] = []

    def loop() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            if answer:
                conn.sendall(answer)
            held.append(conn)

    threading.Thread(target=loop, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()
    for conn in held:
        conn.close()


@pytest.fixture
def speaks_first():
    yield from _serve(b"SSH-2.0-OpenSSH_9.0\r\n" * 4)


@pytest.fixture
def silent():
    yield from _serve(None)


FIX = "give the tcp://HOST:PORT of a Dask scheduler, or local"


def test_a_server_speaking_another_protocol(speaks_first):
    address = f"tcp://127.0.0.1:{speaks_first}"
    with pytest.raises(RunError) as err:
        backends.DaskBackend(address)
    assert str(err.value) == (
        f"cannot use the Dask scheduler at {address}: the server there does not speak Dask's "
        f"protocol (its first bytes are no Dask message); {FIX}"
    )


def test_a_silent_server_is_given_up_on(silent, monkeypatch):
    monkeypatch.setattr(backends, "CONNECT_SECONDS", 1.0)
    address = f"tcp://127.0.0.1:{silent}"
    with pytest.raises(RunError) as err:
        backends.DaskBackend(address)
    assert str(err.value) == (
        f"cannot use the Dask scheduler at {address}: the server there accepted the "
        f"connection but did not answer as a Dask scheduler within 1 s; {FIX}"
    )
