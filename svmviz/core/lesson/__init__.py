"""What the lesson reads out: a step explained, a point's readout, scores, bounds."""
