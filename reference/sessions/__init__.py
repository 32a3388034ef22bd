"""Sessions on this machine: where each host keeps them (`stores.py`, rows from the hosts),
walking those folders (`finder.py`) and finding one by its id (`lookup.py`). `count PATH`
never imports this package."""
