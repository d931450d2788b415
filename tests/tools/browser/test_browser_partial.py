"""After an action that changed part of the page, only the changed part is shown."""

from __future__ import annotations

from hands.tools.browser._partial import UNCHANGED, partial_view
from tools.browser.conftest import Browsing, ref_of

PARTIAL = "Snapshot (partial: only the parts that changed"


def test_a_click_that_changes_one_list_item_shows_only_that_item(browsing: Browsing) -> None:
    page = browsing.open("/todo")
    assert "Snapshot:\n" in page and "Task 10" in page
    third, eighth = ref_of(page, 'button "Finish 3"'), ref_of(page, 'button "Finish 8"')
    clicked = browsing.ok("browser_click", ref=third)
    assert PARTIAL in clicked
    shown = clicked.split(PARTIAL, 1)[1]
    assert "text: Task 3 done" in shown
    assert f'button "Finish 3" [focused] [ref={third}]' in shown  # the changed item, its refs
    assert "Task 10" not in shown and "Finish 8" not in shown
    assert f"- {UNCHANGED}" in shown and "- list:" in shown
    again = browsing.ok("browser_click", ref=eighth)  # a ref of the left-out part still holds
    assert PARTIAL in again and "text: Task 8 done" in again and "Task 10" not in again
    whole = browsing.ok("browser_snapshot")
    assert "Snapshot:\n" in whole and "Task 3 done" in whole and "Task 10" in whole


def test_a_change_of_most_of_the_page_or_a_navigation_shows_it_whole(browsing: Browsing) -> None:
    page = browsing.open("/todo")
    everything = browsing.ok("browser_click", ref=ref_of(page, 'button "Finish all"'))
    assert PARTIAL not in everything and "Task 19 done" in everything
    reopened = browsing.open("/todo")
    assert PARTIAL not in reopened and "text: Task 0\n" in reopened + "\n"


def test_a_removed_line_shows_its_parent_and_a_top_level_removal_the_whole() -> None:
    first = [f"  - listitem: Old {i}" for i in range(14)]
    items = [f"  - listitem: Item {i}" for i in range(12)]
    old = "\n".join(["- list:", *first, '- heading "List" [level=1]', "- list:", *items])
    gone = old.replace("  - listitem: Item 5\n", "")
    view = partial_view(old, gone)
    assert view is not None and "Item 4" in view and "Item 6" in view and "Old 3" not in view
    assert partial_view(old, old.replace('- heading "List" [level=1]\n', "")) is None
