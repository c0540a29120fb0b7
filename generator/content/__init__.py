"""The content folder: Markdown pages, the project read from it, merging sources into pages."""
