"""The match server: invite links, seats, hidden views, live updates, durable storage and turn clocks,
for every registered game, served by ``tablejudge serve`` beside the word judge. See matches/README.md.

It drives the engines only through their one gate (``State.act``) and sends clients only what
``State.view`` builds for them.
"""
