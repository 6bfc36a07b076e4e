"""QtCore only: state and threads (imports svmviz.core, never the ui layer)."""
