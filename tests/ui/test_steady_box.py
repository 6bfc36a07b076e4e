"""The weight-space view's readouts change several times a second while playing: a new
text of the same size relayouts their box only, not the layouts around the view (Qt asks
them all again at every relayout, whatever changed); a text that needs more room still
makes it."""

from PySide6 import QtCore, QtWidgets

from svmviz.ui.panels.timeline import Timeline
from svmviz.ui.views.weight_space import WeightSpaceView


class LayoutRequests(QtCore.QObject):
    count = 0

    def eventFilter(self, obj, event):
        if event.type() == QtCore.QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def watch(holder, qtbot) -> LayoutRequests:
    """The holder's layout requests from now on, once the ones of its first show are done
    (a loaded machine can bring them late)."""
    requests = LayoutRequests()
    holder.installEventFilter(requests)
    for _ in range(50):
        requests.count = 0
        qtbot.wait(20)
        if requests.count == 0:
            break
    return requests


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
    requests = watch(holder, qtbot)
    for value in ("0.4", "0.3", "0.2"):
        view.value_label.setText(f"F(model) = {value}")
        QtWidgets.QApplication.processEvents()
    assert requests.count == 0
    height = view.value_label.height()
    view.value_label.setText(" ".join(["F(model) = 0.1"] * 40))  # (wraps: more lines)
    qtbot.waitUntil(lambda: view.value_label.height() > 2 * height, timeout=2000)
    qtbot.waitUntil(lambda: requests.count > 0, timeout=2000)


def test_the_timeline_relayouts_only_its_label_as_t_goes_on(qtbot):
    """The status bar's "t = … of …" changes with every frame: the window around it is laid
    out again only when the text's length changes, whatever t's digits are."""
    holder = QtWidgets.QWidget()
    QtWidgets.QVBoxLayout(holder).addWidget(timeline := Timeline())
    qtbot.addWidget(holder)
    holder.show()
    qtbot.waitExposed(holder)
    timeline.show_t(1_000, 0, 20_000)
    requests = watch(holder, qtbot)
    for t in (1_111, 8_888, 1_234, 9_999, 5_000):
        timeline.show_t(t, 0, 20_000)
        QtWidgets.QApplication.processEvents()
        assert timeline.label.width() >= timeline.label.sizeHint().width()  # (never cut)
    assert requests.count == 0
    timeline.show_t(10_000, 0, 20_000)  # a longer text: more room
    qtbot.waitUntil(lambda: requests.count > 0, timeout=2000)
    assert timeline.label.width() >= timeline.label.sizeHint().width()
