import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCredentials, type PullSettings } from "../../src/pull/settings.js";
import { tempDir } from "./helpers.js";

// The credentials' variables that are missing are named all at once, so that one run tells everything to set: an
// empty .env (or one copied from .env.example and never filled in) names both, not the account's alone.

async function settingsWith(envText: string | undefined): Promise<PullSettings> {
  const root = await tempDir("pull-credentials");
  const envFile = envText === undefined ? undefined : join(root, ".env");
  if (envFile !== undefined && envText !== undefined) await writeFile(envFile, envText);
  return { server: "http://127.0.0.1:1", database: "Contacts", usernameEnv: "FM_USERNAME", passwordEnv: "FM_PASSWORD", root, envFile } as PullSettings;
}

async function refusal(envText: string | undefined, env: Record<string, string> = {}): Promise<string> {
  const settings = await settingsWith(envText);
  return readCredentials(settings, env).then(
    () => "",
    (error: unknown) => (error as Error).message.replace(settings.envFile ?? "\0", ".env"),
  );
}

const HEAD = "fmgen pull logs in with the account in FM_USERNAME and FM_PASSWORD; set";

describe("readCredentials names every missing variable at once", () => {
  it.each([
    ["an empty .env", "", `${HEAD} FM_USERNAME and FM_PASSWORD in the environment or in a .env file (read: .env)`],
    ["a .env of comments", "# FM_USERNAME=\n", `${HEAD} FM_USERNAME and FM_PASSWORD in the environment or in a .env file (read: .env)`],
    ["a .env copied from .env.example, never filled in", "FM_USERNAME=\nFM_PASSWORD=\n", `${HEAD} FM_USERNAME and FM_PASSWORD in the environment or in a .env file (read: .env; FM_USERNAME and FM_PASSWORD are empty)`],
    ["a password and no account", "FM_PASSWORD=secret\n", `${HEAD} FM_USERNAME in the environment or in a .env file (read: .env)`],
    ["an empty account", "FM_USERNAME=\nFM_PASSWORD=secret\n", `${HEAD} FM_USERNAME in the environment or in a .env file (read: .env; FM_USERNAME is empty)`],
    ["an account and no password", "FM_USERNAME=web\n", `${HEAD} FM_PASSWORD in the environment or in a .env file (read: .env)`],
  ])("%s", async (_what, text, message) => {
    expect(await refusal(text)).toBe(message);
  });

  it("takes an empty password when the account is given (an account may have none)", async () => {
    expect(await refusal("FM_USERNAME=web\nFM_PASSWORD=\n")).toBe("");
  });

  it("without a .env file: both, from the environment", async () => {
    expect(await refusal(undefined)).toBe(`${HEAD} FM_USERNAME and FM_PASSWORD in the environment or in a .env file`);
    expect(await refusal(undefined, { FM_USERNAME: "web" })).toBe(`${HEAD} FM_PASSWORD in the environment or in a .env file`);
  });
});
