import { type LinkReading, linkGBps } from './pcie.js';
import { type PciHop, readCurrentLinks } from './sysfs.js';

/**
 * Reads the current link of each hop again and again while uploads run, keeping each hop's best
 * reading: NVIDIA GPUs train their link down at idle and back up under load (P8 -> Gen1, P0 ->
 * Gen3 on one Gen4 card, NVIDIA/open-gpu-kernel-modules #731; RTX 50xx idle at Gen1, #1010), and
 * DCGM checks the link only in P0 (NVIDIA/DCGM bg_check_pci_link). The best reading under load is
 * the link as trained for work: a degraded link stays low in every sample.
 */
export class LinkSampler {
  readonly #hops: readonly PciHop[];
  readonly #best = new Map<string, LinkReading>();
  #samples = 0;

  constructor(hops: readonly PciHop[]) {
    this.#hops = hops;
  }

  sample(): void {
    this.#samples++;
    for (const [bdf, reading] of readCurrentLinks(this.#hops)) {
      const kept = this.#best.get(bdf);
      if (!kept || (linkGBps(reading) ?? -1) > (linkGBps(kept) ?? -1)) this.#best.set(bdf, reading);
    }
  }

  /** Samples now and every `intervalMs` until the returned function is called (which samples once more). */
  start(intervalMs = 25): () => void {
    if (this.#hops.length === 0) return () => {};
    this.sample();
    const timer = setInterval(() => this.sample(), intervalMs);
    return () => {
      clearInterval(timer);
      this.sample();
    };
  }

  /** The best reading of each hop; null when nothing was sampled. */
  readings(): ReadonlyMap<string, LinkReading> | null {
    return this.#samples === 0 || this.#best.size === 0 ? null : this.#best;
  }

  /** Whether there is any link to read. */
  get watching(): boolean {
    return this.#hops.length > 0;
  }

  get samples(): number {
    return this.#samples;
  }
}
