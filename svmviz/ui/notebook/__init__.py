"""svmviz from Python and notebooks (svmviz.show, svmviz.plot, svmviz.animate), and pictures
without a window (`svmviz train --plot` too)."""
