"""``python -m vwlog``: the command line."""

from vwlog.cli import main

if __name__ == "__main__":
    main(prog_name="vwlog")


__all__: list[str] = []
