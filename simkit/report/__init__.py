"""Reports: text tables for the terminal, and HTML + Markdown balance reports."""
