import unittest

from inventory import Item, Stock


class StockTest(unittest.TestCase):
    def test_add_merges_quantities(self) -> None:
        stock = Stock()
        stock.add(Item("bolt", 10, 0.25))
        stock.add(Item("bolt", 5, 0.25))
        self.assertEqual(stock.items["bolt"].quantity, 15)

    def test_remove_refuses_more_than_in_stock(self) -> None:
        stock = Stock()
        stock.add(Item("nut", 3, 0.1))
        with self.assertRaises(ValueError):
            stock.remove("nut", 4)

    def test_total_value(self) -> None:
        stock = Stock()
        stock.add(Item("bolt", 10, 0.25))
        stock.add(Item("washer", 4, 0.5))
        self.assertAlmostEqual(stock.total_value(), 4.5)


if __name__ == "__main__":
    unittest.main()
