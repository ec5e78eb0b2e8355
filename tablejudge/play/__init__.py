"""The games at the terminal: ``tablejudge play GAME`` and ``tablejudge hint GAME`` (``tablejudge/commands``).

``runner.py`` holds the flags every game takes, a person's seat and the generic runner, which plays any
registered game through the engine protocol alone (``Game.render`` shows a person their view).
``grid.py`` holds what the five grid games' commands share, their hints among them (``Game.hints``); each
grid game's module (and PDQ's) says only what is its own: its texts, flags, a person's help, and what it
prints along the way. The engines know nothing of this package.
"""
