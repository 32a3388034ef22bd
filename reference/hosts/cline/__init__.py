"""Cline (spec/hosts/cline.md, CLN-*): a task folder of the extension's 3.x core (written by the
VS Code extension and by Cline CLI 1.x and 2.x), or a session folder of the Cline SDK (CLI 3.x,
extension 4.x). The owner of the Cline family: Roo Code and the Kilo Code extension keep the
same task folders, and their hosts (`roo-code`, `kilo-code`) read them with this reader
(core/family.py, CLN-2): Cline's reader reads the input once (`family_evidence`), and each host
of the family judges that reading by its own writer's marks (`marks`).

`marks.py` says what an input is and who wrote it, `reader.py` counts it, `stores.py` holds the
store rows; this module is the host's entry in the registry and imports none until asked.
"""

from __future__ import annotations

from ...core.family import family_claims
from ...core.host import Host
from ...core.identity import Identity

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from ...core.answer import Answer
    from ...core.storetypes import Base, Store


class Cline(Host):
    input_label = "cline task folder"
    store_variables = ("CLINE_DIR", "CLINE_DATA_DIR", "CLINE_SESSION_DATA_DIR")
    identity = Identity(
        how="Cline gives its command tool no task id: the task folder's name is the id "
        "(`count --session ID`)",
    )

    def family_evidence(self, path: str, is_dir: bool, head: bytes) -> Any:
        """HST-2, CLN-1: the family's input read once (`marks.Input`), None when the input is
        none of the family's kind; which host wrote it is each host's `marks` (CLN-2)."""
        if not is_dir and not path.endswith(".json"):  # CLN-1: marks.py is not imported
            return None
        from .marks import evidence

        return evidence(path, is_dir, head)

    def marks(self, evidence: Any) -> bool:
        """CLN-2: a task folder or SDK session that carries neither Roo Code's nor the Kilo
        extension's marks is Cline's own (marks.py reads them once for the whole family)."""
        return bool(evidence.member == self.key)

    def claims_input(self, path: str, is_dir: bool, head: bytes) -> bool:
        return family_claims(self, path, is_dir, head)

    def count(
        self,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        return self.count_as(
            self.key, path, session=session, readable=readable, with_title=with_title
        )

    def count_as(
        self,
        member: str,
        path: str,
        *,
        session: str | None = None,
        readable: bool = False,
        with_title: bool = False,
    ) -> Answer:
        """CLN-1..CLN-13 for the input at `path`, answered under `member`'s key (HST-3: a
        named host reads it as its own). Not the family's input: E-HOST (HST-4)."""
        import os

        from ...core.errors import E_HOST, Rejection
        from .marks import inspect
        from .reader import count_input

        found = inspect(path, os.path.isdir(path))
        if found is None:
            raise Rejection(
                0, E_HOST, "not a task folder, ui_messages.json or SDK session of Cline (CLN-1)"
            )
        return count_input(found, member, with_title)

    def stores(self) -> tuple[tuple[Base, ...], tuple[Store, ...]]:
        from .stores import BASES, STORES

        return BASES, STORES

    def anonymize_policy(self) -> Any:
        """What of a task folder is structure and what is a person's text (anonymize.py)."""
        from .anonymize import POLICY

        return POLICY


HOST = Cline()
