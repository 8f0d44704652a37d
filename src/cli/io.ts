/** Where commands write, so that tests can run them in-process and read what they said. */
export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** Resolves when the process is asked to stop (SIGINT, SIGTERM); long-running commands wait on it. */
  stopSignal: () => Promise<void>;
}

export const processIo: CliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  stopSignal: () =>
    new Promise((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    }),
};
