"""Match Five (a 2014 blog game): colour/number series of five, laid side by side and stacked up to
five high, locked at their ends. See ``README.md`` and ``RULINGS.md`` beside this file."""
