"""Items and the stock that holds them."""

from dataclasses import dataclass, field


@dataclass
class Item:
    name: str
    quantity: int
    unit_price: float


@dataclass
class Stock:
    items: dict[str, Item] = field(default_factory=dict)

    def add(self, item: Item) -> None:
        if item.name in self.items:
            self.items[item.name].quantity += item.quantity
        else:
            self.items[item.name] = item

    def remove(self, name: str, quantity: int) -> None:
        item = self.items[name]
        if quantity > item.quantity:
            raise ValueError(f"only {item.quantity} {name} in stock")
        item.quantity -= quantity

    def total_value(self) -> float:
        return sum(item.unit_price for item in self.items.values())
