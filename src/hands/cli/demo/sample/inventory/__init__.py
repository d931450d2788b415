"""A tiny stock-keeping library."""

from inventory.stock import Item, Stock

__all__ = ["Item", "Stock"]
