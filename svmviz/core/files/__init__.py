"""The session file, scenarios, svm-toy files and scikit-learn's fitted models."""
