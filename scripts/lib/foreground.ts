/**
 * A server program the tests and benches start in the foreground (nginx, PgBouncer): started,
 * waited for until its port answers (or it exits, or 10 s pass: then killed, and its own words
 * thrown), killed with the process that started it, and stopped with its own signal.
 */
import { spawn } from "node:child_process";
import { connect } from "node:net";

export interface Foreground {
  stop(): Promise<void>;
}

export async function startForeground(options: {
  name: string;
  command: string;
  args: string[];
  port: number;
  /** The signal that stops it cleanly (nginx: SIGQUIT; PgBouncer: SIGINT). */
  stopSignal: NodeJS.Signals;
  /** What it said in its own log when it did not start, beside its standard error. */
  log: () => string;
}): Promise<Foreground> {
  const child = spawn(options.command, options.args, { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk) => (errors += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  const until = Date.now() + 10_000;
  while (!(await listening(options.port))) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error(`${options.name} did not start: ${errors || options.log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    async stop() {
      process.off("exit", kill);
      if (child.exitCode === null) child.kill(options.stopSignal);
      await exited;
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
