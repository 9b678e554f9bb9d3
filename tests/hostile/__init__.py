"""Hostile input through the real command line: records crafted to crash the judge, and inputs
that are not files (devices, FIFOs, a closed standard input)."""
