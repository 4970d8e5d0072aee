"""lanuno: UNO for a room full of laptops on one LAN."""

__version__ = "0.3.19"
