"""The class palette: colorblind-safe colours (Okabe–Ito) and a marker shape per class.

Plain data, shared by the session (which stores each class's colour) and the window.
"""

# Okabe & Ito (2008), without black (used for lines) and yellow (weak on white) first; grey
# as a ninth colour (the usual extension of the palette)
CLASS_COLORS = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",  # black
    "#999999",  # grey
)
# pyqtgraph symbols: a different shape per class, since projectors wash colours out (no "x":
# a cross marks a misclassified point)
CLASS_SYMBOLS = ("o", "s", "t", "d", "t1", "star", "h", "p", "+")
MAX_CLASSES = len(CLASS_COLORS)  # number keys 1–9

# a race's runs (svmviz.app.race_runner): run 1 is the solver panel's, drawn as the plane
# draws a model; runs 2–4 in colours of Tol's muted scheme (colorblind-safe, none of them a
# class colour above) and in dashes of their own, so that they tell apart in grey as well
RACE_COLORS = ("#000000", "#882255", "#332288", "#999933")

# what is drawn over the classes' points and regions, in no class's colour (a class's points
# never look like one of them): the exact optimum's lines (and ★ and the projection ball),
# Tol's green, darker and yellower than the third class's bluish green; and the step
# inspector's vectors, w before the step, its shrink and its push
OPTIMUM_COLOR = "#117733"
STEP_COLORS = {"w_before": "#606060", "shrink": "#EE3377", "push": "#997700"}
RACE_DASHES = ("solid", "dash", "dot", "dashdot")
