"""HTML from templates: the site's pages, themes, interface text, static files."""
