"""The window: its composition, commands, menus, docks, files, exports and dialogs."""
