import type { MediaTools } from '../domain/ports.js';
import { convertImage } from './image.js';
import { limiter } from './limiter.js';
import { probeImage, probeVideo } from './probe.js';
import { convertVideo } from './video.js';

export interface MediaToolSettings {
  maxImagePixels: number;
  /** Bound of one ffprobe run. */
  probeTimeoutMs: number;
  /** Bound of one conversion (ffmpeg). */
  convertTimeoutMs: number;
  /** Conversions run at once in this process; the others wait their turn (each is CPU-bound). Default 2. */
  convertConcurrency?: number;
}

/** Probing and conversion: sharp for images, Debian's ffmpeg/ffprobe for videos (child processes, each bounded by a timeout). */
export function mediaTools(settings: MediaToolSettings): MediaTools {
  const inTurn = limiter(settings.convertConcurrency ?? 2);
  return {
    probe: (path, sniffed) => (sniffed.kind === 'image' ? probeImage(path, sniffed.contentType, settings.maxImagePixels) : probeVideo(path, sniffed.contentType, settings.probeTimeoutMs)),
    convert: (input, source, preset, output) =>
      inTurn(() =>
        preset.kind === 'image'
          ? convertImage(input, source, preset, output, { maxPixels: settings.maxImagePixels, timeoutMs: settings.convertTimeoutMs })
          : convertVideo(input, preset, output, settings.convertTimeoutMs),
      ),
  };
}
