"""The geometry of what is drawn: regions and contours, the 3-D view, the weight space."""
