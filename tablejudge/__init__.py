"""Tablejudge: the command line (``tablejudge``) over the word library, the service and the engines."""
