"""Hosting: the command, its servers, the data folder's backups and moves, the schema's upgrades."""
