import { execFile } from 'node:child_process';

/**
 * Runs a tool of Debian's `ffmpeg` package (ffmpeg, ffprobe) as a child process, killed when it runs past
 * `timeoutMs`; answers its standard output. A failure carries the tool's own last error lines.
 */
export function runTool(command: 'ffmpeg' | 'ffprobe', args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 8 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const timedOut = (err as { killed?: boolean }).killed === true;
      const why = timedOut ? `ran past ${timeoutMs} ms and was stopped` : stderr.trim().split('\n').slice(-3).join(' ') || err.message;
      reject(new Error(`${command}: ${why}`, { cause: err }));
    });
  });
}
