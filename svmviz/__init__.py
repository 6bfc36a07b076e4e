"""svmviz: watch support vector machines learn.

From Python and notebooks: ``svmviz.show(X, y)`` opens the window on these points
(svmviz.ui.notebook.show); ``svmviz.plot(model, X, y)`` draws the window's decision picture of a
fitted model and ``svmviz.animate(estimator, X, y)`` its training, without a window
(svmviz.ui.notebook.pictures); the estimators are in ``svmviz.estimators``. They are loaded on
first use, so that ``import svmviz`` alone loads no Qt.
"""

__version__ = "0.1.0"

# name → the module that defines it, imported when the name is first asked for (PEP 562)
_LAZY = {
    "plot": "svmviz.ui.notebook.pictures",
    "animate": "svmviz.ui.notebook.pictures",
    "show": "svmviz.ui.notebook.show",
}
__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # (asked once)
        return value
    raise AttributeError(f"module 'svmviz' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
