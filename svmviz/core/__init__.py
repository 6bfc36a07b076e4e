"""The numerical core of svmviz: numpy and numerical libraries only, never Qt."""
