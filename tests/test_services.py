"""REQUIRE_SERVICES=1 turns a missing service from a skip into a failure."""

from __future__ import annotations

import socket

import pytest

from .conftest import port_open, unavailable


def test_missing_service_is_a_skip_by_default(monkeypatch):
    monkeypatch.delenv("REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception):
        unavailable("no such service")


def test_missing_service_is_a_failure_when_required(monkeypatch):
    monkeypatch.setenv("REQUIRE_SERVICES", "1")
    with pytest.raises(pytest.fail.Exception, match="required service unavailable"):
        unavailable("no such service")


def test_port_probe():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert port_open("127.0.0.1", port)
    assert not port_open("127.0.0.1", port)
