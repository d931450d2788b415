"""The browser tools against real headless Chromium: forms, JavaScript, frames, tabs."""

from __future__ import annotations

from tools.browser.conftest import Browsing, ref_of


def test_login_form_signs_in_and_the_result_page_says_so(browsing: Browsing) -> None:
    page = browsing.open("/login")
    assert 'heading "Sign in"' in page
    user = ref_of(page.split("Snapshot:", 1)[1], 'textbox "User name"')
    password = ref_of(page, 'textbox "Password"')
    typed = browsing.ok("browser_type", ref=user, text="alice")
    assert "alice" in typed
    browsing.ok("browser_type", ref=password, text="s3cret")
    done = browsing.ok("browser_click", ref=ref_of(page, 'button "Sign in"'))
    assert 'Clicked button "Sign in"' in done
    assert 'heading "Signed in as alice"' in done
    assert "Navigated to" in done


def test_a_javascript_list_appears_in_the_snapshot_after_load(browsing: Browsing) -> None:
    page = browsing.open("/js-list")
    for fruit in ("Apple", "Banana", "Cherry"):
        assert f"listitem: {fruit}" in page
    waited = browsing.ok("browser_wait_for", text="Cherry")
    assert "'Cherry' appeared" in waited


def test_a_form_inside_an_iframe_is_typed_into_and_sent(browsing: Browsing) -> None:
    page = browsing.open("/iframe")
    email = ref_of(page, 'textbox "Email"')
    assert 'iframe "contact form":' in page
    browsing.ok("browser_type", ref=email, text="bob@example.org")
    sent = browsing.ok("browser_click", ref=ref_of(page, 'button "Send"'))
    assert "Sent to bob@example.org" in sent


def test_a_confirm_dialog_is_answered_as_the_setting_says_and_reported(
    browsing: Browsing,
) -> None:
    page = browsing.open("/dialog")
    button = ref_of(page, 'button "Delete"')
    dismissed = browsing.ok("browser_click", ref=button)
    assert "A confirm dialog said 'Delete the file?'; it was dismissed" in dismissed
    assert "paragraph: Kept" in dismissed
    browsing.browser._settings = browsing.settings.__class__(
        **{**_fields(browsing.settings), "dialogs": "accept"}
    )
    accepted = browsing.ok("browser_click", ref=button)
    assert "it was accepted" in accepted and "Deleted" in accepted


def _fields(settings: object) -> dict[str, object]:
    from dataclasses import fields

    return {f.name: getattr(settings, f.name) for f in fields(settings)}  # type: ignore[arg-type]


def test_a_select_and_a_checkbox_change_the_page(browsing: Browsing) -> None:
    page = browsing.open("/choices")
    assert 'checkbox "Send me news"' in page and "[checked]" not in page
    chosen = browsing.ok(
        "browser_select_option", ref=ref_of(page, 'combobox "Colour"'), values=["Blue"]
    )
    assert "Selected 'b'" in chosen and "colour=b news=false" in chosen
    ticked = browsing.ok("browser_click", ref=ref_of(page, 'checkbox "Send me news"'))
    assert 'checkbox "Send me news" [checked]' in ticked and "colour=b news=true" in ticked


def test_a_download_lands_in_the_session_directory(browsing: Browsing) -> None:
    page = browsing.open("/download")
    got = browsing.ok("browser_click", ref=ref_of(page, 'link "Get the report"'))
    saved = browsing.session.directory / "downloads" / "report.csv"
    assert f"to {saved} (8 bytes)" in got
    assert saved.read_text() == "a,b\n1,2\n"


def test_a_popup_becomes_the_current_tab_and_tabs_switch_back(browsing: Browsing) -> None:
    page = browsing.open("/popup")
    opened = browsing.ok("browser_click", ref=ref_of(page, 'button "Open help"'))
    assert "A new tab [1] opened" in opened and 'heading "Help page"' in opened
    listed = browsing.ok("browser_tabs", action="list")
    assert "[0] 'Opener'" in listed and "[1] (current) 'Help'" in listed
    back = browsing.ok("browser_tabs", action="select", index=0)
    assert 'button "Open help"' in back
    closed = browsing.ok("browser_tabs", action="close", index=1)
    assert "Closed tab [1]" in closed and len(browsing.browser.tabs) == 1
    assert "There is no tab [5]" in browsing.err("browser_tabs", action="select", index=5)


def test_refs_from_before_a_navigation_are_refused_not_clicked(browsing: Browsing) -> None:
    a = browsing.open("/nav-a")
    press = ref_of(a, 'button "Press me"')
    b = browsing.ok("browser_click", ref=ref_of(a, 'link "Go to B"'))
    assert 'heading "Page B"' in b
    stale = browsing.err("browser_click", ref=press)
    assert f"Ref {press} is not in the latest snapshot" in stale
    assert "Take a new snapshot with Browser_snapshot" in stale
    assert "Another button" not in stale
    typo = browsing.err("browser_click", ref="button 3")
    assert "is not an element ref" in typo
    back = browsing.ok("browser_back")
    assert "Went back to" in back and 'heading "Page A"' in back
    assert "Went forward to" in browsing.ok("browser_forward")


def test_typing_into_something_not_editable_is_an_error(browsing: Browsing) -> None:
    page = browsing.open("/nav-a")
    text = browsing.err("browser_type", ref=ref_of(page, 'button "Press me"'), text="x")
    assert "is not an editable element" in text


def test_keys_hover_scroll_and_screenshot(browsing: Browsing) -> None:
    page = browsing.open("/echo")
    box = ref_of(page, 'textbox "Box"')
    browsing.ok("browser_type", ref=box, text="abc")
    browsing.ok("browser_press_key", key="Backspace")
    assert f'textbox "Box" [focused] [ref={box}]: ab' in browsing.ok("browser_snapshot")
    assert "Hovered over" in browsing.ok("browser_hover", ref=box)
    assert "Scrolled down by 640 pixels" in browsing.ok("browser_scroll", direction="down")
    shot = browsing.run("browser_screenshot")
    assert not shot.is_error
    content = shot.block.content
    assert isinstance(content, list | tuple) and content[0].type == "image"  # type: ignore[union-attr]
    assert "Screenshot of the visible page (1280x800" in shot.block.text


def test_a_page_that_never_finishes_loading_is_an_error_with_what_loaded(
    browsing: Browsing,
) -> None:
    text = browsing.err("browser_navigate", url=browsing.pages.url("/stall"))
    assert "did not finish loading within 3 s" in text
    assert 'heading "Partly loaded"' in text


def test_scrolling_an_endless_page_loads_more_into_the_snapshot(browsing: Browsing) -> None:
    first = browsing.open("/infinite")
    assert "listitem: Post 19" in first and "Post 20" not in first
    scrolled = browsing.ok("browser_scroll", direction="down", amount=5_000)
    assert "listitem: Post 39" in scrolled
