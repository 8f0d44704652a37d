import { createInterface } from "node:readline/promises";

/** Where commands write, so that tests can run them in-process and read what they said. */
export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM); long-running commands wait on it. */
  stopSignal: () => Promise<void>;
  /** Present only when stdin and stdout are a terminal: asks one question and resolves to the answer. */
  ask?: ((question: string) => Promise<string>) | undefined;
  /** Present only when stderr is a terminal: shows a transient progress line ("" clears it). */
  progress?: ((line: string) => void) | undefined;
}

export const processIo: CliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  stopSignal: () =>
    new Promise((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    }),
  get ask() {
    if (!process.stdin.isTTY || !process.stdout.isTTY) return undefined;
    return async (question: string) => {
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    };
  },
  get progress() {
    if (!process.stderr.isTTY) return undefined;
    return (line: string) => process.stderr.write(`\r\x1b[2K${line}`);
  },
};
