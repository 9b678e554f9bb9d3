"""vwlog: event-sourced replay and audit of Vandaria Wars matches."""

__version__ = "0.1.0"
