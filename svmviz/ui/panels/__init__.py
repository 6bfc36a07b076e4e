"""The window's controls: the solver panel and its fields, the class bar, the status line."""
