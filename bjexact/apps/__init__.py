"""Interactive uses: replaying a stacked deck, a game at the terminal."""
