// Small behaviours htmx does not cover. Loaded as a file: the CSP forbids inline script.
