// Types of serve.mjs, for the TypeScript tests.
export declare const ROOT: string;
export declare const PEERS: string;
export declare const PEERS_NM: string;
export declare const BIN: string;
export declare const DATABASE: string;
export declare const LAYOUT: string;
export declare const INVOICES_LAYOUT: string;
export declare const GLOBALS_LAYOUT: string;
export declare const USERNAME: string;
export declare const PASSWORD: string;
export declare const LAYOUTS: string[];
export declare const SEED: string;
export declare const SCRIPTS: string;
export declare const peerRequire: NodeJS.Require;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export declare function peerImport(pathInNodeModules: string): Promise<any>;
export declare function peerVersion(name: string): string;
export interface Serve {
  url: string;
  stop(): Promise<void>;
  stderr(): string;
}
export declare function startServe(options?: { extraArgs?: string[] }): Promise<Serve>;
