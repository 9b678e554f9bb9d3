"""The line format: reading and writing a log (`logfile`, `codec`: one decoder and one encoder
of the record layout), its hash chain and deck commitments (`chain`), the one read of a log for
what its verdict rests on (`integritypass`), and the trust documents (`trust`, `pools`)."""

__all__: list[str] = []
