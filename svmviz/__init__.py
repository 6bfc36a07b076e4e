"""svmviz: watch support vector machines learn."""

__version__ = "0.1.0"
