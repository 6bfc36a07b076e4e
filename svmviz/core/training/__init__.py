"""Setting a run up and what it runs beside: the exact optimum, a start, a race, a replay."""
