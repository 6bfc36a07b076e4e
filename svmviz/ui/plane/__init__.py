"""The plane and what is drawn on it: points, regions, margins, legend, handles."""
