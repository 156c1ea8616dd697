/** Parses `--name value` pairs; unknown flags are an error so typos do not pass silently. */
export function parseArgs(argv: string[], allowed: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match || !allowed.includes(match[1])) throw new Error(`Unknown argument: ${arg}`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new Error(`--${match[1]} needs a value`);
    out[match[1]] = value;
  }
  return out;
}
