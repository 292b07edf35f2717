"""cardscript: a declarative card-scripting language, its compiler and a game-agnostic runtime.

The public Python API is documented in docs/api.md.
"""
