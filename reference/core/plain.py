"""Plain data classes: what the reference needs of `@dataclass`, without importing it.

`dataclasses` imports `inspect` (and with it `ast`, `dis`, `tokenize`...): about 4 ms on every
`rebootspec count`, more than a small log takes to count. The reference's data classes only
need equality by fields and a readable repr, so each one lists its fields in `_fields` and
writes its own `__init__`; `Plain` supplies the rest the way a dataclass does (equal when of
the same class with equal fields; a frozen one also hashes by its fields).
"""

from __future__ import annotations


class Plain:
    """Equality and repr by the fields named in `_fields` (as `@dataclass` gives them)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Plain)
        return self._values() == other._values()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({shown})"


class Frozen(Plain):
    """A Plain that is never changed after `__init__`, so it can be hashed by its fields."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._values())
