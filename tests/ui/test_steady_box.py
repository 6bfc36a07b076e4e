"""The weight-space view's readouts change several times a second while playing: a new
text of the same size relayouts their box only, not the layouts around the view (Qt asks
them all again at every relayout, whatever changed); a text that needs more room still
makes it."""

from PySide6 import QtCore, QtWidgets

from svmviz.ui.weight_space import WeightSpaceView


class LayoutRequests(QtCore.QObject):
    count = 0

    def eventFilter(self, obj, event):
        if event.type() == QtCore.QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def test_a_readout_of_the_same_size_relayouts_only_its_box(qtbot):
    holder = QtWidgets.QWidget()
    QtWidgets.QVBoxLayout(holder).addWidget(view := WeightSpaceView())
    qtbot.addWidget(holder)
    holder.resize(400, 500)
    holder.show()
    qtbot.waitExposed(holder)
    try:
        readouts_stay_in_their_box(view, holder, qtbot)
    finally:
        view.shutdown()


def readouts_stay_in_their_box(view, holder, qtbot):
    view.value_label.setText("F(model) = 0.5")
    qtbot.wait(20)
    requests = LayoutRequests()
    holder.installEventFilter(requests)
    for value in ("0.4", "0.3", "0.2"):
        view.value_label.setText(f"F(model) = {value}")
        QtWidgets.QApplication.processEvents()
    assert requests.count == 0
    height = view.value_label.height()
    view.value_label.setText(" ".join(["F(model) = 0.1"] * 40))  # (wraps: more lines)
    qtbot.waitUntil(lambda: view.value_label.height() > 2 * height, timeout=2000)
    assert requests.count > 0
