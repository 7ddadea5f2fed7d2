"""The games service: open a game for a change, run one action, record history, derive state."""
