"""Games: the facts of play, the actions that change them, and the views that show them."""
