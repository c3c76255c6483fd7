"""dominocam: the console script and its sub-commands. The work lives in engine/, vision/, webui/."""

__version__ = "0.1.0"
