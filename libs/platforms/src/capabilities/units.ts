/**
 * Units of the capability table. Sizes use decimal units (MB = 1,000,000 bytes) unless the source states
 * binary units: when a source says "5 MB" the decimal reading is the smaller, safer cap.
 */
export const MB = 1_000_000;
export const GB = 1_000_000_000;
export const MiB = 1024 * 1024;

export const JPEG = 'image/jpeg';
export const PNG = 'image/png';
export const GIF = 'image/gif';
export const WEBP = 'image/webp';
export const MP4 = 'video/mp4';
export const MOV = 'video/quicktime';
export const WEBM = 'video/webm';
