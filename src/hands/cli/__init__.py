"""Everything behind the ``hands`` command; nothing else imports it."""
