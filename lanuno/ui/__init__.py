"""Terminal interfaces (prompt_toolkit): the player's hand view and the shared screen.

Models are plain data (``client_model``, ``table_model``), layouts and key bindings live
in ``client_app`` and ``table_app``; the network layer calls ``run_client_app`` and
``run_table_app`` with the protocols of ``contracts``. Every sentence is in ``i18n``.
"""
