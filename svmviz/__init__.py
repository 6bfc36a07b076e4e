"""svmviz: watch support vector machines learn."""

__version__ = "0.1.0"

# the functions for scripts and notebooks, each loaded at its first use (``import svmviz``
# loads no Qt): name -> its module
_LAZY = {"show": "svmviz.ui.show"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'svmviz' has no attribute {name!r}")
