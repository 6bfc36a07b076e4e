import numpy as np

from svmviz.core.config import SolverConfig
from svmviz.core.kernels import Kernel
from svmviz.core.lesson.point_readout import readout
from svmviz.core.solvers import Solver


def test_linear_readout_is_the_decision_function(blobs3):
    s = Solver(SolverConfig(iterations=500)).reset(blobs3)
    s.step(500)
    m = s.model()
    r = readout(m, [0.3, -0.2])
    np.testing.assert_allclose(r.values, m.decision_function([[0.3, -0.2]])[0])
    assert r.predicted == int(np.argmax(r.values))
    assert len(r.shares) == 0


def test_kernel_readout_names_the_largest_terms(moons):
    s = Solver(SolverConfig(kernel=Kernel("rbf", gamma=1.0), iterations=2000)).reset(moons)
    s.step(2000)
    m = s.model()
    x = np.array([0.1, 0.4])
    r = readout(m, x, top=3)
    terms = m.dual_coef[0] * m.kernel.gram(x[None], m.support_vectors)[0]
    np.testing.assert_allclose(r.values[0], terms.sum() + m.intercept[0])
    biggest = np.sort(np.abs(terms))[-3:][::-1]
    np.testing.assert_allclose(np.abs(r.shares), biggest)
    assert r.predicted == int(r.values[0] > 0)
