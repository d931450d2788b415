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
