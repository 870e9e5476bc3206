"""The site's views, one module per audience: public pages, accounts, authors, organisers."""
