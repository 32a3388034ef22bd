"""What the anonymizer keeps verbatim and what it replaces: the allowed vocabulary.

Kept, because a counter's answer depends on it or it is schema, not content:
- object keys (and the string elements of a log line's `k` path, which name keys) that are
  members of VS Code's or Copilot's session schema (`STRUCTURAL_KEYS`); every other key is data
  (a map keyed by file names, URIs, tool-call ids or user text) and is replaced like a value, the
  same pseudonym wherever it stands, so `k` paths still reach the members they name;
- every string of spec/eras.toml (markers, in-progress texts, part kinds, `/compact` texts,
  the slash-command name, era ids...), wherever it stands (ERA-1, ERA-2);
- the value of a member named `kind` when it is that member's own value (not inside an array
  or object under it) and a known part or variable kind (`KNOWN_KINDS`, MRK-1), and
  `slashCommand.name` (MRK-4);
- a few enum values under known keys (`ENUM_VALUES`): they are closed sets chosen by the code
  that writes them, never typed by a person;
- the empty string (an empty summary is a failed one, SUM-3);
- the command word of a `/compact ...` message (MRK-4) and the stem and trailing `...` of an
  in-progress text with a percentage (MRK-2); the rest of such a string is replaced;
- VS Code's truncation text (UNC-8): a string that is exactly
  `[VS Code: value truncated for persistence; original N chars]` or `...; entry exceeded size
  budget]` stays whole (VS Code wrote it in place of the user's text, which is gone; the
  reference warns `W-TRUNCATED` on it and compares it as stored, SUM-8), and any other string
  that starts with the marker keeps the marker and has the rest replaced.
Everything else is replaced by a pseudonym.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..hosts.vscode.eras import table as era_table

# Closed enum sets written by Copilot Chat or VS Code, never free text: summaries[].outcome and
# summaries[].source (Copilot Chat >= 0.40, SPEC.md SUM-1 and UNC-4) and the session's
# initialLocation (ChatAgentLocation values).
ENUM_VALUES: dict[str, frozenset[str]] = {
    "outcome": frozenset({"success", "budgetExceeded", "error", "cancelled"}),
    "source": frozenset({"foreground", "background"}),
    "initialLocation": frozenset({"panel", "editor", "terminal", "notebook", "editing-session"}),
}
# Keys the reference reads; a pseudonymized data key must never become one of them.
SCHEMA_KEYS = frozenset(
    {
        "requests",
        "response",
        "kind",
        "content",
        "value",
        "result",
        "metadata",
        "summaries",
        "summary",
        "text",
        "slashCommand",
        "name",
        "message",
        "toolCallRounds",
        "compaction",
        "requestId",
        "timestamp",
        "k",
        "v",
        "i",
    }
)
# Member names of VS Code's chat session schema and Copilot Chat's result metadata, as they
# appear in real and generated sessions. Keys outside this set are content and get pseudonyms.
STRUCTURAL_KEYS = SCHEMA_KEYS | frozenset(
    [
        "$mid",
        "_lower",
        "_sep",
        "afterUndoStop",
        "agent",
        "agentId",
        "anchor",
        "arguments",
        "attachments",
        "authority",
        "autoApproveInfo",
        "automaticallyAdded",
        "background",
        "baseUri",
        "buttons",
        "cacheKey",
        "cacheType",
        "canAccessPreviousChatHistory",
        "capabilities",
        "category",
        "character",
        "children",
        "code",
        "codeBlocks",
        "codeCitations",
        "collectionId",
        "command",
        "commandLine",
        "completedAt",
        "confirmation",
        "confirmationButtons",
        "containerName",
        "contentReferences",
        "contextLengthBefore",
        "contrib",
        "copilotContinueOnError",
        "copilotRequestedRoundLimit",
        "creationDate",
        "ctor",
        "ctorName",
        "customTitle",
        "data",
        "definitionId",
        "description",
        "detail",
        "details",
        "didStartServerIds",
        "disambiguation",
        "done",
        "duration",
        "durationMs",
        "editedFileEvents",
        "editorRange",
        "edits",
        "enabledCommands",
        "encrypted",
        "encrypted_content",
        "endColumn",
        "endExclusive",
        "endLineNumber",
        "errorDetails",
        "eventKind",
        "examples",
        "exitCode",
        "extensionDisplayName",
        "extensionId",
        "extensionPublisherId",
        "extensionVersion",
        "external",
        "filterReason",
        "firstProgress",
        "flags",
        "flexGrow",
        "followups",
        "foreground",
        "fragment",
        "fsPath",
        "fullName",
        "generatedTitle",
        "hasFollowups",
        "hasPendingEdits",
        "helpTextPostfix",
        "helpTextPrefix",
        "icon",
        "id",
        "identifier",
        "initialLocation",
        "inlineReference",
        "inputState",
        "inputText",
        "invocationMessage",
        "isCanceled",
        "isComplete",
        "isConfirmed",
        "isCore",
        "isDefault",
        "isDynamic",
        "isEdit",
        "isError",
        "isFromTool",
        "isHidden",
        "isImported",
        "isRoot",
        "isSticky",
        "isText",
        "isTrusted",
        "isUsed",
        "keepWithId",
        "label",
        "language",
        "lastMessageDate",
        "line",
        "lineBreakBefore",
        "lineCount",
        "location",
        "locations",
        "markdownBeforeBlock",
        "maxToolCallsExceeded",
        "mode",
        "model",
        "modelDescription",
        "modelId",
        "modelMessageId",
        "modelState",
        "modes",
        "numRounds",
        "numRoundsSinceLastSummarization",
        "options",
        "originLabel",
        "originMessage",
        "original",
        "outcome",
        "output",
        "parts",
        "passPriority",
        "pastTenseMessage",
        "path",
        "pendingRequests",
        "positionColumn",
        "positionLineNumber",
        "presentation",
        "priority",
        "progress",
        "promptTokenDetails",
        "props",
        "publisherDisplayName",
        "range",
        "reference",
        "references",
        "renderedGlobalContext",
        "renderedUserMessage",
        "repoData",
        "requester",
        "requesterAvatarIconUri",
        "requesterUsername",
        "resolveId",
        "resolvedModel",
        "resource",
        "responderAvatarIconUri",
        "responderUsername",
        "responseId",
        "responseIsIncomplete",
        "responseMarkdownInfo",
        "resultDetails",
        "sampleRequest",
        "scheme",
        "scope",
        "selectedModel",
        "selectionStartColumn",
        "selectionStartLineNumber",
        "selections",
        "serverLabel",
        "sessionId",
        "shouldBeRemovedOnSend",
        "slashCommands",
        "slashPromptCommand",
        "source",
        "start",
        "startColumn",
        "startLineNumber",
        "statefulMarker",
        "status",
        "stopReason",
        "suggestionId",
        "summarizationMode",
        "supportAlertSyntax",
        "supportHtml",
        "supportIssueReporting",
        "supportThemeIcons",
        "supportsFileAttachments",
        "supportsProblemAttachments",
        "supportsSearchResultAttachments",
        "supportsSourceControlAttachments",
        "supportsSymbolAttachments",
        "supportsToolAttachments",
        "terminalCommandId",
        "terminalCommandOutput",
        "terminalCommandState",
        "terminalCommandUri",
        "terminalTheme",
        "terminalToolSessionId",
        "themeIcon",
        "thinking",
        "timeSpentWaiting",
        "timings",
        "title",
        "todoList",
        "tokens",
        "toolCallId",
        "toolCallResults",
        "toolCallRoundId",
        "toolCalls",
        "toolEdited",
        "toolId",
        "toolInputRetry",
        "toolName",
        "toolReferences",
        "toolSpecificData",
        "totalElapsed",
        "type",
        "undoStopId",
        "uri",
        "uris",
        "usage",
        "variableData",
        "variables",
        "version",
        "vscodeReasoningDone",
        "when",
        "workingDirectory",
    ]
)
# Response-part, variable and reference kinds VS Code writes (closed sets chosen by code).
KNOWN_KINDS = frozenset(
    [
        "agent",
        "codeblockUri",
        "command",
        "confirmation",
        "elicitation",
        "extensions",
        "file",
        "inlineReference",
        "markdownContent",
        "markdownVuln",
        "mcpServersStarting",
        "multiDiffData",
        "notebookEditGroup",
        "prepareToolInvocation",
        "progressMessage",
        "progressTask",
        "progressTaskSerialized",
        "prompt",
        "promptFile",
        "promptText",
        "pullRequest",
        "reference",
        "slash",
        "subcommand",
        "terminal",
        "text",
        "textEditGroup",
        "thinking",
        "todoList",
        "tool",
        "toolInvocation",
        "toolInvocationSerialized",
        "treeData",
        "undoStop",
        "warning",
        "workspace",
    ]
)
_ELLIPSIS = "..."
# UNC-8: what VS Code writes instead of a string too large to persist (objectMutationLog.ts).
TRUNCATION_PREFIX = "[VS Code: value truncated for persistence;"
_TRUNCATION_TEXT = re.compile(
    re.escape(TRUNCATION_PREFIX) + r" (?:original [0-9]+ chars|entry exceeded size budget)\]\Z"
)


def strings_of(value: Any) -> set[str]:
    """Every string in a parsed TOML/JSON value (keys and values)."""
    found: set[str] = set()
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found.add(key)
            found |= strings_of(item)
    elif isinstance(value, list):
        for item in value:
            found |= strings_of(item)
    return found


@dataclass(frozen=True)
class Split:
    """Keep `head` and `tail`, replace `middle` (a prefix rule matched)."""

    head: str
    middle: str
    tail: str


class Policy:
    """Decides, for one string, whether to keep it, replace it, or keep only its command part."""

    def __init__(self, table: dict[str, Any] | None = None) -> None:
        table = table if table is not None else era_table()
        self.vocabulary: frozenset[str] = frozenset(strings_of(table))
        manual = table["manual"]
        self._command = re.compile(re.escape(manual["message_command"]) + r"(\s)(.*)\Z", re.S)
        in_progress = {text for era in table["eras"] for text in era["in_progress"]}
        in_progress |= set(manual["in_progress"])
        self._stems = tuple(sorted(t.removesuffix(_ELLIPSIS) for t in in_progress))

    def reserved(self) -> frozenset[str]:
        """Strings a pseudonym must never equal."""
        return self.vocabulary | SCHEMA_KEYS | {v for vs in ENUM_VALUES.values() for v in vs}

    @staticmethod
    def is_data_key(key: str) -> bool:
        """A key that is content (anything that is not a member name of the schema)."""
        return key not in STRUCTURAL_KEYS

    def keeps_value(self, text: str, key: str | None, parent: str | None, direct: bool) -> bool:
        """True when a string value stays verbatim (see the module docstring).

        `direct` says the string is the member's own value, not an item of an array under it.
        """
        if not text or text in self.vocabulary or _TRUNCATION_TEXT.match(text):
            return True
        if key == "kind":
            return direct and text in KNOWN_KINDS
        if key == "name" and parent == "slashCommand":
            return direct
        return direct and key is not None and text in ENUM_VALUES.get(key, ())

    def split(self, text: str) -> Split | None:
        """The `/compact`, in-progress and truncation prefix rules: what to keep around the
        replaced part."""
        if text.startswith(TRUNCATION_PREFIX):  # not VS Code's exact text: keep the marker only
            return Split(TRUNCATION_PREFIX, text[len(TRUNCATION_PREFIX) :], "")
        match = self._command.match(text)
        if match is not None:  # "/compact", whitespace, then what to replace (maybe nothing)
            return Split(text[: match.start(2)], match.group(2), "")
        if text.endswith(_ELLIPSIS):
            for stem in self._stems:
                if text.startswith(stem) and len(text) > len(stem) + len(_ELLIPSIS):
                    return Split(stem, text[len(stem) : -len(_ELLIPSIS)], _ELLIPSIS)
        return None
