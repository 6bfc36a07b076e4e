"""The views of the training beside the plane and in the tabs, and their registry."""
