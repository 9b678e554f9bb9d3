"""Statistics: per-match metrics, corpus aggregates, reports and the stats command."""
