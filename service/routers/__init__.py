"""One router per resource; each route only reads its parameters and calls the library."""
