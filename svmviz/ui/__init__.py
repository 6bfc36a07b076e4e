"""Widgets and pyqtgraph items (may import anything below: svmviz.core)."""
