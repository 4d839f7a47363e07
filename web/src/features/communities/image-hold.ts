/**
 * Images held back until a signal (decision 031: a list's first image loads alone). A card that
 * asks after the release is shown at once: a release can fall between a card's render (held) and
 * its effect (asking), and a card asking too late would otherwise stay without an image.
 */
export interface ImageHold {
  readonly held: boolean;
  /** Shows the held images now; later calls do nothing. */
  release(): void;
  /** Runs `show` at the release, or now if it is past; the returned function withdraws it. */
  whenReleased(show: () => void): () => void;
}

export function createImageHold(): ImageHold {
  let held = true;
  const waiting = new Set<() => void>();
  return {
    get held() {
      return held;
    },
    release() {
      if (!held) return;
      held = false;
      for (const show of waiting) show();
      waiting.clear();
    },
    whenReleased(show) {
      if (!held) {
        show();
        return () => {};
      }
      waiting.add(show);
      return () => {
        waiting.delete(show);
      };
    },
  };
}
