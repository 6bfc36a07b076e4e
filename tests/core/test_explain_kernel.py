"""The inspector's words on the kernel trick: the numbers shown are this pair's, and the
sum of the feature products is the kernel's value."""

import numpy as np
import pytest

from svmviz.core.kernels import Kernel
from svmviz.core.lesson.explain_kernel import kernel_pair, partner, point_name, why_kernel

rng = np.random.default_rng(4)
PAIRS = rng.normal(scale=1.3, size=(6, 2, 2))
POLY = [Kernel("poly", gamma=g, degree=2, coef0=c) for g in (0.5, 1.7) for c in (0.0, 1.0)]


@pytest.mark.parametrize("kernel", [*POLY, Kernel("linear")], ids=str)
def test_feature_products_sum_to_the_kernel(kernel):
    for x, z in PAIRS:
        pair = kernel_pair(kernel, x, z)
        assert pair.kernel == pytest.approx(float(kernel.gram(x[None], z[None])[0, 0]))
        assert pair.feature_inner == pytest.approx(pair.kernel, rel=1e-12, abs=1e-12)
        assert pair.inner == pytest.approx(float(x @ z))


def value(text):
    return float(text.strip("()").replace("−", "-"))


def shown(v):
    """v as the sentence writes it (three digits, a typeset minus)."""
    return f"{v:.3g}".replace("-", "−")


@pytest.mark.parametrize("kernel", POLY, ids=str)
def test_the_sentence_shows_this_pairs_numbers(kernel):
    x, z = PAIRS[2]
    text = why_kernel(kernel, x, z, (point_name(12), point_name(40)))
    assert "φ(x₁₂)·φ(x₄₀) = " in text and "k(x₁₂, x₄₀)" in text
    assert "(Shalev-Shwartz & Ben-David, UML §16.3: Lemma 16.3)" in text
    pair = kernel_pair(kernel, x, z)
    # the terms: each coordinate's two values, then the sum and the kernel's form
    terms = text.split("φ(x₁₂)·φ(x₄₀) = ")[1].split(" = ")[0].split(" + ")
    products = [np.prod([value(v) for v in t.split("·")]) for t in terms]
    np.testing.assert_allclose(products, pair.products, rtol=5e-3, atol=1e-3)
    inner = f"({shown(pair.inner)})" if pair.inner < 0 else shown(pair.inner)
    assert f"({kernel.gamma:.3g}·{inner} + {kernel.coef0:.3g})²" in text
    assert text.count(f"= {shown(pair.kernel)} =") == 2  # the sum and the kernel's value agree


def test_linear_and_rbf_words():
    x, z = PAIRS[0]
    text = why_kernel(Kernel("linear"), x, z)
    assert "the point itself" in text and f"= {shown(float(x @ z))} = x·z" in text
    rbf = Kernel("rbf", gamma=0.5)
    text = why_kernel(rbf, x, z)
    assert "infinite" in text and "decision surface" in text
    assert f"k(x, z) = {shown(float(np.exp(-0.5 * np.sum((x - z) ** 2))))}:" in text


def test_the_partner_is_the_largest_other_term_of_f_else_the_nearest():
    X = rng.normal(size=(9, 2))
    kernel = Kernel("poly", gamma=0.7, degree=2, coef0=1.0)
    alpha = np.abs(rng.normal(size=9))
    i = 4
    terms = [abs(alpha[j] * (0.7 * X[j] @ X[i] + 1.0) ** 2) if j != i else -1 for j in range(9)]
    assert partner(kernel, X, i, alpha) == (int(np.argmax(terms)), True)
    # only α_i nonzero, or no α: the nearest other point; a test point is never chosen
    lone = np.where(np.arange(9) == i, 1.0, 0.0)
    distances = [np.sum((X[j] - X[i]) ** 2) if j != i else np.inf for j in range(9)]
    nearest = int(np.argmin(distances))
    assert partner(kernel, X, i, lone) == partner(kernel, X, i) == (nearest, False)
    train = np.ones(9, dtype=bool)
    train[nearest] = False
    j, by_alpha = partner(kernel, X, i, None, train)
    assert j not in (i, nearest) and not by_alpha
    assert partner(kernel, X[:1], 0) is None
