"""The JSON API: the score sheet for apps and scripts, with errors as problem+json."""
