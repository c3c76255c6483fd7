"""The rules of Russian double-six domino: pure Python, standard library only, no I/O."""
