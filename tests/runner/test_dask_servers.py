"""--dask ADDR where something other than a Dask scheduler listens is one line, in bounded
time (issue 37): a server that speaks first in another protocol, one that accepts and stays
silent (bench/attacks.toml plays these, an HTTP server and one that closes at once, end to
end). The servers are the attack table's own (bench/attacks_steps.py), on 127.0.0.1."""

from __future__ import annotations

import pytest

from bench.attacks_steps import serve
from simkit.errors import RunError
from simkit.runner import backends

pytest.importorskip("distributed")

FIX = "give the tcp://HOST:PORT of a Dask scheduler, or local"


@pytest.fixture
def server(request):
    port, stop = serve(request.param)
    yield f"tcp://127.0.0.1:{port}"
    stop()


@pytest.mark.parametrize("server", ["speaks"], indirect=True)
def test_a_server_speaking_another_protocol(server):
    with pytest.raises(RunError) as err:
        backends.DaskBackend(server)
    assert str(err.value) == (
        f"cannot use the Dask scheduler at {server}: the server there does not speak Dask's "
        f"protocol (its first bytes are no Dask message); {FIX}"
    )


@pytest.mark.parametrize("server", ["silent"], indirect=True)
def test_a_silent_server_is_given_up_on(server, monkeypatch):
    monkeypatch.setattr(backends, "CONNECT_SECONDS", 1.0)
    with pytest.raises(RunError) as err:
        backends.DaskBackend(server)
    assert str(err.value) == (
        f"cannot use the Dask scheduler at {server}: the server there accepted the "
        f"connection but did not answer as a Dask scheduler within 1 s; {FIX}"
    )
