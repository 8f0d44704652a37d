import { spawn } from "node:child_process";

/**
 * A shell command that prints its URL and runs until killed (`npx fmgen serve ...`), as a reader runs it in a second
 * terminal. It runs in a process group of its own, because npx runs the CLI in a grandchild (npm exec, then sh, then
 * node): stopping the group stops all three, where killing the shell alone would leave the emulator running.
 */
export interface UrlPrintingProcess {
  /** The first `http://...` the command printed. */
  readonly url: string;
  /** What it printed so far, stdout then stderr. */
  output(): string;
  /** Stops its whole process group (SIGTERM, then SIGKILL after STOP_GRACE_MS) and waits for it to exit. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

export function startUrlPrintingProcess(command: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<UrlPrintingProcess> {
  const child = spawn("sh", ["-c", command], { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is gone already.
    }
  };
  const stop = async () => {
    if (child.pid === undefined) return;
    signalGroup("SIGTERM");
    const grace = setTimeout(() => signalGroup("SIGKILL"), STOP_GRACE_MS);
    if (running()) await exited;
    clearTimeout(grace);
    // The shell may exit before its grandchildren: make sure none outlives it.
    signalGroup("SIGKILL");
  };
  const output = () => `${stdout}${stderr}`;
  return new Promise((resolve, reject) => {
    const fail = async (why: string) => {
      clearTimeout(timer);
      await stop();
      reject(new Error(`\`${command}\` ${why}:\n${output()}`));
    };
    const timer = setTimeout(() => void fail(`printed no URL within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once("error", (error) => void fail(`did not start (${error.message})`));
    const exitedEarly = (code: number | null, signal: NodeJS.Signals | null) => void fail(`exited (code ${code}, signal ${signal}) before printing a URL`);
    child.once("exit", exitedEarly);
    child.stdout.on("data", () => {
      const url = /https?:\/\/[^\s]+/.exec(stdout)?.[0];
      if (url === undefined) return;
      clearTimeout(timer);
      child.off("exit", exitedEarly);
      resolve({ url, output, stop });
    });
  });
}
