"""Reports from stored results: analysis, HTML/Markdown/JSON rendering, and the regression gate."""
