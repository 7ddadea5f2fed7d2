"""The games service: open a game for a change, run one action, write its history, derive state."""
