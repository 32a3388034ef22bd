/**
 * rebootspec for opencode: after each compaction, write the session's count to a file.
 *
 * Why a plugin: opencode's bash tool gives a command no session id (only OPENCODE=1), so
 * `rebootspec whoami` cannot name the session there; a plugin's `event` hook receives
 * `session.compacted` with the session's id once the compaction is done, and
 * `rebootspec hook` finds that session in opencode's store.
 *
 * Install: list this file under "plugin" in opencode.json, or copy it into
 * .opencode/plugin/ (or ~/.config/opencode/plugin/). The answer (the JSON of
 * `rebootspec whoami`) goes to $REBOOTSPEC_HOOK_OUT, else ~/.cache/rebootspec/<session id>.json;
 * $REBOOTSPEC_COMMAND names the program (default `rebootspec`).
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

function writeCount(sessionId: string): Promise<number | null> {
	const out = process.env.REBOOTSPEC_HOOK_OUT || join(homedir(), ".cache", "rebootspec", `${sessionId}.json`);
	mkdirSync(dirname(out), { recursive: true });
	const program = process.env.REBOOTSPEC_COMMAND || "rebootspec";
	return new Promise((resolve) => {
		const child = spawn(program, ["hook", "--out", out], { stdio: ["pipe", "ignore", "ignore"] });
		child.on("error", () => resolve(null));
		child.on("close", (code) => resolve(code));
		child.stdin.end(JSON.stringify({ session_id: sessionId, hook_event_name: "session.compacted" }));
	});
}

// biome-ignore lint: the Plugin type lives in @opencode-ai/plugin, not a dependency of ours
export const RebootspecCount = async (_input: any) => ({
	event: async ({ event }: { event: { type: string; properties?: { sessionID?: string } } }) => {
		const sessionId = event.properties?.sessionID;
		if (event.type === "session.compacted" && sessionId) await writeCount(sessionId);
	},
});
