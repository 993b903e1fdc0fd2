"""One parser per source format, one package per format (``registry`` maps names to them).

Parsers take decoded text, never paths; they never raise on defects in the text (those
become anomalies) and raise ``ParseError`` only when the text is not of their format.
"""
