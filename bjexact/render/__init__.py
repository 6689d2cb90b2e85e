"""Presentation: tables in every format, diagrams, plots and the reports."""
