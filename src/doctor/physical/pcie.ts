/**
 * PCIe link arithmetic: what a link of a given speed and width can carry, one direction.
 * Sources (../shared/facts/hardware-limits.md section 1): the kernel's own factors,
 * torvalds/linux drivers/pci/pci.h PCIE_SPEED2MBS_ENC (2.5 and 5 GT/s: 8b/10b; 8, 16 and
 * 32 GT/s: 128b/130b); Gen6 (64 GT/s, PAM4, FLIT mode) carries 236 B of TLP in each 256 B FLIT
 * (https://glennklockwood.com/garden/PCIe-Gen6), ~118 GB/s on x16.
 */

/** One end's view of a link as sysfs prints it: speed (GT/s per lane) and width (lanes); null where unknown or absent. */
export interface LinkReading {
  /** The file's text as read, without its newline ('32.0 GT/s PCIe', 'Unknown'), or null when the file is absent. */
  readonly speedText: string | null;
  /** GT/s per lane, parsed; null for 'Unknown' or an absent file. */
  readonly gts: number | null;
  readonly width: number | null;
}

/** Encoding efficiency per transfer rate (GT/s): payload bits per line bit. */
export function encodingFactor(gts: number): number | null {
  if (gts === 2.5 || gts === 5) return 8 / 10; // Gen1, Gen2: 8b/10b
  if (gts === 8 || gts === 16 || gts === 32) return 128 / 130; // Gen3-5: 128b/130b
  // Gen6 FLIT mode: 236 B of TLP per 256 B FLIT (the rest: DLP, CRC, FEC). The kernel counts
  // 64000*1/1 (raw); doctor judges throughput, so it takes the usable rate.
  if (gts === 64) return 236 / 256;
  return null; // a speed no source here describes (Gen7 and later): not judged
}

/** The PCIe generation of a transfer rate, for messages ('Gen5'); null for an unknown rate. */
export function generationOf(gts: number): number | null {
  const gens: Record<number, number> = { 2.5: 1, 5: 2, 8: 3, 16: 4, 32: 5, 64: 6 };
  return gens[gts] ?? null;
}

/**
 * Parses a sysfs link speed: '32.0 GT/s PCIe' (kernels after 5.6, pci_speed_string()),
 * '8 GT/s' (older kernels), 'Unknown' / 'Unknown speed' -> null. The facts' regex.
 */
export function parseLinkSpeed(text: string | null): number | null {
  if (text === null) return null;
  const m = /([0-9.]+)\s*GT\/s/.exec(text);
  return m ? Number(m[1]) : null;
}

/** Parses a sysfs link width ('16\n'); 0, garbage or an absent file -> null. */
export function parseLinkWidth(text: string | null): number | null {
  if (text === null) return null;
  const n = Number(text.trim());
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** A reading from the two files' texts. */
export function linkReading(speedText: string | null, widthText: string | null): LinkReading {
  const speed = speedText === null ? null : speedText.trim();
  return { speedText: speed, gts: parseLinkSpeed(speed), width: parseLinkWidth(widthText) };
}

/** Decimal GB/s (1e9 B/s) one direction of a link, after line encoding; null when speed or width is unknown. */
export function linkGBps(reading: Pick<LinkReading, 'gts' | 'width'>): number | null {
  if (reading.gts === null || reading.width === null) return null;
  const enc = encodingFactor(reading.gts);
  return enc === null ? null : (reading.gts * enc * reading.width) / 8;
}

/** 'Gen5 x16 (32.0 GT/s, 63.0 GB/s)'; unknown parts said as such. */
export function formatLink(reading: LinkReading): string {
  const gen = reading.gts === null ? null : generationOf(reading.gts);
  const rate = linkGBps(reading);
  const speed = reading.gts === null ? (reading.speedText ?? 'no speed file') : `${reading.gts.toFixed(1)} GT/s`;
  const width = reading.width === null ? 'x?' : `x${reading.width}`;
  return `${gen ? `Gen${gen} ` : ''}${width} (${speed}${rate === null ? '' : `, ${rate.toFixed(1)} GB/s`})`;
}
