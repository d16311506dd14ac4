/** `--name value` and `--name=value` options; null when an argument is not an option or lacks its value. */
export function parseOptions(args: string[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i]);
    if (!m) return null;
    const value = m[2] ?? args[++i];
    if (value === undefined) return null;
    out[m[1]] = value;
  }
  return out;
}
