import type { StartedProcess } from '../sandbox';

/**
 * How a `.mjs` skill script's Node is started. Plain Node (`forge serve`, the CLI, tests) spawns
 * `process.execPath` itself and needs no launcher. Inside Electron, `process.execPath` is the app:
 * with the `runAsNode` fuse off (packaged builds) ELECTRON_RUN_AS_NODE is ignored and it would
 * start a second Forge, so there the shell must inject a launcher (a utility process) and the
 * runner refuses without one.
 */

export interface NodeScriptLaunch {
  /** Absolute path of the script. */
  script: string;
  args: string[];
  /** Node options for the script: `--no-warnings`, the permission flags, `--import=<network block>`. */
  execArgv: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface NodeScriptLauncher {
  /**
   * The permission-model flag the launched Node enforces (`--permission`, `--experimental-permission`),
   * or null when it has none: the runner then passes no permission flags and reports `sandboxed: false`.
   */
  permissionFlag(): string | null;
  /** Starts the script; its JSON input is written to the returned process's stdin. */
  launch(spec: NodeScriptLaunch): StartedProcess;
}

export type { StartedProcess };
