"""The browser tools: a real headless Chromium driven through accessibility snapshots."""
