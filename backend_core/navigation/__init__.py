"""Navigation trees (screens and the actions between them) and pathfinding over them."""
