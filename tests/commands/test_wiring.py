"""The commands wire net and ui together; where the two must agree without importing each
other, a test ties their spellings."""

from __future__ import annotations

from typing import get_args

from lanuno.net import client
from lanuno.ui import contracts


def test_the_network_session_and_the_apps_name_connection_states_alike() -> None:
    assert get_args(client.ConnectionState) == get_args(contracts.ConnectionState)
