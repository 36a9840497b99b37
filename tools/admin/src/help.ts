/**
 * `spa-admin --help` and `spa-admin <group> [<command>] --help`: the usage lines of every command, or of
 * the commands asked about (read from the one usage text, so a command registered there has its help).
 */
export function helpText(usage: string, asked: readonly string[]): string | undefined {
  const lines = usage.split('\n');
  const commands = lines.filter((l) => /^ {2}\S/.test(l));
  const [group, command] = asked.filter((a) => a !== 'help');
  if (!group) return `${usage}\n\nRun \`spa-admin <command> --help\` for one command's flags. Output is JSON on stdout; errors go to stderr (exit 2 for usage errors).\n`;
  const matching = commands.filter((l) => {
    const [g = '', sub = ''] = l.trim().split(/\s+/);
    return g === group && (command === undefined || sub.split('|').includes(command));
  });
  if (!matching.length) return undefined;
  const footer = lines.filter((l) => l.startsWith('environment:'));
  return `usage: spa-admin ${[group, command].filter(Boolean).join(' ')} [flags]\n${matching.join('\n')}\n${footer.join('\n')}\n`;
}
