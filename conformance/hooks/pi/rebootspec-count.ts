/**
 * rebootspec for pi: after each compaction, write this session's count to a file.
 *
 * Why an extension: pi tells an extension its session (`ctx.sessionManager`) and fires
 * `session_compact` once the compaction entry is written, so the count is current at the moment
 * of the reboot. (pi 0.82.0 and later also set PI_SESSION_FILE for the bash tool, where
 * `rebootspec whoami` reads it; this extension serves older releases and status lines.)
 *
 * Install: `pi -e conformance/hooks/pi/rebootspec-count.ts`, or copy the file into
 * ~/.pi/agent/extensions/. The answer (the JSON of `rebootspec whoami`) goes to
 * $REBOOTSPEC_HOOK_OUT, else ~/.cache/rebootspec/<session id>.json; $REBOOTSPEC_COMMAND names
 * the program (default `rebootspec`). A failure is shown as a notice, never an exception.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

function target(sessionId: string): string {
	const chosen = process.env.REBOOTSPEC_HOOK_OUT;
	if (chosen) return chosen;
	return join(homedir(), ".cache", "rebootspec", `${sessionId}.json`);
}

function writeCount(sessionFile: string | undefined, sessionId: string): Promise<string> {
	const out = target(sessionId);
	mkdirSync(dirname(out), { recursive: true });
	const program = process.env.REBOOTSPEC_COMMAND || "rebootspec";
	return new Promise((resolve) => {
		const child = spawn(program, ["hook", "--out", out], { stdio: ["pipe", "ignore", "pipe"] });
		let err = "";
		child.stderr.on("data", (chunk) => {
			err += String(chunk);
		});
		child.on("error", (error) => resolve(`rebootspec: ${error.message}`));
		child.on("close", (code) => resolve(code === 0 ? "" : err.trim().split("\n")[0]));
		const payload = { session_id: sessionId, transcript_path: sessionFile ?? null, hook_event_name: "session_compact" };
		child.stdin.end(JSON.stringify(payload));
	});
}

// biome-ignore lint: the ExtensionAPI type lives in pi's package, not a dependency of ours
export default function rebootspecCount(pi: any): void {
	pi.on("session_compact", async (_event: unknown, ctx: any) => {
		const manager = ctx.sessionManager;
		const problem = await writeCount(manager.getSessionFile(), manager.getSessionId());
		if (problem && ctx.hasUI) ctx.ui.notify(problem, "warning");
	});
}
