"""Developer and operations scripts; a package so that tests and bench/ can import scripts.stack."""
