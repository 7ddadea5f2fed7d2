"""The tables service: a group's private links, its people, its games, its record and backups."""
